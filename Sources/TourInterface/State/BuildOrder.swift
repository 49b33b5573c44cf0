import TourCore

/// A rebuild of one page's program the interface asks the terminal layer to start.
public struct BuildOrder: Equatable, Sendable {
    /// Tells this build's output and outcome apart from those of a build cancelled a moment earlier.
    public var buildID: Int
    public var page: Page
}
