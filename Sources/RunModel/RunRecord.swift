import PageProtocol

/// Everything known about one run of a page, built up from its host events: output, thread lanes, spans,
/// marks, results by source line, knobs, operations and how it ended. It is the one fold of a run's events:
/// the watchdog asks it whether the run has stalled (`stall(at:stuckAfter:silentLimit:)`), plain mode and the
/// interface draw from it.
///
/// A lane is a thread, never a queue: a pool thread serves many queues over a run, so the queue belongs to
/// each span, mark and printed line, and `queues` lists the labels seen, in order of first appearance.
///
/// Memory is bounded whatever a page sends: each list has a cap (`Limits`, listed in docs/trace-format.md),
/// names are cut to `Limits.nameBytes`, and what goes beyond a cap is dropped and counted (`drops`).
public struct RunRecord: Sendable {
    /// The caps on what a record keeps. Lists of the past (output, spans, marks) drop their oldest entries;
    /// the others refuse new entries once full, so what the run is stuck in is never pushed out.
    public struct Limits: Sendable {
        public var outputLines = 5_000
        /// The text of the output lines kept, in bytes: 5,000 lines of 64 KiB would be 320 MB.
        public var outputBytes = 4 << 20
        public var spans = 50_000
        public var marks = 10_000
        public var openSpans = 10_000
        /// Distinct source lines with a result; a line already known keeps updating.
        public var results = 1_000
        /// Distinct operations; a known one keeps reporting.
        public var operations = 10_000
        /// State changes kept per operation: the first ones, and always the latest in the last place.
        public var changesPerOperation = 8
        public var dependencies = 20_000
        /// Distinct traced tasks; a known one still reports its end.
        public var tasks = 10_000
        /// Phases the page began (`phase` events); a known one still reports its end.
        public var phases = 1_000
        public var threads = 1_000
        public var queues = 256
        /// Stretches of thread state, over all threads: a state that does not change extends its stretch.
        public var threadStateStretches = 100_000
        /// Distinct knob names; a known knob announced again replaces its entry.
        public var knobs = 64
        /// Names, labels and texts (not output lines) are cut to this many UTF-8 bytes, ending in "…".
        public var nameBytes = 160
        /// Whether live view events are decoded and kept; the runner's own record, which only watches, skips them.
        public var keepsLiveView = true
        public init() {}

        /// What the runner's watchdog needs: open spans, operations and dependencies, and no history to draw.
        public static var watchdog: Limits {
            var limits = Limits()
            limits.outputLines = 0
            limits.outputBytes = 0
            limits.spans = 0
            limits.marks = 0
            limits.results = 0
            limits.knobs = 0
            limits.tasks = 0
            limits.phases = 0
            limits.threadStateStretches = 0
            limits.keepsLiveView = false
            return limits
        }
    }

    /// How many of each kind of entry went beyond its cap and were dropped.
    public struct Drops: Sendable, Equatable {
        public var outputLines = 0
        public var spans = 0
        public var marks = 0
        public var results = 0
        public var operations = 0
        public var operationChanges = 0
        public var dependencies = 0
        public var tasks = 0
        public var phases = 0
        public var threads = 0
        public var queues = 0
        public var knobs = 0
        public var threadStateStretches = 0
    }

    public let limits: Limits
    public private(set) var pid: Int32?
    public private(set) var startTime: UInt64?
    public private(set) var endTime: UInt64?
    public private(set) var page: String?
    public private(set) var speed: Double?
    /// The trace format version the page announced; the host reads version 1 (`TourVersion.traceFormat`).
    public private(set) var traceVersion: Int?
    public private(set) var ending: RunEnding?
    public private(set) var expectation: Expectation?

    public private(set) var output: [OutputLine] = []
    /// One lane per thread, in order of first appearance; the first is the page's main thread.
    public private(set) var threads: [ThreadLane] = []
    /// The queue labels of spans, marks and printed lines, each once, in order of first appearance; "" for
    /// work that ran on no queue (a thread of its own).
    public private(set) var queues: [String] = []
    public private(set) var spans: [Span] = []
    public private(set) var openSpans: [Int: Span] = [:]
    public private(set) var marks: [Mark] = []
    public private(set) var results: [LineResult] = []
    public private(set) var knobs: [KnobValue] = []
    public private(set) var operations: [OperationRecord] = []
    public private(set) var dependencies: [Dependency] = []
    /// The traced Swift tasks, in the order they started.
    public private(set) var tasks: [TaskRecord] = []
    /// The phases the page marked (`phase(name) { … }`), in the order they began.
    public private(set) var phases: [PhaseRecord] = []
    /// What each thread was doing over time, as the host sampled it: running or waiting, oldest first.
    public private(set) var threadStates: [Int32: [ThreadStateStretch]] = [:]
    private var threadStateStretchCount = 0
    /// How many spans are open on each thread, by the thread they began on: the `depth` of the next span it begins.
    private var openSpansPerThread: [Int32: Int] = [:]
    /// The `maxConcurrentOperationCount` each operation queue was given, by the queue's name, as the page announced
    /// it (a `queue` event); the latest announcement of a queue wins. At most `limits.queues` queues.
    public private(set) var queueWidths: [String: Int] = [:]

