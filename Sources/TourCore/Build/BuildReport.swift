import Foundation

/// A failed build in plain lines, the way `tour watch` and `tour run` print it: each compiler message, its source line
/// and a caret under its column, then its notes the same way; or, when no message points at a line, the lines that
/// say why.
public enum BuildReport {
    /// The lines for a build that ran and failed.
    public static func failureLines(_ outcome: BuildOutcome) -> [String] {
        let diagnostics = outcome.diagnostics.diagnostics
        guard diagnostics.isEmpty else { return diagnostics.flatMap { lines(for: $0) } }
        let why = outcome.diagnostics.unlocatedErrors.isEmpty ? Array(outcome.output.suffix(20)) : outcome.diagnostics.unlocatedErrors
        return ["The build failed without pointing at a line:"] + why.map { "  \($0)" }
    }

    /// `main.swift:12:5: error: message`, the source line, a caret under the column, then the notes the same way.
    public static func lines(for diagnostic: Diagnostic, indent: String = "") -> [String] {
        var said = [indent + diagnostic.shortDescription]
        if let source = diagnostic.sourceLine {
            let gutter = String(diagnostic.line)
            said.append("\(indent)  \(gutter) | \(source)")
            let caretIndent = String(repeating: " ", count: max(0, diagnostic.column - 1))
            said.append("\(indent)  \(String(repeating: " ", count: gutter.count)) | \(caretIndent)^")
        }
        return said + diagnostic.notes.flatMap { lines(for: $0, indent: indent + "    ") }
    }
}
