@preconcurrency import Glibc
import Foundation
import Synchronization
import TourCore

/// A program run on a pseudo-terminal of its own, as a learner's shell would run it: it leads a new session whose
/// controlling terminal is the pty, so it is in the terminal's foreground, and Ctrl-C typed into the pty reaches it.
///
/// A thread of its own reads everything the program writes; tests wait for text with `await`, never by blocking.
public final class PseudoTerminal: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    private let master: Int32
    private let state = Mutex(State())
    private struct State {
        var output = ""
        var exit: ProcessExit?
        var outputWaiters: [(needle: String, resume: @Sendable (Bool) -> Void)] = []
        var exitWaiters: [@Sendable (ProcessExit?) -> Void] = []
    }

    /// Starts `arguments` (the first one the program's path) on a new pty with `environment` added to this process's.
    public init(_ arguments: [String], environment: [String: String] = [:]) throws {
        master = openPseudoTerminal(O_RDWR | O_NOCTTY | O_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, grantPseudoTerminal(master) == 0, unlockPseudoTerminal(master) == 0,
              pseudoTerminalName(master, &name, name.count) == 0 else {
            throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after setsid (glibc starts the session first), by a session leader with no terminal: it becomes
        // the session's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test runner's threads block most signals, and a program inherits the mask: Ctrl-C would do nothing.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(0x80 /* POSIX_SPAWN_SETSID */ | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(master)
            throw Failure(description: "could not start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        let child = pid
        let reader = Thread { [self] in readUntilClosed() }
        reader.name = "pty-read"
        reader.start()
        let waiter = Thread { [self] in
            let exit = ProcessExit.reap(child)
            let waiters = state.withLock { state in
                state.exit = exit
                defer { state.exitWaiters = [] }
                return state.exitWaiters
            }
            for waiter in waiters { waiter(exit) }
        }
        waiter.name = "pty-wait"
        waiter.start()
    }

    /// Everything the program wrote so far, with the terminal's CR LF line ends.
    public var output: String { state.withLock { $0.output } }

    /// Types `text` into the terminal, as the learner's keyboard would.
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// The terminal's modes as they are now (on Linux the master reports the pty's), while the program runs.
    public func modes() -> termios {
        var modes = termios()
        tcgetattr(master, &modes)
        return modes
    }

    /// Waits until the output contains `needle`; false after `seconds`.
    public func output(containing needle: String, within seconds: Double) async -> Bool {
        let once = OnceFlag()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resume: @Sendable (Bool) -> Void = { found in
                if once.claim() { continuation.resume(returning: found) }
            }
            let already = state.withLock { state -> Bool in
                if state.output.contains(needle) { return true }
                state.outputWaiters.append((needle, resume))
                return false
            }
            if already { resume(true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { resume(false) }
        }
    }

    /// Waits until the program has ended and returns how; nil if it was still running after `seconds`.
    public func exit(within seconds: Double) async -> ProcessExit? {
        let once = OnceFlag()
        return await withCheckedContinuation { (continuation: CheckedContinuation<ProcessExit?, Never>) in
            let resume: @Sendable (ProcessExit?) -> Void = { exit in
                if once.claim() { continuation.resume(returning: exit) }
            }
            let exit = state.withLock { state -> ProcessExit? in
                if state.exit == nil { state.exitWaiters.append(resume) }
                return state.exit
            }
            if let exit { resume(exit) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { resume(nil) }
        }
    }

    /// Kills the program's process group if it still runs; the terminal closes once nothing holds it.
    public func stop() {
        if state.withLock({ $0.exit == nil }) { kill(-pid, SIGKILL) }
    }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            // EIO once no process holds the pty's other side any more. Closed here, by the only thread that reads it.
            if count <= 0 {
                Glibc.close(master)
                return
            }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            let found = state.withLock { state -> [@Sendable (Bool) -> Void] in
                state.output += text
                let output = state.output
                let (met, waiting) = state.outputWaiters.reduce(into: ([@Sendable (Bool) -> Void](), [(needle: String, resume: @Sendable (Bool) -> Void)]())) { result, waiter in
                    if output.contains(waiter.needle) { result.0.append(waiter.resume) } else { result.1.append(waiter) }
                }
                state.outputWaiters = waiting
                return met
            }
            for resume in found { resume(true) }
        }
    }
}

/// True for the first caller of `claim()` only: whichever of an answer and its deadline comes first resumes a waiter.
public final class OnceFlag: Sendable {
    private let claimed = Atomic<Bool>(false)

    public init() {}

    public func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }
}

// glibc's pty functions, which `Glibc` declares only under _XOPEN_SOURCE.
@_silgen_name("posix_openpt") private func openPseudoTerminal(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantPseudoTerminal(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockPseudoTerminal(_ fd: Int32) -> Int32
@_silgen_name("ptsname_r") private func pseudoTerminalName(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32