    /// What the page drew in the live view: the newest frame and the current list.
    public private(set) var liveView = LiveViewState()
    /// The page reads scroll commands on its standard input (it sent an `input` event), so scroll keys go to it.
    public private(set) var acceptsScrollCommands = false

    /// Events received from the page (not the host's thread samples), including those later dropped.
    public private(set) var eventCount = 0
    /// Everything folded so far, the host's thread samples included: the record changes exactly when this grows, so
    /// what is worked out from a whole record (its warnings) can be kept until it does.
    public private(set) var foldCount = 0
    /// What went beyond the caps in `limits`.
    public private(set) var drops = Drops()
    public var droppedOutputLines: Int { drops.outputLines }
    public var droppedSpans: Int { drops.spans }
    public var droppedMarks: Int { drops.marks }
    public private(set) var rejectedTraceLines = 0
    public private(set) var lastRejection: String?
    /// The time of the first line the page wrote, for the start-up benchmark and the status line.
    public private(set) var firstOutputTime: UInt64?
    /// The latest sign of life: the host's time when it last received anything from the page.
    public private(set) var lastActivity: UInt64 = 0

    private var threadIndex: [Int32: Int] = [:]
    /// The thread of the latest event that has a lane: consecutive events mostly come from one thread, and this
    /// spares them the dictionary.
    private var lastLaneThread: Int32?
    private var workerThreads = 0
    private var queueIndex: [String: Int] = [:]
    /// The latest label found in `queues` and the copy kept of it: consecutive events mostly share a queue, and the
    /// host's decoder hands out one copy of each label, so comparing them is comparing two pointers.
    private var lastQueue: (label: String, kept: String)?
    private var resultIndex: [ResultKey: Int] = [:]
    private var operationIndex: [Int: Int] = [:]
    private var taskIndex: [Int: Int] = [:]
    private var knobIndex: [String: Int] = [:]
    private var outputBytes = 0
    /// The order open spans began in, so the watchdog lists them that way.
    private(set) var openSpanOrder: [Int: Int] = [:]
    private var spansBegun = 0

    private struct ResultKey: Hashable {
        var file: String
        var line: Int
    }

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// How far a page's timestamp may lie ahead of the host's clock when the host reads it. Both read the same
    /// `CLOCK_MONOTONIC` and a page stamps an event before it writes it, so a true stamp is never ahead at all.
    public static let clockSkew: UInt64 = 250_000_000

    /// Tells the live view that the screen now shows its newest frame, so frames are counted as dropped only
    /// when the screen never showed them.
    public mutating func markLiveViewDrawn() {
        liveView.markDrawn()
    }

    /// Folds an event the host has just received at `now` on its monotonic clock, and returns the event as it was
    /// folded: a page's event stamped before the run started, or later than `now` plus `clockSkew`, becomes a
    /// rejected line, so no stamp a page makes up reaches the record, the watchdog or the screen. Anything received
    /// is a sign of life at `now`.
    @discardableResult
    public mutating func ingest(_ event: HostEvent, receivedAt now: UInt64) -> HostEvent {
        var screened = event
        ingest(inPlace: &screened, receivedAt: now)
        return screened
    }

    /// `ingest(_:receivedAt:)` for the runner, which turns `event` into what was folded where it lies: a run's
    /// events are not copied on their way through.
    public mutating func ingest(inPlace event: inout HostEvent, receivedAt now: UInt64) {
        if let rejection = rejection(of: event, now: now) { event = rejection }
        apply(event)
        // The host's own samples of the page's threads keep coming while a page hangs: no sign of its life.
        if case .threadStates = event { return }
        lastActivity = max(lastActivity, now)
    }

