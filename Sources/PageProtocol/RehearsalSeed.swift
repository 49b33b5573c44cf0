/// The seed of a rehearsable run (`--seed N`, `TOUR_SEED=N`): a page's random delays and choices follow it, so two runs
/// with one seed wait the same times and choose the same things. Without one, a run stays random.
public enum RehearsalSeed {
    /// Parses the argument of `--seed`, nil when `--seed` came last with nothing after it.
    public static func parse(_ text: String?) throws(LaunchProblem) -> UInt64 {
        guard let text, let value = UInt64(text) else {
            let given = text.map { $0.isEmpty ? "an empty value" : EchoedInput.quoted($0) } ?? "nothing"
            throw LaunchProblem("--seed needs a whole number from 0 to \(UInt64.max), for example --seed 7 (one seed gives the same random delays every run), but got \(given)")
        }
        return value
    }
}
