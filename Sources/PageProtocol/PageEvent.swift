/// One event a page sends over its trace channel: when, on which thread and queue, and what happened
/// (`docs/trace-format.md`). The page encodes it (`encoded()`), the host decodes it (`TraceLineParser`).
public struct PageEvent: Sendable, Equatable {
    /// Nanoseconds on `CLOCK_MONOTONIC` (`monotonicNanoseconds()`), the clock host and page share.
    public var time: UInt64
    /// The kernel thread id of the thread that sent the event.
    public var thread: Int32
    /// The label of the dispatch queue the event was sent from; empty when none was current.
    public var queue: String
    /// What happened, with the kind's own fields.
    public var kind: EventKind

    public init(time: UInt64, thread: Int32, queue: String, kind: EventKind) {
        self.time = time
        self.thread = thread
        self.queue = queue
        self.kind = kind
    }
}

/// Every kind of event a page can send, each with its own fields, typed; the wire name of each is its case name
/// (`wireName`).
public enum EventKind: Sendable, Equatable {
    /// The page's first event: the format version, the executable's name, its process id and the speed factor.
    case hello(version: Int, page: String, pid: Int32, speed: Double)
    /// A span began: `trace(name) { … }` as its body starts. `id` is unique in the process, counting from 1;
    /// `task` is the number of the traced Swift task it runs in (`task` events), nil outside one.
    case begin(id: Int, name: String, task: Int? = nil)
    /// The span `id` ended; `cpu` is the processor time its thread spent inside it, in nanoseconds, when the page
    /// measured it (`CLOCK_THREAD_CPUTIME_ID` read at both ends).
    case end(id: Int, name: String, cpu: Int? = nil)
    /// An instant on the thread's lane: `mark(name)`.
    case mark(name: String)
    /// One line the page printed through LessonKit's `print`, without its newline.
    case out(text: String)
    /// A result shown beside a source line: `duration { … }` (with `seconds`) or `peek(value)`.
    case result(file: String, line: Int, kind: ResultKind, text: String, seconds: Double?)
    /// A knob and the value this run uses, each time `knob(…)` is called.
    case knob(KnobAnnouncement)
    /// An operation reached `state`; `oid` tells apart operations with one name.
    case op(operation: String, oid: Int, state: OperationState)
    /// The operation `oid` waits for the operation `onid`.
    case dep(operation: String, oid: Int, dependency: String, onid: Int)
    /// The page says it will end in `ending`, not by a normal exit, and why.
    case expect(ending: Ending, why: String)
    /// The page's crash handler, as the page dies of `signal`: the image holding the faulting instruction
    /// (empty when none does), whether that is the page's own executable, the instruction's and the fault's
    /// addresses, and whether the fault lies at the low end of the thread's stack.
    case crash(signal: Int32, image: String, inProgram: Bool, pc: UInt64, address: UInt64, stackOverflow: Bool)
    /// An animation frame for the live view.
    case frame(PagePicture)
    /// The live view's list now has `count` rows.
    case rows(count: Int)
    /// Row `index` of the list changed: its caption, its thumbnail (none for a placeholder), its number of
    /// full-size pictures (nil for none).
    case row(index: Int, caption: String, picture: PagePicture?, parts: Int?)
    /// Full-size picture `part` of row `index`.
    case detail(index: Int, part: Int, caption: String, picture: PagePicture)
    /// The page reads `commands` on its standard input.
    case input(commands: InputCommands)
    /// A traced Swift task started or ended: its number (unique in the process, counting from 1), the number of
    /// the task it was started from (nil for none), its name and how it was started.
    case task(number: Int, parent: Int?, name: String, kind: TaskKind, phase: TaskPhase)
    /// The page configured the `OperationQueue` called `name` to run at most `width` operations at once
    /// (`maxConcurrentOperationCount`; -1 for the default, no fixed limit).
    case queue(name: String, width: Int)
    /// The page began or ended the phase `name`: one of several runs of a workload that the timeline's comparison
    /// lays over one another, aligned at their starts (`phase(name) { … }`).
    case phase(name: String, phase: TaskPhase)
    /// A kind this reader does not know: kept, so the format can grow, and ignored.
    case unknown(String)

