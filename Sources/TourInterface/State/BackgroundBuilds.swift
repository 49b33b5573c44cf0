import TourCore

/// The page and exercise programs tour builds itself, one at a time, from the first frame on: `swift run tour` builds
/// none of them, so a page that does not compile never keeps the tutorial from opening.
///
/// The page in view comes first, then the pages in order, then their exercises; a page the learner moves to, or asks
/// to run, goes to the front. One build at a time, and none starts while a page runs or an exercise is checked, so a
/// run's timings are its own; the build in flight then finishes on its own.
public struct BackgroundBuilds: Equatable, Sendable {
    /// A program to build: the page's at this index, or its exercise's.
    public enum Program: Hashable, Sendable {
        case page(Int)
        case exercise(Int)

        var pageIndex: Int {
            switch self {
            case .page(let index), .exercise(let index): index
            }
        }
    }

    /// The build in flight, by its id.
    public struct InFlight: Equatable, Sendable {
        public var program: Program
        public var buildID: Int
    }

    /// Waiting to be built, in the order they will be.
    public private(set) var waiting: [Program] = []
    public var inFlight: InFlight?
    /// How many programs were found to build since launch: the status line counts the ones that are ready.
    public private(set) var total = 0
    /// The page to run as soon as its program is built (`r` on a page still waiting).
    public var runWhenBuilt: Int?

    public init() {}

    /// Programs found to be missing or older than their sources, in the order given; each is counted once.
    mutating func add(_ programs: [Program]) {
        let new = programs.filter { !waiting.contains($0) && inFlight?.program != $0 }
        waiting += new
        total += new.count
    }

    /// How many of the programs found are built: none of them waits, and none is building.
    public var ready: Int { total - waiting.count - (inFlight == nil ? 0 : 1) }

    /// Whether anything is still to build.
    public var isBusy: Bool { inFlight != nil || !waiting.isEmpty }

    /// Moves `programs` to the front, in this order, those that wait.
    mutating func putFirst(_ programs: [Program]) {
        let moving = programs.filter(waiting.contains)
        waiting.removeAll(where: moving.contains)
        waiting.insert(contentsOf: moving, at: 0)
    }

    /// Takes `program` out of the queue: it is built some other way (a check builds its exercise).
    mutating func remove(_ program: Program) {
        guard let index = waiting.firstIndex(of: program) else { return }
        waiting.remove(at: index)
        total -= 1
    }

    /// A build of `program` started outside the queue (`r` with nothing else building) stands for its turn in it.
    mutating func takeOver(_ program: Program, buildID: Int) {
        guard inFlight == nil, let index = waiting.firstIndex(of: program) else { return }
        waiting.remove(at: index)
        inFlight = InFlight(program: program, buildID: buildID)
    }

    /// The next program to build, taken from the queue.
    mutating func takeNext() -> Program? {
        waiting.isEmpty ? nil : waiting.removeFirst()
    }

    /// Whether `program` is waiting.
    func isWaiting(_ program: Program) -> Bool {
        waiting.contains(program)
    }
}
