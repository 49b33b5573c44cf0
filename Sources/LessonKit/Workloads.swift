@preconcurrency import Glibc
import PageProtocol

/// Simulated work whose length a speaker can shrink with the speed factor (`--speed 4` runs it four times faster).
///
/// Only waits are scaled; every time the tutorial reports is measured on the real clock.
public enum Simulated {
    /// The speed factor of this run: 1 is real time.
    public static var speed: Double { LessonSession.shared.settings.speed }

    /// Blocks the calling thread, as a slow network or disk would: `seconds` at speed 1.
    public static func wait(_ seconds: Double) {
        let scaled = seconds / speed
        guard scaled > 0 else { return }
        var request = timespec(tv_sec: Int(scaled), tv_nsec: Int((scaled - Double(Int(scaled))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR {
            request = remaining
        }
    }

    /// Keeps a core busy computing for `seconds` at speed 1, as real work would, unlike `wait`, which leaves the core free.
    @discardableResult
    public static func compute(_ seconds: Double) -> UInt64 {
        let deadline = monotonicNanoseconds() + UInt64(max(0, seconds / speed) * 1e9)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        repeat {
            for _ in 0..<1_000 {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
            }
        } while monotonicNanoseconds() < deadline
        return state
    }

    /// A simulated wait of `seconds` (its length at speed 1) as it really lasts in this run, for a page's output:
    /// "0.5 s" in real time, "0.5 s at 1×, 125 ms at 4×" under a speed factor. A page that printed the 1× figure
    /// at `--speed 4` would state a time that never happened.
    public static func describe(_ seconds: Double) -> String {
        describe(seconds, atSpeed: speed)
    }

    static func describe(_ seconds: Double, atSpeed speed: Double) -> String {
        guard speed != 1 else { return roundSeconds(seconds) }
        return "\(roundSeconds(seconds)) at 1×, \(roundSeconds(seconds / speed)) at \(speedText(speed))×"
    }

    /// Seconds without trailing zeros, as prose writes them: "2.5 s", "0.5 s", "125 ms", "12.5 ms".
    private static func roundSeconds(_ seconds: Double) -> String {
        if seconds >= 0.5 { return trimmed(String(format: "%.2f", seconds)) + " s" }
        let milliseconds = seconds * 1e3
        return trimmed(String(format: milliseconds >= 10 ? "%.0f" : "%.1f", milliseconds)) + " ms"
    }

    private static func speedText(_ speed: Double) -> String {
        trimmed(String(format: "%.2f", speed))
    }

    private static func trimmed(_ number: String) -> String {
        guard number.contains(".") else { return number }
        var text = Substring(number)
        while text.last == "0" { text = text.dropLast() }
        if text.last == "." { text = text.dropLast() }
        return String(text)
    }

    /// A network download of `name`: waits about `seconds`, scaled by the speed factor, inside a span the timeline shows.
    public static func networkLoad(_ name: String, seconds: Double = 0.5) {
        trace("network load \(name)") { wait(seconds) }
    }
}
