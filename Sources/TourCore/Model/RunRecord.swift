import PageProtocol

/// Everything known about one run of a page, built up from its host events: output, thread lanes, spans,
/// marks, results by source line, knobs, operations and how it ended.
///
/// A lane is a thread, never a queue: a pool thread serves many queues over a run, so the queue belongs to
/// each span, mark and printed line, and `queues` lists the labels seen, in order of first appearance.
///
/// Memory is bounded: beyond the limits below the oldest entries are dropped and counted, so a page that
/// floods its output or its trace cannot grow the host without end.
public struct RunRecord: Sendable {
    public struct Limits: Sendable {
        public var outputLines = 5_000
        public var spans = 50_000
        public var marks = 10_000
        public var openSpans = 10_000
        public init() {}
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

    /// What the page drew in the live view: the newest frame and the current list.
    public private(set) var liveView = LiveViewState()
    /// The page reads scroll commands on its standard input (it sent an `input` event), so scroll keys go to it.
    public private(set) var acceptsScrollCommands = false

    /// Events received, including those later dropped.
    public private(set) var eventCount = 0
    public private(set) var droppedOutputLines = 0
    public private(set) var droppedSpans = 0
    public private(set) var droppedMarks = 0
    public private(set) var rejectedTraceLines = 0
    public private(set) var lastRejection: String?
    /// The time of the first line the page wrote, for the start-up benchmark and the status line.
    public private(set) var firstOutputTime: UInt64?

    private var threadIndex: [Int32: Int] = [:]
    private var workerThreads = 0
    private var queueIndex: [String: Int] = [:]
    private var resultIndex: [String: Int] = [:]
    private var operationIndex: [Int: Int] = [:]

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Tells the live view that the screen now shows its newest frame, so frames are counted as dropped only
    /// when the screen never showed them.
    public mutating func markLiveViewDrawn() {
        liveView.markDrawn()
    }

    /// Folds one event into the record.
    public mutating func apply(_ event: HostEvent) {
        eventCount += 1
        switch event {
        case .started(let pid, let time):
            self.pid = pid
            startTime = time
            noteThread(pid)
        case .output(let line):
            if firstOutputTime == nil { firstOutputTime = line.time }
            if let thread = line.thread {
                noteThread(thread)
                noteQueue(line.queue ?? "")
            }
            output.append(line)
            droppedOutputLines += Self.trim(&output, to: limits.outputLines)
        case .trace(let trace):
            apply(trace)
        case .rejectedTraceLine(let reason, _):
            rejectedTraceLines += 1
            lastRejection = reason
        case .ended(let ending, let time):
            self.ending = ending
            endTime = time
            for (_, span) in openSpans.sorted(by: { $0.key < $1.key }) { append(span) }
            openSpans.removeAll()
        }
    }

    private mutating func apply(_ event: PageEvent) {
        noteThread(event.thread)
        switch event.kind {
        case .hello(let version, let page, _, let speed):
            self.page = page
            self.speed = speed
            traceVersion = version
        case .begin(let id, let name):
            guard openSpans.count < limits.openSpans else {
                droppedSpans += 1
                return
            }
            openSpans[id] = Span(id: id, name: name, thread: event.thread, queue: event.queue, start: event.time, end: nil)
            noteQueue(event.queue)
        case .end(let id, _):
            guard var span = openSpans.removeValue(forKey: id) else { return }
            span.end = event.time
            append(span)
        case .mark(let name):
            marks.append(Mark(name: name, thread: event.thread, queue: event.queue, time: event.time))
            noteQueue(event.queue)
            droppedMarks += Self.trim(&marks, to: limits.marks)
        case .result(let file, let line, let kind, let text, let seconds):
            recordResult(file: file, line: line, kind: kind, text: text, seconds: seconds, time: event.time)
        case .knob(let knob):
            recordKnob(knob)
        case .op(let name, let oid, let state):
            recordOperationState(name: name, oid: oid, state: state, event: event)
        case .dep(let operation, let oid, let dependency, let onid):
            dependencies.append(Dependency(operation: oid, operationName: operation,
                                           dependsOn: onid, dependencyName: dependency, time: event.time))
        case .frame, .rows, .row, .detail:
            liveView.apply(event)
        case .input(.scroll):
            acceptsScrollCommands = true
        case .expect(let ending, let why):
            expectation = Expectation(ending: ending, reason: why)
        case .out, .crash, .unknown:
            // `out` reaches the record as an output line, `crash` through the run's ending.
            break
        }
    }

    private mutating func append(_ span: Span) {
        spans.append(span)
        droppedSpans += Self.trim(&spans, to: limits.spans)
    }

    /// Drops the oldest entries once `list` is a tenth over `limit`, in one move rather than one per event,
    /// and returns how many went.
    private static func trim<Element>(_ list: inout [Element], to limit: Int) -> Int {
        guard list.count > limit + limit / 10 else { return 0 }
        let excess = list.count - limit
        list.removeFirst(excess)
        return excess
    }

