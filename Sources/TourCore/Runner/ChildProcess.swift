@preconcurrency import Glibc
import CLinuxSystem
import Foundation
import Synchronization

/// Where a page stands towards the terminal the host runs in.
public enum TerminalAccess: Sendable, Equatable {
    /// A session of its own, with no controlling terminal: opening `/dev/tty` fails and nothing can stop it for
    /// touching the terminal, so it cannot draw over the interface. Ctrl-C reaches only the host.
    case none
    /// In the host's own process group, so in the terminal's foreground with it: it reads the learner's keys from
    /// the terminal, and Ctrl-C, Ctrl-\ and Ctrl-Z reach it and the host together, as for any command in a shell.
    /// Plain mode (`tour run`, `tour watch`) on a terminal; the host restores the terminal's modes after the run.
    case shared
}

/// A page's process, started with `posix_spawn` (`ProcessSpawn`), its stdout, stderr and trace channel (fd 3) each on a pipe;
/// or another child of the host (a compiler job, a level's program), with no trace channel.
struct ChildProcess {
    let pid: pid_t
    let stdout: Int32
    let stderr: Int32
    /// The read end of the trace channel; nil for a child launched without one.
    let trace: Int32?
    /// The write end of a pipe on the page's standard input, when the host asked for one.
    let input: Int32?

    struct LaunchError: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether the page leads a process group of its own, which then holds whatever it forks without `setsid`.
    let leadsItsGroup: Bool

    /// Starts the page. With `withInput` its standard input is a pipe the host writes to; without, it keeps the host's.
    /// Without `traceChannel` nothing is open above its standard error (a compiler job, a level's program).
    ///
    /// A page is spawned from `SpawningThread`; `onCallingThread` spawns from the caller's thread instead, saving the two
    /// thread wake-ups of the hand-over, for a child that does not ask to die with its parent (a compiler job).
    static func launch(executable: String, arguments: [String], environment: [String], withInput: Bool,
                       terminal: TerminalAccess, traceChannel: Bool = true, onCallingThread: Bool = false) throws -> ChildProcess {
        guard access(executable, X_OK) == 0 else {
            throw LaunchError(description: "\(executable) is missing or not executable; build it with `swift build`")
        }
        let pipes = try (0..<(traceChannel ? 3 : 2)).map { _ in try makePipe() }
        let input = withInput ? try makePipe() : nil
        defer {
            for pipe in pipes { close(pipe.write) }
            if let input { close(input.read) }
        }

        var fileActions = pipes.enumerated().map { index, pipe in ProcessSpawn.FileAction.duplicate(pipe.write, as: Int32(index + 1)) }
        if let input {
            fileActions.append(.duplicate(input.read, as: STDIN_FILENO))
            // A page that ended while a command was on its way must not take the host down with SIGPIPE:
            // the write fails with EPIPE instead.
            signal(SIGPIPE, SIG_IGN)
            // A page that stops reading fills the pipe; the host drops the command rather than block its interface.
            _ = fcntl(input.write, F_SETFL, fcntl(input.write, F_GETFL) | O_NONBLOCK)
        }

        // Nothing above the trace channel (or standard error): a descriptor another thread opened without close-on-exec
        // (Foundation's `Pipe`, say) would otherwise stay open in the page, and its reader would wait for EOF as long as
        // the page runs.
        fileActions.append(.closeAll(from: Int32(pipes.count + 1)))

        // A new session is also a new process group, led by the page, so stopping it stops what it forked.
        // (`setpgid` after `setsid` would fail: a session leader cannot change its group.)
        let spawn = ProcessSpawn(executable, arguments: arguments, environment: environment, fileActions: fileActions,
                                 signals: .unblocked(atDefault: [SIGPIPE] + LiveProcessGroups.endingSignals),
                                 leadsNewSession: terminal == .none)
        let pid: pid_t
        do throws(ProcessSpawn.Failure) {
            pid = try onCallingThread ? spawn.start() : spawn.start(in: SpawningThread.shared.perform)
        } catch {
            for pipe in pipes { close(pipe.read) }
            if let input { close(input.write) }
            throw LaunchError(description: error.description)
        }
        let leadsItsGroup = terminal == .none
        LiveProcessGroups.shared.insert(pid, leadsItsGroup: leadsItsGroup)
        return ChildProcess(pid: pid, stdout: pipes[0].read, stderr: pipes[1].read, trace: traceChannel ? pipes[2].read : nil, input: input?.write,
                            leadsItsGroup: leadsItsGroup)
    }

    /// The environment a child starts with, as `NAME=value` entries: the host's own, read from `environ` itself, with
    /// `changes` made (a value sets its variable, nil takes it out). Foundation's dictionary of the environment cost
    /// `tour run` about 0.17 ms before its page could start.
    static func inheritedEnvironment(changing changes: [String: String?]) -> [String] {
        var entries: [String] = []
        var next = environ
        while let entry = next.pointee {
            let text = String(cString: entry)
            // A variable `changes` names, set or taken out, is left to it; every other one is kept as it is.
            if changes[String(text.prefix { $0 != "=" })] == nil { entries.append(text) }
            next += 1
        }
        for case let (name, value?) in changes { entries.append("\(name)=\(value)") }
        return entries
    }

