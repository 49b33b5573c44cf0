import TourCore

/// The full-screen tutorial. Entry point used by `tour` when stdout is a terminal.
public enum InteractiveTour {
    /// Runs the interface until the learner quits; returns the process exit status.
    public static func run(catalog: PageCatalog, speed: Double) -> Int32 {
        fatalError("the interactive interface is being built")
    }
}
