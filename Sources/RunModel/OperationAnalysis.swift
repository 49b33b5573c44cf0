import PageProtocol

/// One operation's life over a run, as the timeline's operations view draws it: pending from when it was first
/// heard of until it was ready, ready until it executed, executing until it finished or was cancelled.
public struct OperationLife: Sendable, Equatable {
    public var operation: OperationRecord
    /// The first time the run mentions the operation: a dependency added to it, or its first state change.
    public var created: UInt64
    public var ready: UInt64?
    public var executing: UInt64?
    public var cancelled: UInt64?
    public var finished: UInt64?
    /// The operations it waits for, by id, in the order they were added.
    public var dependencies: [Int]
    /// What held it back before it executed, if anything did.
    public var wait: OperationWait
    /// On the chain of dependencies that ended last.
    public var onCriticalPath: Bool

    /// The end of its bar: when it finished, or else its latest state change.
    public var end: UInt64 { finished ?? operation.changes.last?.time ?? created }
}

/// Why an operation did not execute as soon as it was created.
public struct OperationWait: Sendable, Equatable {
    /// The dependency that finished last before the operation became ready, and how long the operation was pending
    /// until then (from `created`); nil when it had no dependency that finished before it started.
    public var dependency: (id: Int, name: String, nanoseconds: UInt64)?
    /// How long it was ready before it executed, and the queue it then executed on, when that was long enough to be a
    /// wait (`OperationAnalysis.slotWait`); `queueWasBusy` when another operation of that queue was executing as it
    /// became ready, so it waited for a free slot, and not only for a thread to take it up.
    public var slot: (queue: String, nanoseconds: UInt64, queueWasBusy: Bool)?

    public static func == (lhs: OperationWait, rhs: OperationWait) -> Bool {
        lhs.dependency?.id == rhs.dependency?.id && lhs.dependency?.nanoseconds == rhs.dependency?.nanoseconds
            && lhs.slot?.queue == rhs.slot?.queue && lhs.slot?.nanoseconds == rhs.slot?.nanoseconds
            && lhs.slot?.queueWasBusy == rhs.slot?.queueWasBusy
    }

    /// "waited 240 ms for load coffee, then 120 ms for a free slot on filters", or nil when nothing held it back.
    public var sentence: String? {
        var parts: [String] = []
        if let dependency { parts.append("\(Self.duration(dependency.nanoseconds)) for \(dependency.name)") }
        if let slot {
            parts.append("\(Self.duration(slot.nanoseconds)) " + (slot.queueWasBusy ? "for a free slot on \(QueueLabel.shown(slot.queue))"
                                                                                : "for a thread to start it"))
        }
        guard !parts.isEmpty else { return nil }
        return "waited " + parts.joined(separator: ", then ")
    }

    static func duration(_ nanoseconds: UInt64) -> String {
        DurationText.seconds(Double(nanoseconds) / 1e9)
    }
}

/// The operations of a run, their lives, what each waited for, and the critical path: pure questions of a record.
public struct OperationAnalysis: Sendable {
    /// Ready this much longer before it executed counts as a wait: handing a ready operation to a free thread takes
    /// microseconds, and a loaded machine's scheduler a few milliseconds.
    public static let slotWait: UInt64 = 10_000_000

    /// Every operation of the run, in the order the run first reported them.
    public let lives: [OperationLife]
    /// The ids on the critical path, from the first to the one that ended last.
    public let criticalPath: [Int]
    /// Every operation's name by id, those only named by a `dep` line too.
    private let names: [Int: String]
    private let positions: [Int: Int]

