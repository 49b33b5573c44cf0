import TourCore

/// Where a page's own program stands in the edit loop: rebuilt after a change, and what the last build said.
public struct PageBuildState: Sendable {
    public enum Phase: Equatable, Sendable {
        /// The program matches the source as far as the interface knows.
        case idle
        /// A rebuild is in flight; its outcome arrives as `.buildFinished` with this id. `since` is set once it has started.
        case building(id: Int, since: UInt64?)
        /// The last build did not produce a program; the old one is not run in its place.
        case failed(BuildFailure)
    }

    /// Change → stop the old run → rebuild → rerun: the one state machine `tour watch` drives too.
    public var cycle = RebuildCycle()
    /// When the build in flight started, on the monotonic clock; nil until it has.
    public var buildStarted: UInt64?
    /// Why the last build left the page without a program; nil after a success or before any build.
    public var failure: BuildFailure?
    /// What the last build said (warnings stay after a success); a new build clears them, since its lines may have moved.
    public var diagnostics: [Diagnostic] = []
    /// The diagnostic `d`/`D` stepped to, whose file and line `e` opens.
    public var selectedDiagnostic: Int?
    /// The lines the last (or current) build printed, kept for the learner to read.
    public var output: [String] = []
    /// The program is missing or older than the source, or the last build failed: `r` builds before it runs.
    public var needsBuild = false

    /// The longest build output kept: a build that loops on errors must not fill memory.
    static let outputLimit = 2_000

    /// A build in flight says more than a failure before it.
    public var phase: Phase {
        if let id = cycle.buildInFlight { return .building(id: id, since: buildStarted) }
        if let failure { return .failed(failure) }
        return .idle
    }

    /// The state the sidebar and status line show, when the build decides it.
    var status: RunStatus? {
        switch phase {
        case .idle: nil
        case .building: .building
        case .failed(.doesNotCompile): .doesNotCompile
        case .failed: .cannotBuild
        }
    }

    public var isBuilding: Bool { cycle.buildInFlight != nil }
}
