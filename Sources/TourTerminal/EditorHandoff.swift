@preconcurrency import Glibc
import CNcursesw
import Foundation
import TourCore
import TourInterface

/// The editor `e` opens: `$VISUAL`, else `$EDITOR`, else the first of a few common ones found on `PATH`.
struct EditorChoice: Equatable {
    /// As the learner wrote it, arguments included ("code -w", "emacs -nw"); run through `/bin/sh`, as git does.
    var command: String
    /// "$VISUAL", "$EDITOR" or "found on PATH", for the help and messages.
    var origin: String

    /// Tried in order when neither variable is set.
    static let fallbacks = ["nano", "vim", "vi"]

    /// Editors known to take `+N` as "start on line N"; any other might open a file called "+12".
    static let takesLineArgument: Set<String> = [
        "nano", "rnano", "pico", "vi", "vim", "nvim", "view", "gvim", "ex", "emacs", "emacsclient",
        "micro", "joe", "jmacs", "jed", "mg", "ne", "kak",
    ]

    static func choose(environment: [String: String]) -> EditorChoice? {
        for variable in ["VISUAL", "EDITOR"] {
            if let command = environment[variable], !command.trimmingCharacters(in: .whitespaces).isEmpty {
                return EditorChoice(command: command, origin: "$\(variable)")
            }
        }
        let searchPath = searchPath(environment)
        return fallbacks.first { find($0, in: searchPath) != nil }.map { EditorChoice(command: $0, origin: "found on PATH") }
    }

    /// The program, without its arguments: "/usr/bin/vim" for "/usr/bin/vim -p".
    var program: String {
        command.split(separator: " ").first.map(String.init) ?? command
    }

    /// The program's name without its folder: "vim" for "/usr/bin/vim -p".
    var programName: String {
        (program as NSString).lastPathComponent
    }

    static func searchPath(_ environment: [String: String]) -> [String] {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The executable `program` names, looked up on `searchPath` unless it has a slash, as a shell would.
    static func find(_ program: String, in searchPath: [String]) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        return searchPath.map { ($0.isEmpty ? "." : $0) + "/" + program }.first { access($0, X_OK) == 0 }
    }
}

/// Lends the terminal to the learner's editor and takes it back: curses mode off, the editor on the real tty
/// as its stdin and stdout, then curses mode on again. Runs on the interface's queue and blocks it while the
/// editor is open, so nothing draws or reads keys meanwhile; runs and builds go on, their events wait in the inbox.
struct EditorHandoff {
    let editor: EditorChoice?
    let originals: OriginalPages
    let environment: [String: String]

    func open(_ order: EditOrder) -> EditorResult {
        guard let editor else { return .notFound(editor: nil, origin: "") }
        guard EditorChoice.find(editor.program, in: EditorChoice.searchPath(environment)) != nil else {
            return .notFound(editor: editor.command, origin: editor.origin)
        }
        // Kept before the first change, so x can always undo it.
        var warning: EditorResult?
        do {
            try originals.keepOriginal(of: order.page)
        } catch {
            warning = .couldNotKeepOriginal(reason: "\(error)")
        }
        var arguments = [order.file]
        if EditorChoice.takesLineArgument.contains(editor.programName) { arguments.insert("+\(order.line)", at: 0) }

        def_prog_mode()
        endwin()
        let status = Self.run(editor.command, arguments: arguments)
        reset_prog_mode()
        refresh()

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
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The tutorial ignores or handles these; the editor starts with the defaults an editor expects.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGWINCH, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = (["/bin/sh", "-c", command + " \"$@\"", "sh"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
