import Foundation
import PageProtocol

/// Times `body` and shows the result beside the line that called it, as a playground's results sidebar does.
///
/// The time is always measured, never scaled by the speed factor.
@discardableResult
public func duration(file: String = #fileID, line: Int = #line, _ body: () throws -> Void) rethrows -> Double {
    let start = monotonicNanoseconds()
    try body()
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    report(file: file, line: line, kind: .duration, text: formatSeconds(seconds), seconds: seconds)
    return seconds
}

/// Shows `value` beside the line that called it and hands it back unchanged.
@discardableResult
public func peek<T>(_ value: T, file: String = #fileID, line: Int = #line) -> T {
    report(file: file, line: line, kind: .peek, text: describe(value), seconds: nil)
    return value
}

/// The longest text a result carries; the sidebar shows one line, so more would only cost bandwidth.
let resultTextLimit = 200

private func describe<T>(_ value: T) -> String {
    var text = String(describing: value)
    if let optional = value as? OptionalDescribing { text = optional.unwrappedDescription }
    text = text.replacingOccurrences(of: "\n", with: " ")
    return text.count > resultTextLimit ? String(text.prefix(resultTextLimit)) + "…" : text
}

/// Lets `peek(optional)` show `42` or `nil` rather than `Optional(42)`.
private protocol OptionalDescribing {
    var unwrappedDescription: String { get }
}

extension Optional: OptionalDescribing {
    var unwrappedDescription: String {
        switch self {
        case .some(let wrapped): String(describing: wrapped)
        case .none: "nil"
        }
    }
}

private func report(file: String, line: Int, kind: ResultKind, text: String, seconds: Double?) {
    let session = LessonSession.shared
    session.emit(.result(file: String(file.split(separator: "/").last ?? Substring(file)), line: line, kind: kind,
                         text: text, seconds: seconds))
    session.narrate("line \(line): \(text)")
}
