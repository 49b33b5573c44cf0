import Foundation
import PageProtocol

/// How plain mode may decorate its text: colour only on a terminal that wants it, non-ASCII characters only in a UTF-8 locale.
public struct PlainStyle: Sendable {
    public var colour: Bool
    public var unicode: Bool

    public init(colour: Bool, unicode: Bool) {
        self.colour = colour
        self.unicode = unicode
    }

    /// Bare ASCII text, for pipes, files, tests and screen readers (`--plain`).
    public static let bare = PlainStyle(colour: false, unicode: false)

    /// Colour when stdout is a terminal and `NO_COLOR` is unset, Unicode when the locale says UTF-8.
    public static func detect(forceBare: Bool) -> PlainStyle {
        if forceBare { return .bare }
        let environment = ProcessInfo.processInfo.environment
        let locale = environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? ""
        let unicode = locale.uppercased().contains("UTF-8") || locale.uppercased().contains("UTF8")
        let colour = isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        return PlainStyle(colour: colour, unicode: unicode)
    }

    /// `line` as plain mode prints it. Without colour no escape sequence or control character survives, whatever went
    /// into the line; without Unicode every character is ASCII (`TerminalText.ascii`: `µs` → `us`, `—` → `-`, and a
    /// page's own non-ASCII text transliterated or `?`). With colour, the report's own SGR sequences must stay, so text
    /// from the page is sanitised where it goes into the line (`TerminalText.sanitized`), not here.
    public func printable(_ line: String) -> String {
        let text = colour ? line : TerminalText.sanitized(line)
        return unicode ? text : TerminalText.ascii(text)
    }

    public func bold(_ text: String) -> String { colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    public func dim(_ text: String) -> String { colour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    public func red(_ text: String) -> String { colour ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
    public func green(_ text: String) -> String { colour ? "\u{1B}[32m\(text)\u{1B}[0m" : text }

    public var markCharacter: Character { unicode ? "▲" : "^" }
    public var emptyCharacter: Character { unicode ? "·" : "." }
}
