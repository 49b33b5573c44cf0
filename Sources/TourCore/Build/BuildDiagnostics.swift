import Foundation

/// One compiler message tied to a place in a source file.
public struct Diagnostic: Sendable, Equatable, Hashable {
    public enum Severity: String, Sendable, Equatable, Hashable {
        case error, warning, note
    }

    /// The absolute path the compiler printed.
    public var file: String
    /// 1-based line and column.
    public var line: Int
    public var column: Int
    public var severity: Severity
    public var message: String
    /// The notes that explain this diagnostic, such as "'photo' previously declared here".
    public var notes: [Diagnostic]

    public init(file: String, line: Int, column: Int, severity: Severity, message: String, notes: [Diagnostic] = []) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.message = message
        self.notes = notes
    }

    /// `main.swift:12:5: error: message`, the form `tour watch` prints.
    public var shortDescription: String {
        "\((file as NSString).lastPathComponent):\(line):\(column): \(severity.rawValue): \(message)"
    }

    /// The file as a learner types it in `packageRoot` (`Exercises/06-GCD/main.swift`), or as the compiler printed it
    /// when it is outside.
    public func file(relativeTo packageRoot: URL) -> String {
        let root = packageRoot.standardizedFileURL.path + "/"
        return file.hasPrefix(root) ? String(file.dropFirst(root.count)) : file
    }

    /// The line the diagnostic points at, read from its file now, with each tab one space so a column still counts
    /// characters; nil when the file or the line is gone.
    public var sourceLine: String? {
        guard line >= 1, let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return line <= lines.count ? lines[line - 1].replacingOccurrences(of: "\t", with: " ") : nil
    }
}

/// What a failed `swift build` said: the diagnostics on source lines, and the errors tied to no line
/// (a linker failure, a missing product), which matter only when there are no located ones.
public struct BuildDiagnostics: Sendable, Equatable {
    public var diagnostics: [Diagnostic]
    public var unlocatedErrors: [String]

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    /// Each error (the first `limit` of them) in tour's words rather than SwiftPM's: its place from the package root
    /// and its message (`Exercises/06-GCD/main.swift:12: error: …`), then the line itself, indented by `indent` and four
    /// spaces more.
    public func errorLines(relativeTo packageRoot: URL, indent: String = "", limit: Int = .max) -> [String] {
        errors.prefix(limit).flatMap { error in
            let place = "\(indent)\(error.file(relativeTo: packageRoot)):\(error.line): error: \(error.message)"
            guard let source = error.sourceLine?.trimmingCharacters(in: .whitespaces), !source.isEmpty else { return [place] }
            return [place, "\(indent)    \(source)"]
        }
    }