    public init(_ record: RunRecord) {
        var dependencies: [Int: [Int]] = [:]
        var firstMention: [Int: UInt64] = [:]
        var reportedNames: [Int: String] = [:]
        for dependency in record.dependencies {
            reportedNames[dependency.dependsOn] = reportedNames[dependency.dependsOn] ?? dependency.dependencyName
            reportedNames[dependency.operation] = reportedNames[dependency.operation] ?? dependency.operationName
            if !(dependencies[dependency.operation]?.contains(dependency.dependsOn) ?? false) {
                dependencies[dependency.operation, default: []].append(dependency.dependsOn)
            }
            firstMention[dependency.operation] = min(firstMention[dependency.operation] ?? .max, dependency.time)
        }
        var index: [Int: Int] = [:]
        for (position, operation) in record.operations.enumerated() { index[operation.id] = position }
        func finish(of id: Int) -> UInt64? { index[id].flatMap { record.operations[$0].firstTime(of: .finished) } }

        // When each operation executed, and on which queue, to tell a full queue from a slow thread.
        let executions = record.operations.compactMap { operation -> (id: Int, queue: String, start: UInt64, end: UInt64)? in
            guard let change = operation.changes.first(where: { $0.state == .executing }) else { return nil }
            return (operation.id, change.queue, change.time, operation.firstTime(of: .finished) ?? .max)
        }
        var lives = record.operations.map { operation -> OperationLife in
            let created = min(firstMention[operation.id] ?? .max, operation.changes.first?.time ?? .max)
            let ready = operation.firstTime(of: .ready)
            let executing = operation.firstTime(of: .executing)
            // A dependency gated the start only if it finished by the time the operation became ready (or, for an
            // operation that never said so, started); the one that finished last is the one it waited for.
            let gate = ready ?? executing
            let ids = dependencies[operation.id] ?? []
            let gating = ids.compactMap { id in finish(of: id).map { (id: id, time: $0) } }
                .filter { gate == nil || $0.time <= gate! }
                .max { $0.time < $1.time }
            var wait = OperationWait()
            if let gating, gating.time > created, let dependency = index[gating.id].map({ record.operations[$0] }) {
                wait.dependency = (gating.id, dependency.name, gating.time - created)
            }
            if let ready, let executing, executing > ready, executing - ready >= Self.slotWait,
               let queue = operation.changes.first(where: { $0.state == .executing })?.queue {
                let busy = executions.contains { $0.id != operation.id && $0.queue == queue && $0.start <= ready && $0.end > ready }
                wait.slot = (queue, executing - ready, busy)
            }
            return OperationLife(operation: operation, created: created, ready: ready, executing: executing,
                                 cancelled: operation.firstTime(of: .cancelled), finished: operation.firstTime(of: .finished),
                                 dependencies: ids, wait: wait, onCriticalPath: false)
        }

        // From the operation that finished last, back through the dependency each one waited for: a walk with no
        // recursion, and no operation visited twice, so a cycle cannot make it loop.
        var path: [Int] = []
        if var current = lives.filter({ $0.finished != nil }).max(by: { $0.end < $1.end })?.operation.id {
            var seen: Set<Int> = []
            while seen.insert(current).inserted, let position = index[current] {
                path.append(current)
                lives[position].onCriticalPath = true
                let gate = lives[position].ready ?? lives[position].executing ?? lives[position].end
                guard let next = lives[position].dependencies.compactMap({ id in finish(of: id).map { (id, $0) } })
                    .filter({ $0.1 <= gate }).max(by: { $0.1 < $1.1 })?.0 else { break }
                current = next
            }
        }
        self.lives = lives
        positions = index
        names = reportedNames.merging(record.operations.map { ($0.id, $0.name) }) { $1 }
        criticalPath = path.reversed()
    }

    /// The life of the operation with this id.
    public func life(of id: Int) -> OperationLife? {
        positions[id].map { lives[$0] }
    }

    /// The names of `life`'s dependencies, as the run reported them.
    public func dependencyNames(of life: OperationLife) -> [String] {
        life.dependencies.map(name)
    }

    /// The name of operation `id`, from its state changes or from a dependency line that named it.
    public func name(_ id: Int) -> String {
        names[id] ?? "operation \(id)"
    }
}
