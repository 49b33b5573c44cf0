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
    /// The processor time the thread had used so far (`utime` + `stime` of its `stat` line, which the kernel counts
    /// in clock ticks), when the reading has it.
    public var cpuNanoseconds: UInt64?

    public init(thread: Int32, state: ThreadRunState, cpuNanoseconds: UInt64? = nil) {
        self.thread = thread
        self.state = state
        self.cpuNanoseconds = cpuNanoseconds
    }
}

/// A stretch of time a thread spent in one state: from the sample that first saw the state to the latest
/// sample that still saw it (or the sample that saw it change).
public struct ThreadStateStretch: Sendable, Equatable {
    public var state: ThreadRunState
    public var start: UInt64
    public var end: UInt64
    /// The thread's processor time so far at the samples that began and ended the stretch, when they had it.
    public var cpuAtStart: UInt64?
    public var cpuAtEnd: UInt64?

    public init(state: ThreadRunState, start: UInt64, end: UInt64, cpuAtStart: UInt64? = nil, cpuAtEnd: UInt64? = nil) {
        self.state = state
        self.start = start
        self.end = end
        self.cpuAtStart = cpuAtStart
        self.cpuAtEnd = cpuAtEnd
    }

    /// The processor time the thread used within the stretch, when both its samples had it.
    public var cpuNanoseconds: UInt64? {
        guard let cpuAtStart, let cpuAtEnd else { return nil }
        return cpuAtEnd >= cpuAtStart ? cpuAtEnd - cpuAtStart : 0
    }
}
