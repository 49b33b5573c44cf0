import PageProtocol
import TourCore

/// A page run the interface asks the terminal layer to start.
public struct RunOrder: Equatable, Sendable {
    /// Tells this run's events apart from those of a run stopped a moment earlier.
    public var runID: Int
    public var page: Page
    public var knobSettings: [KnobSetting]
    public var speed: Double
    /// The seed of the run's random delays and choices (`--seed`), nil for a random run.
    public var seed: UInt64? = nil
}
