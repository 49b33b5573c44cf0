@preconcurrency import Glibc
import CLinuxSystem
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
        master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, ptsname_r(master, &name, name.count) == 0 else {
            throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        // The terminal is opened after setsid (glibc starts the session first), by a session leader with no terminal:
        // it becomes the session's controlling terminal. Every signal at its default and none blocked, whatever the
        // test runner's threads block: Ctrl-C would otherwise do nothing.
        let spawn = ProcessSpawn(arguments[0], arguments: Array(arguments.dropFirst()),
                                 environment: merged.map { "\($0.key)=\($0.value)" },
                                 fileActions: [.open(slavePath, flags: O_RDWR, as: 0), .duplicate(0, as: 1), .duplicate(0, as: 2)],
                                 signals: .pristine, leadsNewSession: true)
        let pid: pid_t
        do throws(ProcessSpawn.Failure) {
            pid = try spawn.start()
        } catch {
            close(master)
            throw Failure(description: error.description)
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
