@preconcurrency import Glibc

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

    /// A network download of `name`: waits about `seconds`, scaled by the speed factor, inside a span the timeline shows.
    public static func networkLoad(_ name: String, seconds: Double = 0.5) {
        trace("network load \(name)") { wait(seconds) }
    }
}