    /// Parses the whole output of `swift build` on Linux.
    ///
    /// Handles `path:line:col: severity: message` headers, the older form where notes follow their error as
    /// headers of their own, the source excerpts of newer compilers (`21 | code` and `|  `- note: …` markers,
    /// whose notes are attached to the diagnostic the excerpt belongs to), and SwiftPM printing the same
    /// diagnostic twice (once for compiling the file, once for emitting the module).
    public static func parse(_ output: String) -> BuildDiagnostics {
        var parser = Parser()
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            parser.take(String(line))
        }
        return parser.finish()
    }

    private struct Parser {
        var diagnostics: [Diagnostic] = []
        var unlocated: [String] = []
        var seen: Set<Diagnostic> = []
        /// The diagnostic whose excerpt or notes are being read; nil outside one.
        var current: Diagnostic?
        /// The source line number of the excerpt row read last, for markers under it.
        var excerptLine: Int?

        mutating func take(_ line: String) {
            if let header = Self.header(line) {
                if header.severity == .note, current != nil {
                    // Printed twice when SwiftPM repeats the diagnostic; keep it once.
                    if !current!.notes.contains(header) { current!.notes.append(header) }
                    excerptLine = nil
                    return
                }
                // A note with nothing before it to belong to stands on its own rather than being lost.
                flush()
                current = header
                return
            }
            if line.hasPrefix("error: ") || line.hasPrefix("warning: ") || Self.isProgress(line) {
                flush()
                if line.hasPrefix("error: ") {
                    let message = String(line.dropFirst("error: ".count))
                    // SwiftPM's summary of a compiler failure repeats what the located errors already say.
                    if !message.hasPrefix("emit-module command failed"), !message.hasPrefix("compile command failed"),
                       !unlocated.contains(message) {
                        unlocated.append(message)
                    }
                }
                return
            }
            // Anything else belongs to the current diagnostic: excerpt rows, markers, or the older form's
            // source line and caret, which can look like anything, so only the lines above end a diagnostic.
            guard current != nil else { return }
            if let number = Self.excerptRow(line) {
                excerptLine = number
            } else if let marker = Self.marker(line), let number = excerptLine, let file = current?.file {
                let isTheDiagnosticItself = marker.severity == current!.severity && marker.message == current!.message
                    && number == current!.line
                if !isTheDiagnosticItself {
                    current!.notes.append(Diagnostic(file: file, line: number, column: marker.column,
                                                     severity: marker.severity, message: marker.message))
                }
            }
        }

        mutating func flush() {
            guard let diagnostic = current else { return }
            current = nil
            excerptLine = nil
            if seen.insert(diagnostic).inserted { diagnostics.append(diagnostic) }
        }

        mutating func finish() -> BuildDiagnostics {
            flush()
            return BuildDiagnostics(diagnostics: diagnostics, unlocatedErrors: unlocated)
        }

        /// `/abs/File.swift:12:5: error: message`; the path may itself contain colons, so it is read from the right.
        static func header(_ line: String) -> Diagnostic? {
            for severity in [Diagnostic.Severity.error, .warning, .note] {
                guard let range = line.range(of: ": \(severity.rawValue): ") else { continue }
                let place = line[..<range.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
                guard place.count >= 3, let column = positive(place[place.count - 1]), let number = positive(place[place.count - 2]) else { continue }
                let file = place.dropLast(2).joined(separator: ":")
                guard file.hasPrefix("/") || file.hasSuffix(".swift") else { continue }
                return Diagnostic(file: file, line: number, column: column, severity: severity,
                                  message: String(line[range.upperBound...]))
            }
            return nil
        }

        /// ` 21 | let photo = …`: the source line number of an excerpt row.
        static func excerptRow(_ line: String) -> Int? {
            guard let bar = line.range(of: " |") else { return nil }
            return positive(Substring(line[..<bar.lowerBound].trimmingCharacters(in: .whitespaces)))
        }

        /// A line or column number as the compiler prints them: digits only, counting from 1. A sign, `0` or
        /// anything else is not one (`main.swift:-94:6:` is not a place in a file).
        static func positive(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let number = Int(text), number >= 1 else { return nil }
            return number
        }

        /// `[4/6] Compiling …`: SwiftPM's progress, which ends any diagnostic before it.
        static func isProgress(_ line: String) -> Bool {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return false }
            return line[line.index(after: line.startIndex)..<close].allSatisfy { $0.isNumber || $0 == "/" }
        }

        /// `    |     `- note: 'photo' previously declared here`, with its column under the row above.
        static func marker(_ line: String) -> (column: Int, severity: Diagnostic.Severity, message: String)? {
            guard let bar = line.firstIndex(of: "|"),
                  line[..<bar].allSatisfy({ $0 == " " }) else { return nil }
            let afterBar = line.index(after: bar)
            let rest = line[afterBar...]
            for arm in ["`- ", "|- "] {
                guard let armRange = rest.range(of: arm) else { continue }
                // The gutter is `NN | `: the bar, then one space, then the source text.
                // A marker straight after the bar points before the first character: column 1 is the nearest.
                let column = max(1, line.distance(from: afterBar, to: armRange.lowerBound))
                let text = rest[armRange.upperBound...]
                for severity in [Diagnostic.Severity.error, .warning, .note] where text.hasPrefix("\(severity.rawValue): ") {
                    return (column, severity, String(text.dropFirst(severity.rawValue.count + 2)))
                }
            }
            return nil
        }
    }
}
