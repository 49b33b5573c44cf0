/// The speed factor of a run: how many times faster than real time a page's simulated waits pass
/// (`--speed N`, `TOUR_SPEED=N`); the times the tutorial shows stay real.
public enum SpeedFactor {
    /// The factors a run accepts: slow enough to watch one step at a time, fast enough for a test.
    public static let range: ClosedRange<Double> = 0.1...100

    /// Parses the argument of `--speed`, nil when `--speed` came last with nothing after it.
    public static func parse(_ text: String?) throws(LaunchProblem) -> Double {
        guard let text, let value = Double(text), value.isFinite, range.contains(value) else {
            let given = text.map { $0.isEmpty ? "an empty value" : EchoedInput.quoted($0) } ?? "nothing"
            throw LaunchProblem("--speed needs a number from 0.1 to 100, for example --speed 4 (4 times faster; 1 is real time), but got \(given)")
        }
        return value
    }
}
