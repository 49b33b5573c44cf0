@preconcurrency import Glibc
import Foundation
import Synchronization

/// How much of the machine's CPU went unused lately, read from the kernel's counters in `/proc/stat`: the idle and
/// I/O-wait time of every CPU, against all of their time. Time a virtual machine's host took away (steal) counts as
/// used, since no program here got it.
///
/// Each `sample` reads the counters once; the answer covers the samples of the last `window` or a little more, so
/// it needs one taken at least `window` earlier.
public final class IdleCores: Sendable {
    /// One reading of the counters, in clock ticks.
    struct Reading {
        var at: ContinuousClock.Instant
        var idle: UInt64
        var total: UInt64
    }

    private let cores: Int
    private let window: Duration
    private let readings = Mutex<[Reading]>([])
    private let read: @Sendable () -> (idle: UInt64, total: UInt64)?

    /// The machine's counters, over `window`.
    public convenience init(cores: Int, window: Duration) {
        self.init(cores: cores, window: window, read: Self.systemCounters)
    }

    /// `read` gives the idle and total time of all CPUs so far, in any one unit, or nil if they cannot be read.
    public init(cores: Int, window: Duration, read: @escaping @Sendable () -> (idle: UInt64, total: UInt64)?) {
        self.cores = cores
        self.window = window
        self.read = read
    }

    /// Takes a reading, and says how many cores' worth of CPU were idle since the newest reading at least `window`
    /// old; nil while there is none that old, or if the counters cannot be read.
    public func sample(at now: ContinuousClock.Instant = .now) -> Double? {
        guard let counters = read() else { return nil }
        let reading = Reading(at: now, idle: counters.idle, total: counters.total)
        return readings.withLock { readings -> Double? in
            readings.append(reading)
            guard let base = readings.lastIndex(where: { now - $0.at >= window }) else { return nil }
            // Older readings are of no further use.
            readings.removeFirst(base)
            let from = readings[0]
            guard reading.total > from.total else { return nil }
            return Double(cores) * Double(reading.idle &- from.idle) / Double(reading.total - from.total)
        }
    }

    /// Forgets the readings: the next answer needs a fresh `window` of them. For a meter sampled only now and then,
    /// whose oldest reading would otherwise average over a long quiet (or busy) stretch.
    public func reset() {
        readings.withLock { $0.removeAll() }
    }

    /// The machine's counters so far, from `/proc/stat`.
    @Sendable static func systemCounters() -> (idle: UInt64, total: UInt64)? {
        let file = open("/proc/stat", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return counters(String(decoding: buffer[..<count], as: UTF8.self))
    }

    /// The counters in the first line of a `/proc/stat` text, `cpu  user nice system idle iowait irq softirq steal …`:
    /// idle is idle and iowait, total every field up to steal (guest time is already inside user and nice).
    public static func counters(_ stat: String) -> (idle: UInt64, total: UInt64)? {
        let firstLine = stat.prefix { $0 != "\n" }
        let words = firstLine.split(separator: " ")
        let fields = words.dropFirst().prefix(8).compactMap { UInt64($0) }
        guard words.first == "cpu", fields.count == 8 else { return nil }
        return (idle: fields[3] + fields[4], total: fields.reduce(0, +))
    }
}
