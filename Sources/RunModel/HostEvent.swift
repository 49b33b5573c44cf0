import PageProtocol

/// Everything the host learns about a running page, in the order it learned it.
public enum HostEvent: Sendable, Equatable {
    /// The page's process started; `time` is on the monotonic clock.
    case started(pid: Int32, time: UInt64)
    /// An event from the page's trace channel.
    case trace(PageEvent)
    /// A line the page wrote to stdout or stderr, or printed through LessonKit.
    case output(OutputLine)
    /// The host sampled the page's threads at `time` (on the monotonic clock) and found them in these states.
    /// It comes from the host, not the page, so it is no sign of the page's life.
    case threadStates([ThreadStateReading], time: UInt64)
    /// A trace line the host could not use, with the reason; it is counted and skipped.
    case rejectedTraceLine(reason: String, time: UInt64)
    /// The run is over.
    case ended(RunEnding, time: UInt64)
}

/// One line of a page's output.
public struct OutputLine: Sendable, Equatable {
    public enum Stream: String, Sendable {
        case stdout, stderr
    }

    public var stream: Stream
    public var text: String
    public var time: UInt64
    /// The thread that printed it, known for lines printed through LessonKit's `print`.
    public var thread: Int32?
    public var queue: String?

    public init(stream: Stream, text: String, time: UInt64, thread: Int32? = nil, queue: String? = nil) {
        self.stream = stream
        self.text = text
        self.time = time
        self.thread = thread
        self.queue = queue
    }
}
