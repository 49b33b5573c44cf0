@preconcurrency import Glibc
import CNcursesw
import Foundation
import TourCore
import TourInterface

/// Lends the terminal to the learner's editor and takes it back: curses mode off, the editor on the real tty
/// as its stdin and stdout, then curses mode on again. Runs on the interface's queue and blocks it while the
/// editor is open, so nothing draws or reads keys meanwhile; runs and builds go on, their events wait in the inbox.
struct EditorHandoff {
    let editor: EditorChoice?
    let originals: OriginalPages
    let environment: [String: String]

    func open(_ order: EditOrder) -> EditorResult {
        guard let editor else { return .notFound(editor: nil, origin: "") }
        guard SearchPath(environment: environment).find(editor.program) != nil else {
            return .notFound(editor: editor.command, origin: editor.origin)
        }
        // Kept before the first change, so x can always undo it.
        var warning: EditorResult?
        do {
            try originals.keepOriginal(of: order.page)
        } catch {
            warning = .couldNotKeepOriginal(reason: "\(error)")
        }
        let arguments = editor.arguments(file: order.file, line: order.line)

        let status = TerminalLending.lend { Self.run(editor.command, arguments: arguments) }

        switch status {
        case .some(0): return warning ?? .closed
        // The shell's "command not found" and "not executable".
        case .some(127), .some(126): return .notFound(editor: editor.command, origin: editor.origin)
        case .some(let code): return .failed(editor: editor.command, status: code)
        case .none: return .notFound(editor: editor.command, origin: editor.origin)
        }
    }

    /// Runs `command "$@"` through `/bin/sh` on the tutorial's own terminal and waits; the exit status, or
    /// 128 + the signal that ended it; nil if it could not be started.
    private static func run(_ command: String, arguments: [String]) -> Int32? {
        // The tutorial ignores or handles these; the editor starts with the defaults an editor expects.
        let spawn = ProcessSpawn("/bin/sh", arguments: ["-c", command + " \"$@\"", "sh"] + arguments,
                                 signals: .unblocked(atDefault: [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGWINCH, SIGCHLD]))
        guard let pid = try? spawn.start() else { return nil }
        return ProcessExit.reap(pid).shellStatus
    }
}
