/// Decides when a run is stuck: no output, no event and no finished span for a while, with work still open.
///
/// Pure bookkeeping over events and times, so its rules are tested without waiting; the runner feeds it
/// every event and asks it, on a timer, whether the run has stalled.
public struct StallDetector: Sendable {
    /// How long a run may stay silent with a span or operation open before it counts as stuck.
    public var stuckAfter: Double
    /// How long a run may stay silent with nothing open before it counts as stuck anyway (a silent endless loop).
    public var silentLimit: Double

    private var lastActivity: UInt64
    /// Open spans by id, with the order they began in: only open spans are kept, so a page that runs
    /// millions of short spans costs nothing here.
    private var openSpans: [Int: (order: Int, name: String)] = [:]
    private var spansBegun = 0
    private var executing: [Int: String] = [:]
    private var operationNames: [Int: String] = [:]
    private var finished: Set<Int> = []
    private var dependencies: [Int: [Int]] = [:]

    public init(stuckAfter: Double, silentLimit: Double, startTime: UInt64) {
        self.stuckAfter = stuckAfter
        self.silentLimit = silentLimit
        lastActivity = startTime
    }

    /// Counts any sign of life at `time`, and keeps track of what is open.
    public mutating func record(_ event: HostEvent, at time: UInt64) {
        lastActivity = max(lastActivity, time)
        guard case .trace(let trace) = event else { return }
        switch trace.kind {
        case .begin(let id, let name):
            openSpans[id] = (spansBegun, "\(name) (thread \(trace.thread))")
            spansBegun += 1
        case .end(let id, _):
            openSpans[id] = nil
        case .op(let name, let oid, let state):
            operationNames[oid] = name
            switch state {
            case .executing: executing[oid] = name
            case .finished: executing[oid] = nil; finished.insert(oid)
            case .ready, .cancelled: break
            }
        case .input:
            // A page that waits for the learner's commands is not stuck when it goes quiet: it is listening.
            silentLimit = .infinity
        case .dep(let operation, let oid, let dependency, let onid):
            operationNames[oid] = operationNames[oid] ?? operation
            operationNames[onid] = operationNames[onid] ?? dependency
            dependencies[oid, default: []].append(onid)
        case .hello, .mark, .out, .result, .knob, .expect, .crash, .frame, .rows, .row, .detail, .unknown:
            break
        }
    }

    /// The stall at `now`, if the run has been silent too long.
    public func stall(at now: UInt64) -> Stall? {
        let silent = Double(now &- lastActivity) / 1e9
        guard now > lastActivity else { return nil }
        let spans = openSpans.values.sorted { $0.order < $1.order }.map(\.name)
        let operations = executing.keys.sorted().compactMap { executing[$0] }
        let cycle = dependencyCycle()
        let somethingOpen = !spans.isEmpty || !operations.isEmpty || !cycle.isEmpty
        guard silent >= (somethingOpen ? stuckAfter : silentLimit) else { return nil }
        return Stall(openSpans: spans, unfinishedOperations: operations, dependencyCycle: cycle, silentSeconds: silent)
    }

    /// A cycle among unfinished operations' dependencies, as names with the first repeated at the end.
    func dependencyCycle() -> [String] {
        var state: [Int: Bool] = [:]   // false: on the current path, true: fully explored
        var path: [Int] = []
        func visit(_ node: Int) -> [Int]? {
            if let done = state[node] {
                guard !done, let start = path.firstIndex(of: node) else { return nil }
                return Array(path[start...]) + [node]
            }
            state[node] = false
            path.append(node)
            for next in dependencies[node, default: []] where !finished.contains(next) {
                if let cycle = visit(next) { return cycle }
            }
            path.removeLast()
            state[node] = true
            return nil
        }
        for node in dependencies.keys.sorted() where !finished.contains(node) {
            if let cycle = visit(node) {
                return cycle.map { operationNames[$0] ?? "operation \($0)" }
            }
        }
        return []
    }
}
