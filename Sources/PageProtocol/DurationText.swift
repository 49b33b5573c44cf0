import Foundation

/// Durations as a learner reads them, the same on a page and in the host.
public enum DurationText {
    /// "0.213 s", "4.1 ms", "250 µs"; `micro` is the prefix of microseconds ("u" where `µ` cannot be shown).
    public static func seconds(_ seconds: Double, micro: String = "µ") -> String {
        switch abs(seconds) {
        case 1...: String(format: "%.3f s", seconds)
        case 0.001...: String(format: "%.1f ms", seconds * 1e3)
        default: String(format: "%.0f ", seconds * 1e6) + micro + "s"
        }
    }
}
