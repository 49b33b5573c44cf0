/// Whether a thread was on a processor or off it, as the kernel's scheduler reported when the host sampled it.
public enum ThreadRunState: Sendable, Equatable {
    /// Running or ready to run: `R` in `/proc/<pid>/task/<tid>/stat`.
    case running
    /// Off the processor: sleeping, blocked in the kernel, or stopped (`S`, `D`, `T`, `t`…).
    case waiting
}

/// What one thread was doing at the moment the host sampled it.
public struct ThreadStateReading: Sendable, Equatable {
    public var thread: Int32
    public var state: ThreadRunState

    public init(thread: Int32, state: ThreadRunState) {
        self.thread = thread
        self.state = state
    }
}

/// A stretch of time a thread spent in one state: from the sample that first saw the state to the latest
/// sample that still saw it (or the sample that saw it change).
public struct ThreadStateStretch: Sendable, Equatable {
    public var state: ThreadRunState
    public var start: UInt64
    public var end: UInt64

    public init(state: ThreadRunState, start: UInt64, end: UInt64) {
        self.state = state
        self.start = start
        self.end = end
    }
}