    /// The rejected line `event` becomes when its stamp lies outside the run; nil when it is fine.
    private func rejection(of event: HostEvent, now: UInt64) -> HostEvent? {
        let stamp: UInt64
        switch event {
        case .trace(let trace): stamp = trace.time
        case .output(let line) where line.thread != nil: stamp = line.time
        default: return nil
        }
        if let startTime, stamp < startTime {
            return .rejectedTraceLine(reason: "a timestamp \(Self.nanoseconds(startTime - stamp)) before the run started", time: now)
        }
        if stamp > now &+ Self.clockSkew {
            return .rejectedTraceLine(reason: "a timestamp \(Self.nanoseconds(stamp - now)) ahead of the host's clock", time: now)
        }
        return nil
    }

    private static func nanoseconds(_ value: UInt64) -> String {
        value >= 1_000_000_000 ? "\(CountText.grouped(Int(value / 1_000_000_000))) s" : "\(value / 1_000_000) ms"
    }

    /// Folds one event into the record. Events straight from a page go through `ingest(_:receivedAt:)` first.
    public mutating func apply(_ event: HostEvent) {
        foldCount += 1
        // The host's own samples of the page's threads are not events the page sent.
        if case .threadStates = event {} else { eventCount += 1 }
        switch event {
        case .started(let pid, let time):
            self.pid = pid
            startTime = time
            lastActivity = max(lastActivity, time)
            noteThread(pid)
        case .output(var line):
            lastActivity = max(lastActivity, line.time)
            if firstOutputTime == nil { firstOutputTime = line.time }
            if let thread = line.thread {
                noteThread(thread)
                line.queue = noteQueue(line.queue ?? "")
            }
            outputBytes += line.text.utf8.count
            output.append(line)
            trimOutput()
        case .trace(let trace):
            lastActivity = max(lastActivity, trace.time)
            apply(trace)
        case .threadStates(let readings, let time):
            for reading in readings { noteState(reading, at: time) }
        case .rejectedTraceLine(let reason, let time):
            lastActivity = max(lastActivity, time)
            rejectedTraceLines += 1
            lastRejection = reason
        case .ended(let ending, let time):
            self.ending = ending
            endTime = time
            for (_, span) in openSpans.sorted(by: { $0.key < $1.key }) { append(span) }
            openSpans.removeAll()
            openSpanOrder.removeAll()
            openSpansPerThread.removeAll()
        }
    }

    /// Extends the thread's latest stretch when its state held, or starts a new one where it changed. Only threads
    /// the page has shown on a lane are kept: a sample may see threads the page never traced from.
    private mutating func noteState(_ reading: ThreadStateReading, at time: UInt64) {
        guard threadIndex[reading.thread] != nil else { return }
        let changed = threadStates[reading.thread]?.last?.state != reading.state
        guard !changed || threadStateStretchCount < limits.threadStateStretches else {
            drops.threadStateStretches += 1
            return
        }
        // Changed in place through the dictionary's own storage: a copy of a long list per sample would make the
        // fold quadratic in the run's length.
        Self.extend(&threadStates[reading.thread, default: []], with: reading, at: time)
        if changed { threadStateStretchCount += 1 }
    }

    /// Extends the last stretch of `stretches` to `time`, and starts a new one there when the reading's state
    /// differs from it; the thread's processor time at `time` ends the one and begins the other.
    private static func extend(_ stretches: inout [ThreadStateStretch], with reading: ThreadStateReading, at time: UInt64) {
        if let last = stretches.last, time >= last.end {
            stretches[stretches.count - 1].end = time
            stretches[stretches.count - 1].cpuAtEnd = reading.cpuNanoseconds
        }
        if stretches.last?.state != reading.state {
            stretches.append(ThreadStateStretch(state: reading.state, start: time, end: time,
                                                cpuAtStart: reading.cpuNanoseconds, cpuAtEnd: reading.cpuNanoseconds))
        }
    }

    /// Keeps the width the page gave the queue `name`; a queue beyond `limits.queues` is dropped and counted.
    private mutating func recordQueueWidth(name: String, width: Int) {
        guard queueWidths[name] != nil || queueWidths.count < limits.queues else { drops.queues += 1; return }
        queueWidths[name] = width
    }

