@preconcurrency import Glibc
import Foundation
import Synchronization
import PageProtocol

/// The events decoded from one pipe's current read, waiting to be delivered together, and the channel's decoder.
/// Touched only by that pipe's reader thread.
private final class PendingEvents {
    var events: [HostEvent] = []
    var decoder = TraceLineDecoder()
}

/// What to run and how: the page's program, its knob settings and speed, and the watchdog's patience.
public struct RunRequest: Sendable {
    public var executable: String
    public var knobSettings: [KnobSetting]
    public var speed: Double
    /// The seed of the page's random delays and choices (`--seed`), nil for a random run.
    public var seed: UInt64?
    public var stuckAfter: Double
    public var silentLimit: Double
    /// How long a page gets to end after SIGTERM before it is killed.
    public var gracePeriod: Double
    public var extraArguments: [String]
    public var extraEnvironment: [String: String]
    /// Gives the page a pipe on its standard input for `PageRun.send(_:)`, and tells it so (`TOUR_STDIN_COMMANDS=1`);
    /// it also keeps the page from reading the terminal the interface reads its keys from.
    public var sendsCommands: Bool
    /// Whether the page may use the host's terminal: in the interface it must not; plain mode on a terminal shares it.
    public var terminal: TerminalAccess
    /// Whether the host samples the page's threads' scheduler states while it runs (`ThreadSampler`), for the
    /// timeline's state strips and concurrency meter; `TOUR_THREAD_SAMPLER=off` in the host's environment turns it off
    /// for every run.
    public var samplesThreads: Bool
    /// What the run's times are read from, and the watchdog wakes on: a test moves a `TestClock` by hand.
    public var clock: any HostClock

    public init(executable: String, knobSettings: [KnobSetting] = [], speed: Double = 1, seed: UInt64? = nil,
                stuckAfter: Double = 3, silentLimit: Double = 15, gracePeriod: Double = 0.5,
                extraArguments: [String] = [], extraEnvironment: [String: String] = [:], sendsCommands: Bool = false,
                terminal: TerminalAccess = .none, samplesThreads: Bool = true, clock: any HostClock = SystemClock()) {
        self.clock = clock
        self.sendsCommands = sendsCommands
        self.samplesThreads = samplesThreads
        self.terminal = terminal
        self.executable = executable
        self.knobSettings = knobSettings
        self.speed = speed
        self.seed = seed
        self.stuckAfter = stuckAfter
        self.silentLimit = silentLimit
        self.gracePeriod = gracePeriod
        self.extraArguments = extraArguments
        self.extraEnvironment = extraEnvironment
    }

    var arguments: [String] {
        knobSettings.flatMap { ["--set", $0.assignment] } + (speed == 1 ? [] : ["--speed", "\(speed)"])
            + (seed.map { ["--seed", String($0)] } ?? []) + extraArguments
    }
}

/// A page running in its own process; every `HostEvent` goes, in order and one at a time, to the handler given at start.
public final class PageRun: @unchecked Sendable {
    public let pid: Int32
    public let startTime: UInt64

    private struct State {
        /// The runner's own fold of the run, with `RunRecord.Limits.watchdog`: what the watchdog asks about.
        var record = RunRecord(limits: .watchdog)
        var stderrTail: [String] = []
        /// What the page's crash handler said about the signal that is ending it.
        var crash: CrashReport?
        var stopRequested = false
        var stall: Stall?
        var ending: RunEnding?
    }

    private let request: RunRequest
    /// The watchdog's patience, in seconds, at the run's speed (`RunRecord.stall(at:stuckAfter:silentLimit:)`).
    private let stuckAfter: Double
    private let silentLimit: Double
    private let handler: @Sendable (HostEvent) -> Void
    private let state: Mutex<State>
    /// Serialises delivery: three readers and the watchdog all report into one ordered stream.
    private let deliveryLock = Mutex<Void>(())
    private let ended = DispatchSemaphore(value: 0)
    /// Asks `checkForStall` on the request's clock while the page runs; set up once in `follow`.
    private let watchdog = Mutex<ClockWake?>(nil)
    /// The write end of the page's standard input, while it is open.
    private let input = Mutex<Int32?>(nil)
    /// The mark in the environment of the page and of every process it starts (`PageLineage`).
    private let lineageMark: String
    /// Whether the page leads a process group of its own; signals then go to the group, else to the page alone.
    private let leadsItsGroup: Bool

