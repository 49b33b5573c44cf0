@preconcurrency import Glibc
import Foundation
import Synchronization
import PageProtocol

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
                now: @escaping @Sendable () -> Double = { Double(monotonicNanoseconds()) / 1e9 }) {
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

    /// Straight system calls rather than FileManager and URLs: this runs twenty times a second for as long as the
    /// tutorial is open, and Foundation's path handling made it most of an idle tutorial's CPU.
    static func snapshot(of folder: URL) -> [String: Fingerprint] {
        let path = folder.path
        guard let directory = opendir(path) else { return [:] }
        defer { closedir(directory) }
        var snapshot: [String: Fingerprint] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".swift") else { continue }
            let file = path + "/" + name
            var info = stat()
            guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            snapshot[name] = Fingerprint(modified: info.st_mtim, size: Int(info.st_size), hash: contentHash(ofFile: file))
        }
        return snapshot
    }

    /// The `contentHash` of the file's bytes, or nil when it cannot be read.
    static func contentHash(ofFile path: String) -> UInt64? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var hash = FNV1a()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return hash.value }
            buffer.withUnsafeBytes { hash.add(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
    }
}

/// FNV-1a, 64 bits: enough to tell one version of a source file from the next, with no dependency.
public func contentHash(_ data: Data) -> UInt64 {
    var hash = FNV1a()
    data.withUnsafeBytes { hash.add($0) }
    return hash.value
}

/// FNV-1a fed in pieces, over raw bytes: Data's own iterator is not specialised across modules and cost more than
/// reading the file.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
    }
}