    private mutating func apply(_ event: PageEvent) {
        noteThread(event.thread)
        switch event.kind {
        case .hello(let version, let page, _, let speed):
            self.page = bounded(page)
            self.speed = speed
            traceVersion = version
        case .begin(let id, let name, let task):
            guard openSpans[id] == nil, openSpans.count < limits.openSpans else {
                drops.spans += 1
                return
            }
            let depth = openSpansPerThread[event.thread, default: 0]
            openSpansPerThread[event.thread] = depth + 1
            if depth > 0, let lane = threadIndex[event.thread] {
                threads[lane].deepestNesting = max(threads[lane].deepestNesting, depth)
            }
            openSpans[id] = Span(id: id, name: bounded(name), thread: event.thread,
                                 queue: noteQueue(event.queue), start: event.time, end: nil, task: task, depth: depth)
            openSpanOrder[id] = spansBegun
            spansBegun += 1
        case .end(let id, _, let cpu):
            // An end without its begin (or a second end) has nothing to close.
            guard var span = openSpans.removeValue(forKey: id) else { return }
            openSpanOrder[id] = nil
            openSpansPerThread[span.thread] = openSpansPerThread[span.thread].flatMap { $0 > 1 ? $0 - 1 : nil }
            span.end = event.time
            span.endThread = event.thread
            span.cpuNanoseconds = cpu.flatMap { UInt64(exactly: $0) }
            append(span)
        case .mark(let name):
            guard limits.marks > 0 else { drops.marks += 1; return }
            marks.append(Mark(name: bounded(name), thread: event.thread, queue: noteQueue(event.queue), time: event.time))
            drops.marks += Self.trim(&marks, to: limits.marks)
        case .result(let file, let line, let kind, let text, let seconds):
            recordResult(file: file, line: line, kind: kind, text: text, seconds: seconds, time: event.time)
        case .knob(let knob):
            recordKnob(knob)
        case .op(let name, let oid, let state):
            recordOperationState(name: name, oid: oid, state: state, event: event)
        case .dep(let operation, let oid, let dependency, let onid):
            guard dependencies.count < limits.dependencies else { drops.dependencies += 1; return }
            dependencies.append(Dependency(operation: oid, operationName: bounded(operation),
                                           dependsOn: onid, dependencyName: bounded(dependency), time: event.time,
                                           thread: event.thread))
        case .frame, .rows, .row, .detail:
            if limits.keepsLiveView { liveView.apply(event) }
        case .input(.scroll):
            acceptsScrollCommands = true
        case .task(let number, let parent, let name, let kind, let phase):
            recordTask(number: number, parent: parent, name: name, kind: kind, phase: phase, event: event)
        case .phase(let name, let phase):
            recordPhase(name: bounded(name), phase: phase, event: event)
        case .queue(let name, let width):
            recordQueueWidth(name: bounded(name), width: width)
        case .expect(let ending, let why):
            expectation = Expectation(ending: ending, reason: bounded(why))
        case .out, .crash, .unknown:
            // `out` reaches the record as an output line, `crash` through the run's ending.
            break
        }
    }

    /// A task's start adds it, unless it is known already or the list is full; its end closes it once.
    private mutating func recordTask(number: Int, parent: Int?, name: String, kind: TaskKind, phase: TaskPhase, event: PageEvent) {
        switch phase {
        case .start:
            guard taskIndex[number] == nil else { return }
            guard tasks.count < limits.tasks else { drops.tasks += 1; return }
            taskIndex[number] = tasks.count
            tasks.append(TaskRecord(number: number, parent: parent, name: bounded(name), kind: kind, start: event.time,
                                    end: nil, thread: event.thread))
        case .end:
            guard let index = taskIndex[number], tasks[index].end == nil else { return }
            tasks[index].end = event.time
            tasks[index].endThread = event.thread
        }
    }

    /// A phase's start adds it, unless the list is full; its end closes the latest open phase of its name.
    private mutating func recordPhase(name: String, phase: TaskPhase, event: PageEvent) {
        switch phase {
        case .start:
            guard phases.count < limits.phases else { drops.phases += 1; return }
            phases.append(PhaseRecord(name: name, start: event.time, end: nil))
        case .end:
            guard let index = phases.lastIndex(where: { $0.name == name && $0.end == nil }) else { return }
            phases[index].end = event.time
        }
    }

    private mutating func append(_ span: Span) {
        guard limits.spans > 0 else { drops.spans += 1; return }
        spans.append(span)
        drops.spans += Self.trim(&spans, to: limits.spans)
    }

