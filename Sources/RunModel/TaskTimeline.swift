/// What the trace says a traced task did over one stretch of its life: ran a span on a thread, or was away from
/// its spans. A task changes threads only at a suspension point, so a stretch between two ends on different threads
/// was certainly suspended; between two ends on one thread it may have been suspended or running untraced code.
public enum TaskStretch: Sendable, Equatable {
    case span(Span)
    /// Between `from` and `to` the task went on from thread `left` to thread `resumed`: it was suspended.
    case suspended(from: UInt64, to: UInt64, left: Int32, resumed: Int32)
    /// Between `from` and `to` the task ran no span and stayed on `thread`: suspended or running untraced code.
    case betweenSpans(from: UInt64, to: UInt64, thread: Int32)

    public var start: UInt64 {
        switch self {
        case .span(let span): span.start
        case .suspended(let from, _, _, _), .betweenSpans(let from, _, _): from
        }
    }
}

extension RunRecord {
    /// The tasks in tree order: each root (a task with no traced parent in the record) in the order it started,
    /// followed by its children the same way, with how deep each is.
    public func taskTree() -> [(task: TaskRecord, depth: Int)] {
        let known = Set(tasks.map(\.number))
        var children: [Int: [TaskRecord]] = [:]
        var roots: [TaskRecord] = []
        for task in tasks {
            if let parent = task.parent, known.contains(parent), parent != task.number {
                children[parent, default: []].append(task)
            } else {
                roots.append(task)
            }
        }
        var ordered: [(task: TaskRecord, depth: Int)] = []
        var visited = Set<Int>()
        // An explicit stack, deepest last: a chain of ten thousand tasks costs no recursion.
        var stack = roots.reversed().map { ($0, 0) }
        while let (task, depth) = stack.popLast() {
            guard visited.insert(task.number).inserted else { continue }
            ordered.append((task, depth))
            stack += (children[task.number] ?? []).reversed().map { ($0, depth + 1) }
        }
        return ordered
    }

    /// The spans that ran in `task` and the stretches between them, from its start to its end (or `until`, for a task
    /// still running or left running when the run ended), in order of time. Nested spans are listed, but the
    /// stretches between spans are measured between outermost ones.
    public func stretches(of task: TaskRecord, until: UInt64) -> [TaskStretch] {
        let own = (spans + openSpans.values).filter { $0.task == task.number }.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        var result: [TaskStretch] = []
        var lastEnd = task.start
        var lastThread = task.thread
        func gap(to time: UInt64, thread: Int32) {
            guard time > lastEnd else { return }
            result.append(thread == lastThread ? .betweenSpans(from: lastEnd, to: time, thread: thread)
                                               : .suspended(from: lastEnd, to: time, left: lastThread, resumed: thread))
        }
        for span in own {
            result.append(.span(span))
            let end = span.end ?? until
            guard span.start >= lastEnd else { lastEnd = max(lastEnd, end); continue }   // nested in the one before
            result.removeLast()
            gap(to: span.start, thread: span.thread)
            result.append(.span(span))
            lastEnd = end
            lastThread = span.thread
        }
        if let end = task.end, let endThread = task.endThread {
            gap(to: end, thread: endThread)
        } else if until > lastEnd {
            result.append(.betweenSpans(from: lastEnd, to: until, thread: lastThread))
        }
        return result
    }
}
