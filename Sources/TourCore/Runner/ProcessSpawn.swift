@preconcurrency import Glibc
import CLinuxSystem

/// A program to start with `posix_spawn`: what differs from one child to the next (its descriptors, its signals, its
/// session), set up in one place for every child the tool and its tests start.
///
/// `posix_spawn` rather than Foundation's `Process`: `Process` closes every descriptor above 2 in the child (a page's
/// trace channel is fd 3) and cannot start a session or reset the child's signals.
public struct ProcessSpawn {
    /// What the child's descriptors become before the program starts, in order.
    public enum FileAction: Sendable {
        /// The child's `target` is a copy of this process's `source` (which keeps close-on-exec; the copy does not).
        case duplicate(Int32, as: Int32)
        /// The child opens `path` as `target`.
        case open(String, flags: Int32, mode: mode_t = 0, as: Int32)
        case close(Int32)
        /// Every descriptor from `lowest` up is closed, after the actions before this one: a descriptor another thread
        /// opened meanwhile without close-on-exec would otherwise stay open in the child for as long as it lives.
        case closeAll(from: Int32)
    }

    /// How the child's signals start.
    public enum Signals: Sendable {
        /// As this process has them: what it ignores stays ignored, what it blocks stays blocked.
        case inherited
        /// None blocked, and these at their default action; the rest as this process has them.
        case unblocked(atDefault: [Int32])
        /// None blocked and every one at its default action, as a program a shell starts has them. The test runner's
        /// threads block most signals and the tool ignores some: a child inherits both.
        case pristine
    }

    /// The program could not be started; `code` is the `errno` `posix_spawn` returned.
    public struct Failure: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "could not start \(executable): \(String(cString: strerror(code)))" }
    }

    /// The program's path, also its `argv[0]`.
    public var executable: String
    /// Its arguments after `argv[0]`.
    public var arguments: [String]
    /// `NAME=value` entries; nil for this process's own environment.
    public var environment: [String]?
    public var fileActions: [FileAction]
    public var signals: Signals
    /// Whether the child leads a new session (and so a process group of its own), with no controlling terminal.
    public var leadsNewSession: Bool

    public init(_ executable: String, arguments: [String] = [], environment: [String]? = nil, fileActions: [FileAction] = [],
                signals: Signals = .pristine, leadsNewSession: Bool = false) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.fileActions = fileActions
        self.signals = signals
        self.leadsNewSession = leadsNewSession
    }

    /// Starts the program and returns its pid. The `posix_spawn` call itself runs in `perform`, here by default;
    /// `ChildProcess` hands it to the thread a page must be spawned from.
    public func start(
        in perform: (@escaping () -> (pid: pid_t, error: Int32)) -> (pid: pid_t, error: Int32) = { $0() }
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for action in fileActions {
            switch action {
            case .duplicate(let source, let target): posix_spawn_file_actions_adddup2(&actions, source, target)
            case .open(let path, let flags, let mode, let target): posix_spawn_file_actions_addopen(&actions, target, path, flags, mode)
            case .close(let descriptor): posix_spawn_file_actions_addclose(&actions, descriptor)
            case .closeAll(let lowest): posix_spawn_file_actions_addclosefrom_np(&actions, lowest)
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags: Int32 = leadsNewSession ? POSIX_SPAWN_SETSID : 0
        if case .inherited = signals {} else {
            var atDefault = sigset_t()
            if case .unblocked(let chosen) = signals {
                sigemptyset(&atDefault)
                for signal in chosen { sigaddset(&atDefault, signal) }
            } else {
                sigfillset(&atDefault)
            }
            posix_spawnattr_setsigdefault(&attributes, &atDefault)
            var noneBlocked = sigset_t()
            sigemptyset(&noneBlocked)
            posix_spawnattr_setsigmask(&attributes, &noneBlocked)
            flags |= POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        let executable = executable
        let (pid, error) = perform {
            var pid: pid_t = 0
            let error = if let envp {
                posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            } else {
                posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            }
            return (pid, error)
        }
        guard error == 0 else { throw Failure(executable: executable, code: error) }
        return pid
    }
}
