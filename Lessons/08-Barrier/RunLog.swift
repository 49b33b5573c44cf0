import Foundation
import LessonKit

/// When named blocks ran, recorded from any thread: a lock lets one thread at a time at the entries.
///
/// An `NSLock`, not Synchronization's `Mutex`: Thread Sanitizer follows pthread mutexes, which `NSLock` is built on,
/// but not the futex under `Mutex`, so with a `Mutex` here it reported these appends as a race in the safe person's
/// run. The lock is what makes the class safe to share, which the compiler cannot check: hence `@unchecked`.
final class RunLog: @unchecked Sendable {
    private struct Entry {
        var name: String
        var requested: UInt64?
        var start: UInt64
        var end: UInt64
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// Runs `body` as a span on the timeline (named `spanName`, or else `name`), and records when it was asked for, if
    /// that is given, and when the body started and ended, taken inside the span so that they fall within it.
    func traced<T>(_ name: String, onTimeline spanName: String? = nil, requestedAt requested: DispatchTime? = nil, _ body: () -> T) -> T {
        var start: UInt64 = 0, end: UInt64 = 0
        let result = trace(spanName ?? name) { () -> T in
            start = DispatchTime.now().uptimeNanoseconds
            defer { end = DispatchTime.now().uptimeNanoseconds }
            return body()
        }
        lock.withLock { entries.append(Entry(name: name, requested: requested?.uptimeNanoseconds, start: start, end: end)) }
        return result
    }

    /// The entries that ran beside `name` for at least `share` of its time, each with the seconds the two shared: from
    /// the later start to the earlier end. Entries that only meet it at an edge, one starting on a thread as the other
    /// ends on another, share a fraction of a millisecond and are left out.
    func overlapping(_ name: String, forAtLeast share: Double) -> [(name: String, seconds: Double)] {
        lock.withLock {
            guard let target = entries.first(where: { $0.name == name }) else { return [] }
            let least = Double(target.end - target.start) * share
            return entries.filter { $0.name != name }
                .map { (name: $0.name, shared: Double(min($0.end, target.end)) - Double(max($0.start, target.start))) }
                .filter { $0.shared >= least && $0.shared > 0 }
                .sorted { $0.name < $1.name }
                .map { (name: $0.name, seconds: $0.shared / 1e9) }
        }
    }

    /// The longest time an entry that was asked for waited while no entry ran: from its request, or from the end of
    /// the last entry before it if that came later, to its start. Meant for entries that run alone, such as barriers.
    var longestIdleWait: Double {
        lock.withLock {
            let longest = entries.compactMap { entry -> UInt64? in
                guard let requested = entry.requested else { return nil }
                let lastEnd = entries.map(\.end).filter { $0 <= entry.start }.max() ?? 0
                let idleSince = max(requested, lastEnd)
                return entry.start > idleSince ? entry.start - idleSince : 0
            }.max() ?? 0
            return Double(longest) / 1e9
        }
    }
}