    /// Starts `request` and returns at once; events flow to `handler` on the runner's threads.
    public static func start(_ request: RunRequest, handler: @escaping @Sendable (HostEvent) -> Void) -> PageRun {
        let startTime = request.clock.now
        var changes: [String: String?] = [
            "SWIFT_BACKTRACE": "enable=no",
            PageEnvironment.hostPID: String(getpid()),
            PageEnvironment.knobSettings: nil,
            PageEnvironment.speed: nil,
            PageEnvironment.seed: nil,
            PageEnvironment.stdinCommands: request.sendsCommands ? "1" : nil,
        ]
        for (name, value) in request.extraEnvironment { changes[name] = value }
        let mark = PageLineage.newRunMark()
        changes[PageLineage.variable] = mark
        let environment = ChildProcess.inheritedEnvironment(changing: changes)
        PageLineage.startKeeper()
        if request.terminal == .shared { SharedTerminal.save() }
        do {
            let child = try ChildProcess.launch(executable: request.executable, arguments: request.arguments,
                                                environment: environment, withInput: request.sendsCommands,
                                                terminal: request.terminal)
            let run = PageRun(request: request, pid: child.pid, startTime: startTime, lineageMark: mark,
                              leadsItsGroup: child.leadsItsGroup, handler: handler)
            run.input.withLock { $0 = child.input }
            run.follow(child)
            return run
        } catch {
            let run = PageRun(request: request, pid: 0, startTime: startTime, lineageMark: mark, leadsItsGroup: false, handler: handler)
            run.finish(.failedToStart("\(error)"))
            return run
        }
    }

    private init(request: RunRequest, pid: Int32, startTime: UInt64, lineageMark: String, leadsItsGroup: Bool,
                 handler: @escaping @Sendable (HostEvent) -> Void) {
        self.request = request
        self.lineageMark = lineageMark
        self.leadsItsGroup = leadsItsGroup
        self.pid = pid
        self.startTime = startTime
        self.handler = handler
        // Slowed down for a talk, a page's simulated waits grow, and the watchdog's patience grows with them.
        let slowdown = max(1, 1 / request.speed)
        stuckAfter = request.stuckAfter * slowdown
        silentLimit = request.silentLimit * slowdown
        state = Mutex(State())
    }

    /// Asks the page to stop: SIGTERM to its process group, then SIGKILL after the grace period.
    public func stop() {
        let alreadyOver = state.withLock { state -> Bool in
            guard state.ending == nil else { return true }
            state.stopRequested = true
            return false
        }
        guard !alreadyOver else { return }
        terminate()
    }

    /// Writes `line` and a newline to the page's standard input (a run started with `sendsCommands`). Returns false
    /// when it could not: no input, the input closed, the page gone, or the page not reading and its pipe full.
    @discardableResult
    public func send(_ line: String) -> Bool {
        input.withLock { input in
            guard let descriptor = input else { return false }
            let bytes = Array((line + "\n").utf8)
            return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
        }
    }

    /// Closes the page's standard input: the page reads the end of its input, which for a page taking commands
    /// means the learner is done.
    public func closeInput() {
        input.withLock { input in
            if let descriptor = input { close(descriptor) }
            input = nil
        }
    }

    /// Blocks until the run is over and says how it ended.
    @discardableResult
    public func waitUntilEnded() -> RunEnding {
        ended.wait()
        ended.signal()
        return state.withLock { $0.ending! }
    }

    /// How the run ended, or nil while it is still going.
    public var ending: RunEnding? { state.withLock { $0.ending } }

    private func terminate() {
        let target = leadsItsGroup ? -pid : pid
        kill(target, SIGTERM)
        let clock = request.clock
        clock.wake(at: clock.now + UInt64(request.gracePeriod * 1e9), on: .global()) { [self] in
            // Once the run has ended its pid and group id are free again and may belong to someone else by now.
            if ending == nil { kill(target, SIGKILL) }
        }
    }

    /// Folds `event` into the runner's record and hands it to the handler as folded (`deliver(_:)` of a batch).
    private func deliver(_ event: HostEvent) {
        var events = [event]
        deliver(&events)
    }

    /// Folds the events one read of a pipe brought into the runner's record, which turns a made-up timestamp into a
    /// rejected line, and hands them as folded to the handler: one clock read and one turn of each lock for the
    /// whole read, not one per event. Empties `events`, keeping its capacity for the next read.
    private func deliver(_ events: inout [HostEvent]) {
        guard !events.isEmpty else { return }
        let now = request.clock.now
        let running = state.withLock { state -> Bool in
            // A descendant that left the page's group may hold a pipe open after the end: its lines come too late.
            guard state.ending == nil else { return false }
            for index in events.indices {
                state.record.ingest(inPlace: &events[index], receivedAt: now)
                switch events[index] {
                case .output(let line) where line.stream == .stderr && line.thread == nil:
                    state.stderrTail.append(line.text)
                    if state.stderrTail.count > 20 { state.stderrTail.removeFirst() }
                case .trace(let trace):
                    if let crash = CrashReport(trace) { state.crash = crash }
                default:
                    break
                }
            }
            return true
        }
        if running {
            deliveryLock.withLock { _ in
                for index in events.indices { handler(events[index]) }
            }
        }
        events.removeAll(keepingCapacity: true)
    }

