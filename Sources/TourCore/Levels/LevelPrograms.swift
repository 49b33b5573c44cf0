import Foundation
import Synchronization
import PageProtocol

/// How `--explore` searches a level's schedules.
public enum LevelSearch: Sendable, Equatable {
    /// Every schedule with at most this many preemptions (CHESS).
    case preemptions(Int)
    /// This many schedules drawn by probabilistic concurrency testing, from `seed`.
    case random(count: Int, seed: UInt64)

    /// The level program's arguments for it.
    var arguments: [String] {
        switch self {
        case .preemptions(let bound): ["--preemptions", "\(bound)"]
        case .random(let count, let seed): ["--random", "\(count)", "--seed", "\(seed)"]
        }
    }
}

/// The levels' programs of one run of tour: where each is built, their descriptions (asked once a run), and their runs
/// in each mode of the protocol (`LevelMessages.swift`).
public final class LevelPrograms: Sendable {
    public let catalog: LevelCatalog
    public let productsDirectory: String
    let clock: any HostClock
    /// Changes to the environment the programs start with.
    let environment: [String: String?]
    /// How long a level may take to describe itself, and to answer a step of play.
    let answerPatience: UInt64
    /// How long a search may take: every schedule of a level within the bound, in one process.
    let explorePatience: UInt64
    private let descriptions = Mutex<[String: LevelDescription]>([:])

    public init(catalog: LevelCatalog, productsDirectory: String = BuildProducts.directory.path, clock: any HostClock = SystemClock(),
                environment: [String: String?] = [:], answerPatience: UInt64 = 10_000_000_000,
                explorePatience: UInt64 = 120_000_000_000) {
        self.catalog = catalog
        self.productsDirectory = productsDirectory
        self.clock = clock
        self.environment = environment
        self.answerPatience = answerPatience
        self.explorePatience = explorePatience
    }

    /// The levels whose programs are missing or older than their sources, to build before they run.
    public var staleLevels: [Level] {
        catalog.levels.filter { $0.programIsStale(in: productsDirectory) }
    }

    /// The level's description (`--describe`), asked of its program once per run of tour.
    public func describe(_ level: Level) throws(LevelProblem) -> LevelDescription {
        if let known = descriptions.withLock({ $0[level.folder] }) { return known }
        let process = try start(level, arguments: ["--describe"], patience: answerPatience, named: level.folderName)
        let description = try process.next(LevelDescription.self)
        descriptions.withLock { $0[level.folder] = description }
        return description
    }

    /// The level `query` names: by number, folder or the name its folder gives, else by the name its program gives.
    public func level(named query: String) throws(LevelProblem) -> Level? {
        if let level = catalog.level(namedByFolder: query) { return level }
        for level in catalog.levels where try describe(level).name.lowercased() == query.lowercased() { return level }
        return nil
    }

    /// Starts the level's search; its one `ExploreReport` is the process's to read.
    public func explore(_ level: Level, fixed: Bool, search: LevelSearch) throws(LevelProblem) -> LevelProcess {
        try start(level, arguments: ["--explore"] + (fixed ? ["--fixed"] : []) + search.arguments, patience: explorePatience,
                  named: try describe(level).name)
    }

    /// Starts a game of the level, with its first state read.
    public func play(_ level: Level, fixed: Bool) throws(LevelProblem) -> LevelGame {
        try LevelGame(start(level, arguments: ["--play"] + (fixed ? ["--fixed"] : []), patience: answerPatience, named: try describe(level).name))
    }

    private func start(_ level: Level, arguments: [String], patience: UInt64, named name: String) throws(LevelProblem) -> LevelProcess {
        try LevelProcess(levelName: name, executable: productsDirectory + "/" + level.product, arguments: arguments,
                         environment: environment, clock: clock, patience: patience)
    }
}