    /// Both ends close on exec (`CloseOnExecPipe`), so no other child inherits them and EOF arrives when the page is
    /// gone: a page spawned at that moment by another thread (two runs starting at once) would otherwise hold this
    /// run's pipe open for as long as it lives.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        do {
            let pipe = try CloseOnExecPipe()
            return (pipe.readEnd, pipe.writeEnd)
        } catch {
            throw LaunchError(description: error.description)
        }
    }
}

/// The one thread every page is spawned from, which lives as long as the host.
///
/// A page asks the kernel to kill it when its parent dies (`PR_SET_PDEATHSIG`, in LessonKit), and Linux takes the
/// *thread* that spawned it for its parent: a page spawned from a Dispatch worker would be killed when the pool retires
/// that worker, in the middle of its run.
final class SpawningThread: @unchecked Sendable {
    static let shared = SpawningThread()

    private let condition = NSCondition()
    /// Jobs waiting for the thread; touched only under `condition`.
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in serve() }
        thread.name = "tour-spawn"
        thread.start()
    }

    /// Runs `body` on the spawning thread and returns its result; the caller waits the few milliseconds a spawn takes.
    /// The spawning thread takes on the CPUs the caller's thread may run on first, so a child inherits them as if the
    /// caller had spawned it (a test pins a page to one CPU that way).
    func perform<T>(_ body: @escaping () -> T) -> T {
        var result: T?
        let done = DispatchSemaphore(value: 0)
        // pid 0: the calling thread.
        var cpus = cpu_set_t()
        let known = sched_getaffinity(0, MemoryLayout<cpu_set_t>.size, &cpus) == 0
        condition.withLock {
            jobs.append {
                if known { _ = sched_setaffinity(0, MemoryLayout<cpu_set_t>.size, &cpus) }
                result = body()
                done.signal()
            }
            condition.signal()
        }
        done.wait()
        return result!
    }

    private func serve() -> Never {
        while true {
            let job = condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job()
        }
    }
}

/// The pages still running, so the host can stop them all on its way out.
public final class LiveProcessGroups: Sendable {
    public static let shared = LiveProcessGroups()
    /// Each page's pid, and whether it leads its own process group (a page sharing the host's group does not).
    private let pages = Mutex<[pid_t: Bool]>([:])

    func insert(_ pid: pid_t, leadsItsGroup: Bool) { pages.withLock { $0[pid] = leadsItsGroup } }
    func remove(_ pid: pid_t) { pages.withLock { _ = $0.removeValue(forKey: pid) } }

    /// Kills every page and its process group; called when the host exits or is told to, and from its crash handler.
    /// What left the group goes at exit (`stopAllOnExit`), or by the keeper when the host dies too hard for that.
    public func killAll() {
        let all = pages.withLock { $0 }
        for (pid, leadsItsGroup) in all { kill(leadsItsGroup ? -pid : pid, SIGKILL) }
    }

    /// The signals that end the host cleanly: Ctrl-C, Ctrl-\, a polite kill, a closed terminal. SIGQUIT is among them
    /// because a learner presses Ctrl-\ to get out; left to the Swift runtime, its backtracer would print over the
    /// interface and wait 30 s for a key while the host stood still.
    public static let endingSignals = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

    /// Makes sure no page outlives the host: on a normal exit, and on each of `endingSignals`,
    /// which then end the host with the conventional status 128 + signal. `beforeExit` restores whatever the host changed (the terminal).
    public static func stopAllOnExit(beforeExit: @escaping @Sendable () -> Void = {}) {
        atexit {
            LiveProcessGroups.shared.killAll()
            // Not from a signal handler: the sweep reads /proc and allocates.
            PageLineage.endAll(markedWith: nil)
        }
        for signalNumber in endingSignals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                // A normal ending that got there first finishes the job.
                guard claimExit() else { return }
                LiveProcessGroups.shared.killAll()
                beforeExit()
                exit(128 + signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Ends the host with `status`, unless a signal is ending it already: then it waits for that ending, whose status
    /// (128 + the signal) is the one that tells the truth. In plain mode on a terminal Ctrl-C ends the page too, and
    /// the run's normal end races the signal's handler to `exit`; two threads in `exit` at once is undefined.
    ///
    /// A page that shared the terminal and died of one of `endingSignals` was sent it by the terminal (Ctrl-C reaches
    /// the whole foreground group, the host too): the host then ends with 128 + that signal, as its own handler would
    /// have, even when the run's end gets here before the handler runs.
    public static func exitHost(_ status: Int32) -> Never {
        let signal = signalOfTerminal.load(ordering: .acquiring)
        if claimExit() { exit(signal == 0 ? status : 128 + signal) }
        while true { pause() }
    }

    /// Remembers that a page sharing the host's terminal was killed by `signal`, for `exitHost`.
    static func notePageSharingTheTerminalEnded(by signal: Int32) {
        guard endingSignals.contains(signal) else { return }
        signalOfTerminal.store(signal, ordering: .releasing)
    }

    private static let signalOfTerminal = Atomic<Int32>(0)

    /// True for the first caller only: the one ending the host.
    private static func claimExit() -> Bool {
        !exitClaimed.exchange(true, ordering: .acquiringAndReleasing)
    }

    private static let exitClaimed = Atomic<Bool>(false)

    /// Kept alive for the life of the host; only `stopAllOnExit`, called once at start-up, writes it.
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []
}
