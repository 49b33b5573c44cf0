import PageProtocol

/// Questions the exercises ask of a run's record: which operation did what, on which kind of thread, how many at
/// once, written in the words a finding or a prediction shows the learner.
extension RunRecord {
    /// The first operation called `name` that reported a state, if any did.
    public func operation(named name: String) -> OperationRecord? {
        operations.first { $0.name == name }
    }

    /// A moment of the run as a finding writes it: "0.42 s", the time since the run started.
    public func momentText(_ time: UInt64) -> String {
        String(format: "%.2f s", seconds(at: time))
    }

    /// Whether `thread` is a worker of Dispatch's pool: not the page's main thread, and running a dispatch queue
    /// when it reported something. A `Thread` of the page's own runs no queue, so all its events carry an empty label;
    /// the main queue's blocks after `dispatchMain()` run on pool workers and count as one.
    public func isPoolThread(_ thread: Int32) -> Bool {
        guard thread != pid else { return false }
        return spans.contains { $0.thread == thread && !$0.queue.isEmpty }
            || marks.contains { $0.thread == thread && !$0.queue.isEmpty }
            || operations.contains { $0.changes.contains { $0.thread == thread && !$0.queue.isEmpty } }
            || output.contains { $0.thread == thread && !($0.queue ?? "").isEmpty }
    }

    /// The kind of thread `thread` is, after its lane's name: "main, the main thread", "T3, a pool thread",
    /// "T2, a thread of its own".
    public func threadDescription(_ thread: Int32) -> String {
        let lane = laneName(of: thread)
        if thread == pid { return "\(lane), the main thread" }
        return isPoolThread(thread) ? "\(lane), a pool thread" : "\(lane), a thread of its own"
    }

    /// How many of `spans` were open at once at most, and the first moment that many were; a span still open when
    /// the run ended counts to the end. Nil for no spans.
    public static func mostAtOnce(of spans: [Span]) -> (count: Int, from: UInt64)? {
        guard !spans.isEmpty else { return nil }
        // At one instant an end comes before a start: a span that ends as the next begins did not overlap it.
        var edges: [(time: UInt64, step: Int)] = []
        for span in spans {
            edges.append((span.start, 1))
            if let end = span.end { edges.append((end, -1)) }
        }
        edges.sort { $0.time != $1.time ? $0.time < $1.time : $0.step < $1.step }
        var open = 0
        var most = (count: 0, from: spans[0].start)
        for edge in edges {
            open += edge.step
            if open > most.count { most = (open, edge.time) }
        }
        return most
    }
}

extension OperationRecord {
    /// The first time this operation reported `state`, with the thread and queue that reported it.
    public func change(to state: OperationState) -> Change? {
        changes.first { $0.state == state }
    }
}
