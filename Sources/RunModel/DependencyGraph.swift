/// A record's dependencies as a graph the cycle search can walk fast: each operation id is numbered once, in the
/// order the dependencies first name it, and the edges are kept in flat arrays (each operation's dependencies
/// side by side, in the order they were recorded). A million dependencies cost two million look-ups in one
/// dictionary (or one array, when the ids lie close together), not a dictionary of a million lists and one of visits.
struct DependencyGraph {
    /// The operation id of each node.
    private(set) var ids: [Int] = []
    /// Where the first non-empty name of each node was given: the dependency's index times 2, plus 1 when it named
    /// the operation depended on; -1 when no dependency named it.
    private var nameSources: [Int] = []
    /// The edges of node `n` are `targets[edgeStarts[n] ..< edgeStarts[n + 1]]`.
    private var edgeStarts: [Int] = []
    private var targets: [Int] = []
    /// The nodes whose operation finished: they wait for nothing, and nothing waits for them.
    private var finished: [Bool] = []

    init(_ record: RunRecord) {
        let dependencies = record.dependencies
        // Ids close together (pages number their operations as they make them) are numbered through an array indexed
        // by the id's offset from the lowest, which spares the dictionary; ids spread wide go through the dictionary.
        var lowest = Int.max, highest = Int.min
        for dependency in dependencies {
            lowest = min(lowest, dependency.operation, dependency.dependsOn)
            highest = max(highest, dependency.operation, dependency.dependsOn)
        }
        let (spread, overflowed) = highest.subtractingReportingOverflow(lowest)
        let byOffset = !dependencies.isEmpty && !overflowed && spread < 2 * dependencies.count + 64
        var nodesByOffset = byOffset ? [Int](repeating: -1, count: spread + 1) : []
        var nodes: [Int: Int] = [:]
        if !byOffset { nodes.reserveCapacity(dependencies.count + 1) }
        // Each dependency's two ends as nodes, and how many edges leave each node.
        var sources = [Int](repeating: 0, count: dependencies.count)
        var ends = [Int](repeating: 0, count: dependencies.count)
        var outgoing: [Int] = []
        func number(_ slot: inout Int) -> Int { slot }
        func node(_ id: Int, named name: String, at source: Int) -> Int {
            let fresh = ids.count
            let node: Int
            if byOffset {
                if nodesByOffset[id - lowest] < 0 { nodesByOffset[id - lowest] = fresh }
                node = nodesByOffset[id - lowest]
            } else {
                // One look-up: the default subscript's in-place access finds the node or puts in the fresh number.
                node = number(&nodes[id, default: fresh])
            }
            if node == fresh {
                ids.append(id)
                nameSources.append(name.isEmpty ? -1 : source)
                outgoing.append(0)
            } else if nameSources[node] < 0, !name.isEmpty {
                nameSources[node] = source
            }
            return node
        }
        for (index, dependency) in dependencies.enumerated() {
            sources[index] = node(dependency.operation, named: dependency.operationName, at: 2 * index)
            ends[index] = node(dependency.dependsOn, named: dependency.dependencyName, at: 2 * index + 1)
            outgoing[sources[index]] += 1
        }
        // Counting sort of the edges by their source, which keeps each node's edges in the order they came.
        edgeStarts = [Int](repeating: 0, count: ids.count + 1)
        for node in 0..<ids.count { edgeStarts[node + 1] = edgeStarts[node] + outgoing[node] }
        var filled = edgeStarts
        targets = [Int](repeating: 0, count: dependencies.count)
        for index in 0..<dependencies.count {
            targets[filled[sources[index]]] = ends[index]
            filled[sources[index]] += 1
        }
        finished = [Bool](repeating: false, count: ids.count)
        for operation in record.operations where operation.changes.contains(where: { $0.state == .finished }) {
            let node = byOffset ? (operation.id >= lowest && operation.id <= highest ? nodesByOffset[operation.id - lowest] : -1)
                : nodes[operation.id] ?? -1
            if node >= 0 { finished[node] = true }
        }
    }

    /// The first name a dependency gave `node`, if any did.
    func name(of node: Int, in dependencies: [Dependency]) -> String? {
        let source = nameSources[node]
        guard source >= 0 else { return nil }
        let dependency = dependencies[source / 2]
        return source % 2 == 0 ? dependency.operationName : dependency.dependencyName
    }

    /// A cycle among the unfinished nodes, the first repeated at the end, or empty. The search starts from the
    /// nodes with edges in order of their operation id and follows each node's edges in the order they came, so
    /// the same dependencies always give the same cycle.
    func cycle() -> [Int] {
        var roots: [Int] = []
        var ascending = true
        for node in 0..<ids.count where edgeStarts[node + 1] > edgeStarts[node] && !finished[node] {
            if let previous = roots.last, ids[previous] > ids[node] { ascending = false }
            roots.append(node)
        }
        // Pages mostly number their operations in the order they make them, and then the nodes are in order already.
        if !ascending { roots.sort { ids[$0] < ids[$1] } }
        enum Visit: UInt8 { case new, onPath, explored }
        var visits = [Visit](repeating: .new, count: ids.count)
        // The path from a root, and for each node on it the index in `targets` of the next edge to follow.
        var path: [Int] = []
        var nextEdges: [Int] = []
        for root in roots where visits[root] == .new {
            path.append(root)
            nextEdges.append(edgeStarts[root])
            visits[root] = .onPath
            while let node = path.last {
                let next = nextEdges[nextEdges.count - 1]
                guard next < edgeStarts[node + 1] else {
                    visits[node] = .explored
                    path.removeLast()
                    nextEdges.removeLast()
                    continue
                }
                nextEdges[nextEdges.count - 1] = next + 1
                let target = targets[next]
                guard !finished[target] else { continue }
                switch visits[target] {
                case .onPath:
                    let start = path.lastIndex(of: target)!
                    return Array(path[start...]) + [target]
                case .explored:
                    continue
                case .new:
                    visits[target] = .onPath
                    path.append(target)
                    nextEdges.append(edgeStarts[target])
                }
            }
        }
        return []
    }
}