    /// Drops the oldest lines once there are a tenth more than the limit, or their text is over its budget.
    private mutating func trimOutput() {
        var excess = output.count > limits.outputLines + limits.outputLines / 10 ? output.count - limits.outputLines : 0
        if outputBytes > limits.outputBytes {
            var freed = 0
            excess = max(excess, output.prefix { line in
                guard outputBytes - freed > limits.outputBytes else { return false }
                freed += line.text.utf8.count
                return true
            }.count)
        }
        guard excess > 0 else { return }
        outputBytes -= output[..<excess].reduce(0) { $0 + $1.text.utf8.count }
        output.removeFirst(excess)
        drops.outputLines += excess
    }

    /// Drops the oldest entries once `list` is a tenth over `limit`, in one move rather than one per event,
    /// and returns how many went.
    private static func trim<Element>(_ list: inout [Element], to limit: Int) -> Int {
        guard list.count > limit + limit / 10 else { return 0 }
        let excess = list.count - limit
        list.removeFirst(excess)
        return excess
    }

    /// `text` cut to `limits.nameBytes` bytes of UTF-8 at a character boundary, with "…" when it was cut. The
    /// boundary is found from the byte where the cut falls (the standard library rounds an index down to a
    /// character's start), so a 64 KB name costs what a short one does, not a walk over its characters.
    private func bounded(_ text: String) -> String {
        let limit = limits.nameBytes
        guard text.utf8.count > limit else { return text }
        let room = max(0, limit - "…".utf8.count)
        let cut = text.utf8.index(text.startIndex, offsetBy: room)
        // A first character longer than the room keeps nothing; otherwise the character before the cut ends
        // where the kept text does (`index(before:)` rounds `cut` down to a character's start first).
        guard cut > text.startIndex, text.index(after: text.startIndex) <= cut else { return "…" }
        // A String, not a Substring, before the "…": `Substring + String` counts the substring's characters first.
        return String(text[..<text.index(after: text.index(before: cut))]) + "…"
    }

    /// Gives a thread seen for the first time its lane: the main thread is `main`, the others are numbered
    /// T1, T2… in the order they appear, so a lane's name never changes as the run goes on. Past the cap a
    /// thread gets no lane; its events keep its id, and it is named by that id.
    private mutating func noteThread(_ thread: Int32) {
        guard thread != lastLaneThread else { return }
        guard threadIndex[thread] == nil else {
            lastLaneThread = thread
            return
        }
        guard threads.count < limits.threads || thread == pid else {
            drops.threads += 1
            return
        }
        threadIndex[thread] = threads.count
        if thread == pid {
            threads.append(ThreadLane(thread: thread, number: 0, isMain: true))
        } else {
            workerThreads += 1
            threads.append(ThreadLane(thread: thread, number: workerThreads, isMain: false))
        }
    }

    /// Notes `label` as seen and returns the copy to keep: the one already in `queues`, so a label a million
    /// spans share is stored once, or past the cap the label cut to `limits.nameBytes`.
    private mutating func noteQueue(_ label: String) -> String {
        if let last = lastQueue, last.label == label { return last.kept }
        if let index = queueIndex[label] {
            lastQueue = (label, queues[index])
            return queues[index]
        }
        let kept = bounded(label)
        guard queues.count < limits.queues else {
            drops.queues += 1
            return kept
        }
        queueIndex[label] = queues.count
        queues.append(kept)
        return kept
    }

    private mutating func recordResult(file: String, line: Int, kind: ResultKind, text: String, seconds: Double?, time: UInt64) {
        let key = ResultKey(file: bounded(file), line: line)
        // The text is cut only once it is kept: past the cap most results are dropped.
        if let index = resultIndex[key] {
            results[index].text = bounded(text)
            results[index].seconds = seconds
            results[index].count += 1
            results[index].time = time
        } else if results.count < limits.results {
            resultIndex[key] = results.count
            results.append(LineResult(file: key.file, line: line, kind: kind, text: bounded(text), seconds: seconds, count: 1, time: time))
        } else {
            drops.results += 1
        }
    }

    private mutating func recordKnob(_ announced: KnobAnnouncement) {
        let name = bounded(announced.name)
        let knob = KnobAnnouncement(name: name, type: announced.type, value: bounded(announced.value),
                             defaultValue: bounded(announced.defaultValue), minimum: announced.minimum, maximum: announced.maximum,
                             choices: announced.choices.prefix(limits.knobs).map(bounded), help: bounded(announced.help))
        if let index = knobIndex[name] {
            knobs[index] = knob
        } else if knobs.count < limits.knobs {
            knobIndex[name] = knobs.count
            knobs.append(knob)
        } else {
            drops.knobs += 1
        }
    }