    /// The kind's name on the wire, the `e` field.
    public var wireName: String {
        switch self {
        case .hello: "hello"
        case .begin: "begin"
        case .end: "end"
        case .mark: "mark"
        case .out: "out"
        case .result: "result"
        case .knob: "knob"
        case .op: "op"
        case .dep: "dep"
        case .expect: "expect"
        case .crash: "crash"
        case .frame: "frame"
        case .rows: "rows"
        case .row: "row"
        case .detail: "detail"
        case .input: "input"
        case .task: "task"
        case .queue: "queue"
        case .phase: "phase"
        case .unknown(let name): name
        }
    }
}

/// The states an operation passes through, as the timeline and the page's own output name them.
public enum OperationState: String, Sendable, CaseIterable {
    case ready, executing, finished, cancelled
}

/// How a page says it is going to end, when that is not a normal exit: the tutorial then counts
/// the crash or the hang as the lesson going to plan, and shows the reason beside its own explanation.
public enum Ending: String, Sendable, CaseIterable {
    /// The process will stop on a fatal error or a signal.
    case crash
    /// The page will stop making progress and wait forever; the tutorial's watchdog ends it.
    case stuck
}

/// What a `result` event reports: a measured duration or a peeked value.
public enum ResultKind: String, Sendable, CaseIterable {
    case duration, peek
}

/// The kind of value a knob holds.
public enum KnobType: String, Sendable, CaseIterable {
    case int, bool, choice
}

/// How a traced Swift task was started, which says what its `parent` is to it.
public enum TaskKind: String, Sendable, CaseIterable {
    /// A child task (a task group's `addTask`, `async let`): its parent waits for it and its cancellation reaches it.
    case child
    /// `Task { … }`: started from `parent`, whose priority and task-locals it inherits, but which does not wait for it.
    case unstructured
    /// `Task.detached { … }`: inherits nothing; `parent` is the task that started it, if any.
    case detached
}

/// Which end of a traced task's life a `task` event reports, or of a phase's a `phase` event.
public enum TaskPhase: String, Sendable, CaseIterable {
    /// The task's body began.
    case start
    /// The task's body returned or threw.
    case end
}

/// What a page reads on its standard input once it sent `input`.
public enum InputCommands: String, Sendable, CaseIterable {
    /// `scroll +N` and `scroll -N` lines.
    case scroll
}

/// A knob as a page announces it: its name, type, the value this run uses and its default (both as text),
/// the range of an `int` knob, the choices of a `choice` knob, and its help (empty for none).
public struct KnobAnnouncement: Sendable, Equatable {
    public var name: String
    public var type: KnobType
    public var value: String
    public var defaultValue: String
    public var minimum: Int?
    public var maximum: Int?
    public var choices: [String]
    public var help: String

    public init(name: String, type: KnobType, value: String, defaultValue: String, minimum: Int? = nil,
                maximum: Int? = nil, choices: [String] = [], help: String = "") {
        self.name = name
        self.type = type
        self.value = value
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.choices = choices
        self.help = help
    }
}

/// A live view picture as it travels: its size and its pixels in base64, each nil when the line left it out
/// or sent it with the wrong type. Nothing is checked or decoded here: the host does that when it uses the
/// picture, and counts a bad one as a bad picture, not a bad line (`docs/trace-format.md`, Live view).
public struct PagePicture: Sendable, Equatable {
    public var width: Int?
    public var height: Int?
    public var base64: String?

    public init(width: Int?, height: Int?, base64: String?) {
        self.width = width
        self.height = height
        self.base64 = base64
    }
}
