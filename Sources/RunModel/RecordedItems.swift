import PageProtocol

/// A stretch of time a thread spent in `trace("name") { … }`; `end` is nil while it is still open.
public struct Span: Sendable, Equatable {
    public var id: Int
    public var name: String
    public var thread: Int32
    public var queue: String
    public var start: UInt64
    public var end: UInt64?
    /// The processor time its thread spent inside the span, in nanoseconds, when the page measured it (the `end`
    /// event's `cpu` field): far below the wall time for a span that waited, close to it for one that computed.
    public var cpuNanoseconds: UInt64? = nil
    /// The Swift task the span ran in, when it ran in one (the `begin` event's `task` field).
    public var task: Int? = nil
    /// How many spans were open on its thread when it began: 0 for a span on its own, 1 for one inside another, and
    /// so on. The thread view draws a span on that row of its thread's lane, so nested spans never hide each other.
    public var depth = 0
    /// The thread that sent the span's `end`, once it ended: another than `thread` for a span that went on
    /// elsewhere (an `async` span resumed on another thread, a hand-off).
    public var endThread: Int32? = nil

    public init(id: Int, name: String, thread: Int32, queue: String, start: UInt64, end: UInt64?, cpuNanoseconds: UInt64? = nil,
                task: Int? = nil, depth: Int = 0, endThread: Int32? = nil) {
        self.id = id
        self.name = name
        self.thread = thread
        self.queue = queue
        self.start = start
        self.end = end
        self.cpuNanoseconds = cpuNanoseconds
        self.task = task
        self.depth = depth
        self.endThread = endThread
    }

    public var duration: Double? { end.map { Double($0 &- start) / 1e9 } }
}

/// A traced Swift task, from its `task` events: its number, the task it was started from and how, its name, when
/// and on which thread its body began, and when it ended (nil while it runs, or when the run ended first).
public struct TaskRecord: Sendable, Equatable {
    public var number: Int
    public var parent: Int?
    public var name: String
    public var kind: TaskKind
    public var start: UInt64
    public var end: UInt64?
    /// The thread its body began on; its spans say where it ran afterwards.
    public var thread: Int32
    /// The thread its body ended on, once it ended.
    public var endThread: Int32? = nil
}

/// A phase of a run, from its `phase` events: one of several runs of a workload the page compares, with when it
/// began and ended (nil while it runs, or when the run ended first). What ran in it is what the trace holds between.
public struct PhaseRecord: Sendable, Equatable {
    public var name: String
    public var start: UInt64
    public var end: UInt64?
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

/// A knob as the page announced it, with the value this run used: the record keeps the announcement itself.
public typealias KnobValue = KnobAnnouncement

/// The ending a page announced before it happened.
public struct Expectation: Sendable, Equatable {
    public var ending: Ending
    public var reason: String
}
