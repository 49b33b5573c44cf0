import Foundation

/// The editor `e` opens: `$VISUAL`, else `$EDITOR`, else the first of a few common ones found on `PATH`.
public struct EditorChoice: Equatable, Sendable {
    /// As the learner wrote it, arguments included ("code -w", "emacs -nw"); run through `/bin/sh`, as git does.
    public var command: String
    /// "$VISUAL", "$EDITOR" or "found on PATH", for the help and messages.
    public var origin: String

    /// Tried in order when neither variable is set.
    public static let fallbacks = ["nano", "vim", "vi"]

    /// Editors known to take `+N` as "start on line N"; any other might open a file called "+12".
    public static let takesLineArgument: Set<String> = [
        "nano", "rnano", "pico", "vi", "vim", "nvim", "view", "gvim", "ex", "emacs", "emacsclient",
        "micro", "joe", "jmacs", "jed", "mg", "ne", "kak",
    ]

    public static func choose(environment: [String: String]) -> EditorChoice? {
        for variable in ["VISUAL", "EDITOR"] {
            if let command = environment[variable], !command.trimmingCharacters(in: .whitespaces).isEmpty {
                return EditorChoice(command: command, origin: "$\(variable)")
            }
        }
        let searchPath = SearchPath(environment: environment)
        return fallbacks.first { searchPath.find($0) != nil }.map { EditorChoice(command: $0, origin: "found on PATH") }
    }

    /// The program, without its arguments: "/usr/bin/vim" for "/usr/bin/vim -p".
    public var program: String {
        command.split(separator: " ").first.map(String.init) ?? command
    }

    /// The program's name without its folder: "vim" for "/usr/bin/vim -p".
    public var programName: String {
        (program as NSString).lastPathComponent
    }

    public init(command: String, origin: String) {
        self.command = command
        self.origin = origin
    }

    /// The arguments after the command: `+N` first where the editor is known to take it.
    public func arguments(file: String, line: Int) -> [String] {
        Self.takesLineArgument.contains(programName) ? ["+\(line)", file] : [file]
    }
}
