@preconcurrency import Glibc
import Foundation
import Synchronization

/// A page's process, started with `posix_spawn` in a process group of its own, its stdout, stderr and
/// trace channel (fd 3) each on a pipe.
///
/// Foundation's `Process` closes every descriptor above 2 in the child, so it cannot hand over fd 3.
struct ChildProcess {
    let pid: pid_t
    let stdout: Int32
    let stderr: Int32
    let trace: Int32
    /// The write end of a pipe on the page's standard input, when the host asked for one.
    let input: Int32?

    struct LaunchError: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the page. With `withInput` its standard input is a pipe the host writes to; without, it keeps the host's.
    static func launch(executable: String, arguments: [String], environment: [String: String], withInput: Bool) throws -> ChildProcess {
        guard access(executable, X_OK) == 0 else {
            throw LaunchError(description: "\(executable) is missing or not executable; build it with `swift build`")
        }
        let pipes = try (0..<3).map { _ in try makePipe() }
        let input = withInput ? try makePipe() : nil
        defer {
            for pipe in pipes { close(pipe.write) }
            if let input { close(input.read) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (index, pipe) in pipes.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, pipe.write, Int32(index + 1))
        }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input.read, STDIN_FILENO)
            // A page that ended while a command was on its way must not take the host down with SIGPIPE:
            // the write fails with EPIPE instead.
            signal(SIGPIPE, SIG_IGN)
            // A page that stops reading fills the pipe; the host drops the command rather than block its interface.
            _ = fcntl(input.write, F_SETFL, fcntl(input.write, F_GETFL) | O_NONBLOCK)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so stopping a page also stops anything it forked, and Ctrl-C reaches only the host.
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE] + LiveProcessGroups.endingSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            for pipe in pipes { close(pipe.read) }
            if let input { close(input.write) }
            throw LaunchError(description: "posix_spawn failed for \(executable): \(String(cString: strerror(result)))")
        }
        LiveProcessGroups.shared.insert(pid)
        return ChildProcess(pid: pid, stdout: pipes[0].read, stderr: pipes[1].read, trace: pipes[2].read, input: input?.write)
    }

    /// Both ends close on exec, so no other child inherits them and EOF arrives when the page is gone;
    /// `dup2` clears the flag on the child's copy. The flag is set atomically by `pipe2`: with `pipe` and a later
    /// `fcntl`, a page spawned at that moment by another thread (two runs starting at once) would inherit the
    /// write end and hold this run's pipe open for as long as it lives.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard systemPipe2(&fds, O_CLOEXEC) == 0 else {
            throw LaunchError(description: "could not create a pipe: \(String(cString: strerror(errno)))")
        }
        return (fds[0], fds[1])
    }
}

/// glibc's `pipe2`, which `Glibc` does not import (it is declared only under `_GNU_SOURCE`).
@_silgen_name("pipe2") private func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// The process groups of pages still running, so the host can stop them all on its way out.
public final class LiveProcessGroups: Sendable {
    public static let shared = LiveProcessGroups()
    private let groups = Mutex<Set<pid_t>>([])

    func insert(_ group: pid_t) { groups.withLock { _ = $0.insert(group) } }
    func remove(_ group: pid_t) { groups.withLock { _ = $0.remove(group) } }

    /// Kills every page and everything it started; called when the host exits or is told to.
    public func killAll() {
        let all = groups.withLock { $0 }
        for group in all { kill(-group, SIGKILL) }
    }

    /// The signals that end the host cleanly: Ctrl-C, Ctrl-\, a polite kill, a closed terminal. SIGQUIT is among them
    /// because a learner presses Ctrl-\ to get out; left to the Swift runtime, its backtracer would print over the
    /// interface and wait 30 s for a key while the host stood still.
    public static let endingSignals = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

    /// Makes sure no page outlives the host: on a normal exit, and on each of `endingSignals`,
    /// which then end the host with the conventional status 128 + signal. `beforeExit` restores whatever the host changed (the terminal).
    public static func stopAllOnExit(beforeExit: @escaping @Sendable () -> Void = {}) {
        atexit { LiveProcessGroups.shared.killAll() }
        for signalNumber in endingSignals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                LiveProcessGroups.shared.killAll()
                beforeExit()
                exit(128 + signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Kept alive for the life of the host; only `stopAllOnExit`, called once at start-up, writes it.
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []
}