    private mutating func recordOperationState(name: String, oid: Int, state: OperationState, event: PageEvent) {
        let change = OperationRecord.Change(state: state, time: event.time, thread: event.thread, queue: noteQueue(event.queue))
        if let index = operationIndex[oid] {
            // Past the cap the latest change takes the last place, so an operation's current state is always known.
            if operations[index].changes.count < limits.changesPerOperation {
                operations[index].changes.append(change)
            } else {
                operations[index].changes[operations[index].changes.count - 1] = change
                drops.operationChanges += 1
            }
        } else if operations.count < limits.operations {
            operationIndex[oid] = operations.count
            operations.append(OperationRecord(id: oid, name: bounded(name), changes: [change]))
        } else {
            drops.operations += 1
        }
    }

    /// The operation with this id, if the record holds it.
    func operation(id: Int) -> OperationRecord? {
        operationIndex[id].map { operations[$0] }
    }
    /// Seconds from the start of the run to `time`.
    public func seconds(at time: UInt64) -> Double {
        guard let startTime else { return 0 }
        return Double(Int64(bitPattern: time &- startTime)) / 1e9
    }

    /// Did the run end the way the page said it would (a normal exit unless it announced a crash or a hang)?
    public var endedAsExpected: Bool {
        guard let ending else { return false }
        switch expectation?.ending {
        case .crash: return ending.isCrash
        case .stuck: if case .stuck = ending { return true } else { return false }
        case nil: return ending.isNormalExit
        }
    }

    /// The lane for `thread`, if the run has seen it.
    public func lane(for thread: Int32) -> ThreadLane? {
        threadIndex[thread].map { threads[$0] }
    }

    /// The name of `thread`'s lane, "main" or "T3", as plain mode, the interface and the trace export all show it.
    public func laneName(of thread: Int32) -> String {
        lane(for: thread)?.name ?? "thread #\(thread)"
    }

    /// One sentence for each cap the run went beyond, such as "12,004 results beyond the cap of 1,000 were dropped",
    /// as plain mode and the interface show them; the interface tells of dropped output lines above the output instead.
    public func dropNotes(includingOutput: Bool = true) -> [String] {
        let count = CountText.grouped
        var notes: [String] = []
        func note(_ dropped: Int, _ what: String, _ cap: String, _ which: String = "") {
            guard dropped > 0 else { return }
            notes.append("\(count(dropped)) \(what) beyond the cap of \(cap) \(dropped == 1 ? "was" : "were") dropped\(which)")
        }
        if includingOutput { note(drops.outputLines, drops.outputLines == 1 ? "output line" : "output lines",
             "\(count(limits.outputLines)) lines or \(limits.outputBytes >> 20) MiB of text", ", the oldest first") }
        note(drops.spans, drops.spans == 1 ? "span" : "spans",
             "\(count(limits.spans)) finished and \(count(limits.openSpans)) open", " (finished ones the oldest first)")
        note(drops.marks, drops.marks == 1 ? "mark" : "marks", count(limits.marks), ", the oldest first")
        note(drops.results, drops.results == 1 ? "result" : "results", "\(count(limits.results)) source lines")
        note(drops.operations, drops.operations == 1 ? "operation event" : "operation events", "\(count(limits.operations)) operations")
        note(drops.operationChanges, drops.operationChanges == 1 ? "operation state change" : "operation state changes",
             "\(limits.changesPerOperation) per operation", " (the latest is always kept)")
        note(drops.dependencies, drops.dependencies == 1 ? "dependency" : "dependencies", count(limits.dependencies))
        note(drops.tasks, drops.tasks == 1 ? "task" : "tasks", "\(count(limits.tasks)) tasks")
        note(drops.phases, drops.phases == 1 ? "phase" : "phases", "\(count(limits.phases)) phases")
        if drops.threads > 0 {
            notes.append("\(count(drops.threads)) events came from threads beyond the cap of \(count(limits.threads)) lanes; they have no lane of their own")
        }
        note(drops.queues, drops.queues == 1 ? "queue label" : "queue labels", "\(limits.queues) queues", " from the legend")
        note(drops.knobs, drops.knobs == 1 ? "knob" : "knobs", "\(limits.knobs) knobs")
        note(liveView.picturesOverBudget, liveView.picturesOverBudget == 1 ? "live view picture" : "live view pictures",
             "\(LiveViewState.rowPictureBudget >> 20) MiB for the list")
        return notes
    }

    /// Where `label` comes in `queues`, which picks its colour and its key in a legend; nil for a queue not seen.
    public func queueNumber(of label: String) -> Int? {
        queueIndex[label]
    }
}