    private func follow(_ child: ChildProcess) {
        deliver(.started(pid: child.pid, time: startTime))
        let stdout = PendingEvents(), stderr = PendingEvents(), trace = PendingEvents()
        let clock = request.clock
        let readers = [
            PipeLineReader(fd: child.stdout, name: "stdout", onLine: { bytes, truncated in
                stdout.events.append(.output(OutputLine(stream: .stdout, text: Self.text(bytes, truncatedFrom: truncated),
                                                        time: clock.now)))
            }, onReadDone: { [self] in deliver(&stdout.events) }),
            PipeLineReader(fd: child.stderr, name: "stderr", onLine: { bytes, truncated in
                stderr.events.append(.output(OutputLine(stream: .stderr, text: Self.text(bytes, truncatedFrom: truncated),
                                                        time: clock.now)))
            }, onReadDone: { [self] in deliver(&stderr.events) }),
            // A page is always launched with its trace channel.
            PipeLineReader(fd: child.trace!, name: "trace", onLine: { bytes, truncated in
                trace.events.append(Self.decodeTraceLine(bytes, truncatedFrom: truncated, with: &trace.decoder, at: clock))
            }, onReadDone: { [self] in deliver(&trace.events) }),
        ]
        let samples = request.samplesThreads && ThreadSampler.isOnInThisProcess
        let sampler = samples ? ThreadSampler(pid: child.pid) { [self] readings, time in
            deliver(.threadStates(readings, time: time))
        } : nil
        let interval = max(0.02, min(0.25, request.stuckAfter / 10))
        watchdog.withLock { watchdog in
            watchdog = clock.repeating(every: UInt64(interval * 1e9), on: .global()) { [self] in checkForStall() }
        }

        let waiter = Thread { [self] in
            let exit = ProcessExit.reap(child.pid)
            sampler?.stop()
            // A page that shared the terminal may have left it raw or silent, by a crash or a kill.
            if request.terminal == .shared {
                SharedTerminal.restore()
                if case .killed(let signal) = exit { LiveProcessGroups.notePageSharingTheTerminalEnded(by: signal) }
            }
            // Whatever the page left behind goes with it: in its group, and anywhere else it went (`setsid`, a
            // double fork). Once they are gone, nothing holds the pipes open.
            if child.leadsItsGroup { kill(-child.pid, SIGKILL) }
            PageLineage.endAll(markedWith: lineageMark)
            LiveProcessGroups.shared.remove(child.pid)
            // One deadline for all three: a descendant that shed its mark and holds the pipes costs the run two
            // seconds, not six; its lines come too late to count.
            let readersDeadline = monotonicNanoseconds() + 2_000_000_000
            for reader in readers {
                let now = monotonicNanoseconds()
                _ = reader.waitUntilDone(timeout: now < readersDeadline ? Double(readersDeadline - now) / 1e9 : 0)
            }
            watchdog.withLock { $0?.cancel() }
            let ending = state.withLock { state -> RunEnding in
                if let stall = state.stall { return .stuck(stall) }
                let classified = EndingClassifier.classify(exit, stderrTail: state.stderrTail, crash: state.crash)
                if state.stopRequested && !classified.isNormalExit { return .stopped }
                return classified
            }
            finish(ending)
        }
        waiter.name = "tour-wait"
        waiter.start()
    }

    private func finish(_ ending: RunEnding) {
        closeInput()
        state.withLock { $0.ending = ending }
        deliveryLock.withLock { _ in handler(.ended(ending, time: request.clock.now)) }
        ended.signal()
    }

    private func checkForStall() {
        let stalled = state.withLock { state -> Bool in
            guard state.ending == nil, state.stall == nil, !state.stopRequested,
                  let stall = state.record.stall(at: request.clock.now, stuckAfter: stuckAfter, silentLimit: silentLimit) else { return false }
            state.stall = stall
            return true
        }
        if stalled { terminate() }
    }

    private static func text(_ bytes: ArraySlice<UInt8>, truncatedFrom: Int?) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let length = truncatedFrom else { return text }
        return text + " … [line of \(length) bytes cut to \(bytes.count)]"
    }

    private static func decodeTraceLine(_ bytes: ArraySlice<UInt8>, truncatedFrom: Int?,
                                        with decoder: inout TraceLineDecoder, at clock: any HostClock) -> HostEvent {
        if let length = truncatedFrom {
            return .rejectedTraceLine(reason: TraceLineParser.Failure.oversized(bytes: length).description, time: clock.now)
        }
        switch bytes.withUnsafeBufferPointer({ decoder.decode($0) }) {
        case .success(let event):
            if case .out(let text) = event.kind {
                return .output(OutputLine(stream: .stdout, text: text, time: event.time, thread: event.thread, queue: event.queue))
            }
            return .trace(event)
        case .failure(let failure):
            return .rejectedTraceLine(reason: failure.description, time: clock.now)
        }
    }
}
