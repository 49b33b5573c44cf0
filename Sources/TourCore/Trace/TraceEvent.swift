/// One event a page sent over its trace channel, decoded: what happened, when, on which thread and queue.
public struct TraceEvent: Sendable, Equatable {
    /// The event kind, such as `begin`, `end`, `mark`, `result`, `knob`, `op`, `dep`, `out`, `expect`, `hello`.
    public var kind: String
    /// Nanoseconds on the system's monotonic clock (`CLOCK_MONOTONIC`), shared by host and page.
    public var time: UInt64
    /// The kernel thread id of the thread that sent the event.
    public var thread: Int32
    /// The label of the dispatch queue the event was sent from; empty when none was current.
    public var queue: String
    /// The kind's own fields, as `docs/trace-format.md` lists them.
    public var fields: [String: TraceValue]

    public init(kind: String, time: UInt64, thread: Int32, queue: String, fields: [String: TraceValue] = [:]) {
        self.kind = kind
        self.time = time
        self.thread = thread
        self.queue = queue
        self.fields = fields
    }

    public func string(_ key: String) -> String? {
        if case .string(let value) = fields[key] { return value }
        return nil
    }

    public func integer(_ key: String) -> Int? {
        switch fields[key] {
        case .integer(let value): return value
        case .number(let value) where value == value.rounded() && abs(value) < 9e15: return Int(value)
        default: return nil
        }
    }

    public func number(_ key: String) -> Double? {
        switch fields[key] {
        case .number(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    public func bool(_ key: String) -> Bool? {
        if case .bool(let value) = fields[key] { return value }
        return nil
    }
}

/// A field's value: the trace format only has flat objects of strings, numbers and booleans.
public enum TraceValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
}
