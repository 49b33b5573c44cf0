/// The watchdog's questions, asked of the record: is the run stalled, what is still open, is there a dependency
/// cycle. Each walks what the record holds once, with no recursion, so a page cannot make it deep or slow:
/// the record's caps bound what there is to walk.
extension RunRecord {
    /// The stall at `now`, if the run has been silent too long: `stuckAfter` seconds with a span or an operation
    /// open or a dependency cycle, `silentLimit` seconds with nothing open (a silent endless loop). A page that
    /// listens for the learner's commands may be silent as long as it likes with nothing open.
    public func stall(at now: UInt64, stuckAfter: Double, silentLimit: Double) -> Stall? {
        guard startTime != nil, now > lastActivity else { return nil }
        let silent = Double(now - lastActivity) / 1e9
        let silentLimit = acceptsScrollCommands ? .infinity : silentLimit
        guard silent >= min(stuckAfter, silentLimit) else { return nil }
        let spans = openSpanNames()
        let operations = unfinishedOperationNames()
        let cycle = dependencyCycle()
        let somethingOpen = !spans.isEmpty || !operations.isEmpty || !cycle.isEmpty
        guard silent >= (somethingOpen ? stuckAfter : silentLimit) else { return nil }
        return Stall(openSpans: spans, unfinishedOperations: operations, dependencyCycle: cycle, silentSeconds: silent)
    }

    /// Spans that began and have not ended, in the order they began, as "name (T3)".
    func openSpanNames() -> [String] {
        openSpans.values.sorted { (openSpanOrder[$0.id] ?? 0) < (openSpanOrder[$1.id] ?? 0) }
            .map { "\($0.name) (\(laneName(of: $0.thread)))" }
    }

    /// Operations that reported `executing` and not `finished`, by id.
    func unfinishedOperationNames() -> [String] {
        operations.filter { operation in
            operation.changes.contains { $0.state == .executing } && !operation.changes.contains { $0.state == .finished }
        }.sorted { $0.id < $1.id }.map(\.name)
    }

    /// A cycle among unfinished operations' dependencies, as names with the first repeated at the end; empty
    /// when there is none.
    func dependencyCycle() -> [String] {
        let graph = DependencyGraph(self)
        return graph.cycle().map { node in
            let id = graph.ids[node]
            return operation(id: id)?.name ?? graph.name(of: node, in: dependencies) ?? "operation \(id)"
        }
    }

    /// `dependencyCycle()` as operation ids, the first repeated at the end. A depth-first search with its own stack,
    /// in time linear in the dependencies.
    func dependencyCycleIDs() -> [Int] {
        let graph = DependencyGraph(self)
        return graph.cycle().map { graph.ids[$0] }
    }

    /// An estimate of the bytes the record holds: its lists' elements and the text their strings keep on the
    /// heap. Tests hold it under the ceiling docs/trace-format.md states; the process's resident size would
    /// measure the test runner too.
    var estimatedBytes: Int {
        func text(_ string: String) -> Int {
            let count = string.utf8.count
            return count > 15 ? count + 32 : 0   // up to 15 bytes live inside the String itself
        }
        func list<Element>(_ elements: some Collection<Element>, _ heap: (Element) -> Int) -> Int {
            elements.reduce(elements.count * MemoryLayout<Element>.stride) { $0 + heap($1) }
        }
        var total = list(output) { text($0.text) + text($0.queue ?? "") }
        total += list(spans) { text($0.name) + text($0.queue) }
        total += list(openSpans.values) { text($0.name) + text($0.queue) + 32 }
        total += list(marks) { text($0.name) + text($0.queue) }
        total += list(results) { text($0.file) + text($0.text) + 56 }
        total += list(knobs) { knob in
            text(knob.name) + text(knob.value) + text(knob.defaultValue) + text(knob.help) + list(knob.choices, text) + 48
        }
        total += list(operations) { operation in
            text(operation.name) + list(operation.changes) { text($0.queue) + 8 } + 48
        }
        total += list(dependencies) { text($0.operationName) + text($0.dependencyName) }
        total += list(tasks) { text($0.name) + 32 }
        total += list(phases) { text($0.name) }
        total += list(threads) { _ in 32 }
        total += list(queues) { text($0) * 2 + 32 }
        total += liveView.frameBytes + liveView.rowPictureBytes
        return total
    }
}
