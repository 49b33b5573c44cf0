@preconcurrency import Glibc
import Foundation
import Synchronization

/// Notices when the `.swift` files of a page folder change, by polling their modification times and contents.
///
/// File-system notifications miss changes on network and container file systems, and an editor's save can
/// leave the modification time unchanged within its granularity, so every poll compares a content hash too.
/// Any movement (time, size or hash) restarts the quiet period; only a change of content is reported, so a
/// `touch` or a save of the same text does not cost a rebuild.
/// A burst of saves (an editor writing a temporary file and renaming it, a formatter running after a save)
/// becomes one event once the folder has been quiet for `quietPeriod` seconds.
///
/// `poll()` does the work and is driven from outside (a timer from `start`, or a test calling it directly),
/// with the clock injected, so tests need no sleeps.
public final class SourceWatcher: @unchecked Sendable {
    public enum Event: Equatable, Sendable {
        /// These files changed, appeared or disappeared (helper files may come and go), and the page is still there.
        case changed(files: [String])
        /// `main.swift` or the folder is gone, or files cannot be read: nothing to build until that is fixed.
        case unavailable(missing: [String], unreadable: [String])
    }

    /// What one file looked like at one poll.
    struct Fingerprint: Equatable {
        var modified: timespec?
        var size: Int
        var hash: UInt64?   // nil: the file exists but cannot be read

        static func == (a: Fingerprint, b: Fingerprint) -> Bool {
            a.modified?.tv_sec == b.modified?.tv_sec && a.modified?.tv_nsec == b.modified?.tv_nsec
                && a.size == b.size && a.hash == b.hash
        }
    }

    public let folder: URL
    public let quietPeriod: Double
    private let now: @Sendable () -> Double
    private let lock = NSLock()
    /// The state last reported (or found at the start).
    private var reported: [String: Fingerprint]
    /// The state seen at the last poll, and when it last differed from the poll before.
    private var lastSeen: [String: Fingerprint]
    private var lastDifference: Double?
    private var timer: DispatchSourceTimer?

    public init(folder: URL, quietPeriod: Double = 0.1,
                now: @escaping @Sendable () -> Double = { Double(monotonicNow()) / 1e9 }) {
        self.folder = folder
        self.quietPeriod = quietPeriod
        self.now = now
        let snapshot = Self.snapshot(of: folder)
        reported = snapshot
        lastSeen = snapshot
    }

    /// Looks at the folder once; returns an event when a change has settled for the quiet period.
    public func poll() -> Event? {
        let current = Self.snapshot(of: folder)
        let time = now()
        lock.lock()
        defer { lock.unlock() }
        if current != lastSeen {
            lastSeen = current
            lastDifference = time
            return nil
        }
        guard let since = lastDifference, time - since >= quietPeriod else { return nil }
        lastDifference = nil
        // Saved back to what it was (an undo and a save) or only touched: nothing to rebuild.
        guard current.mapValues(\.hash) != reported.mapValues(\.hash) else { return nil }
        let previous = reported
        reported = current
        return Self.event(from: previous, to: current)
    }

    /// Polls every `interval` seconds on a queue of its own and hands events to `handler`, until `stop()`.
    public func start(every interval: Double = 0.05, handler: @escaping @Sendable (Event) -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tour.source-watcher"))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [self] in
            if let event = self.poll() { handler(event) }
        }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    public func stop() {
        lock.withLock {
            timer?.cancel()
            timer = nil
        }
    }

    private static func event(from previous: [String: Fingerprint], to current: [String: Fingerprint]) -> Event {
        let unreadable = current.filter { $0.value.hash == nil }.keys.sorted()
        if current["main.swift"] == nil || !unreadable.isEmpty {
            let missing = previous.keys.filter { current[$0] == nil }.sorted()
            return .unavailable(missing: missing, unreadable: unreadable)
        }
        let names = Set(previous.keys).union(current.keys).filter { previous[$0]?.hash != current[$0]?.hash || (previous[$0] == nil) != (current[$0] == nil) }
        return .changed(files: names.sorted())
    }

    static func snapshot(of folder: URL) -> [String: Fingerprint] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var snapshot: [String: Fingerprint] = [:]
        for name in names where name.hasSuffix(".swift") {
            let path = folder.appendingPathComponent(name).path
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let data = FileManager.default.contents(atPath: path)
            snapshot[name] = Fingerprint(modified: info.st_mtim, size: Int(info.st_size), hash: data.map(contentHash))
        }
        return snapshot
    }
}

/// FNV-1a, 64 bits: enough to tell one version of a source file from the next, with no dependency.
public func contentHash(_ data: Data) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
}