    /// Gives a thread seen for the first time its lane: the main thread is `main`, the others are numbered
    /// T1, T2… in the order they appear, so a lane's name never changes as the run goes on.
    private mutating func noteThread(_ thread: Int32) {
        guard threadIndex[thread] == nil else { return }
        threadIndex[thread] = threads.count
        if thread == pid {
            threads.append(ThreadLane(thread: thread, number: 0, isMain: true))
        } else {
            workerThreads += 1
            threads.append(ThreadLane(thread: thread, number: workerThreads, isMain: false))
        }
    }

    private mutating func noteQueue(_ label: String) {
        guard queueIndex[label] == nil else { return }
        queueIndex[label] = queues.count
        queues.append(label)
    }

    private mutating func recordResult(file: String, line: Int, kind: ResultKind, text: String, seconds: Double?, time: UInt64) {
        let key = "\(file):\(line)"
        if let index = resultIndex[key] {
            results[index].text = text
            results[index].seconds = seconds
            results[index].count += 1
            results[index].time = time
        } else {
            resultIndex[key] = results.count
            results.append(LineResult(file: file, line: line, kind: kind, text: text, seconds: seconds, count: 1, time: time))
        }
    }

    private mutating func recordKnob(_ announced: KnobAnnouncement) {
        let knob = KnobValue(name: announced.name, type: announced.type, value: announced.value,
                             defaultValue: announced.defaultValue, minimum: announced.minimum, maximum: announced.maximum,
                             choices: announced.choices, help: announced.help)
        if let index = knobs.firstIndex(where: { $0.name == knob.name }) {
            knobs[index] = knob
        } else {
            knobs.append(knob)
        }
    }

    private mutating func recordOperationState(name: String, oid: Int, state: OperationState, event: PageEvent) {
        let change = OperationRecord.Change(state: state, time: event.time, thread: event.thread, queue: event.queue)
        if let index = operationIndex[oid] {
            operations[index].changes.append(change)
        } else {
            operationIndex[oid] = operations.count
            operations.append(OperationRecord(id: oid, name: name, changes: [change]))
        }
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

    /// Where `label` comes in `queues`, which picks its colour and its key in a legend; nil for a queue not seen.
    public func queueNumber(of label: String) -> Int? {
        queueIndex[label]
    }
}

/// A thread that took part in a run. It is named by when it first appeared, not by a queue: over a run a
/// thread serves many queues, and each span, mark and printed line carries the queue it ran on.
public struct ThreadLane: Sendable, Equatable {
    public var thread: Int32
    /// 0 for the main thread; the others count from 1 in the order they first appeared.
    public var number: Int
    public var isMain: Bool

    /// "main" or "T1", "T2"…: the one name a lane has everywhere.
    public var name: String { isMain ? "main" : "T\(number)" }
}

/// A stretch of time a thread spent in `trace("name") { … }`; `end` is nil while it is still open.
public struct Span: Sendable, Equatable {
    public var id: Int
    public var name: String
    public var thread: Int32
    public var queue: String
    public var start: UInt64
    public var end: UInt64?

    public var duration: Double? { end.map { Double($0 &- start) / 1e9 } }
}

/// An instant on a thread's lane.
public struct Mark: Sendable, Equatable {
    public var name: String
    public var thread: Int32
    public var queue: String
    public var time: UInt64
}

/// The latest result shown beside one source line, and how many times that line reported.
public struct LineResult: Sendable, Equatable {
    public var file: String
    public var line: Int
    public var kind: ResultKind
    public var text: String
    public var seconds: Double?
    public var count: Int
    public var time: UInt64
}

/// A knob as the page announced it, with the value this run used.
public struct KnobValue: Sendable, Equatable {
    public var name: String
    public var type: KnobType
    public var value: String
    public var defaultValue: String
    public var minimum: Int?
    public var maximum: Int?
    public var choices: [String]
    public var help: String
}

/// The states one operation went through, in order.
public struct OperationRecord: Sendable, Equatable {
    public struct Change: Sendable, Equatable {
        public var state: OperationState
        public var time: UInt64
        public var thread: Int32
        public var queue: String
    }

    public var id: Int
    public var name: String
    public var changes: [Change]

    public func firstTime(of state: OperationState) -> UInt64? {
        changes.first { $0.state == state }?.time
    }
}

/// `operation` waits for `dependsOn`.
public struct Dependency: Sendable, Equatable {
    public var operation: Int
    public var operationName: String
    public var dependsOn: Int
    public var dependencyName: String
    public var time: UInt64
}

/// The ending a page announced before it happened.
public struct Expectation: Sendable, Equatable {
    public var ending: Ending
    public var reason: String
}

/// A queue label as the tutorial writes it, and the letter that stands for it where a label does not fit.
public enum QueueLabel {
    private static let keys = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// "A" for the first queue a run saw (`RunRecord.queueNumber(of:)` 0), "B" for the next…; past Z they come round again.
    /// Plain mode's text timeline, the interface's legend and its output lines use the same letters.
    public static func key(_ number: Int) -> Character {
        keys[number % keys.count]
    }

    /// The label itself, or "no queue" for work that ran on a thread of its own (`dispatch_queue_get_label` gave "").
    public static func shown(_ label: String) -> String {
        label.isEmpty ? "no queue" : label
    }
}
