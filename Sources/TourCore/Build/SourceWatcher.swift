@preconcurrency import Glibc
import Foundation
import Synchronization
import PageProtocol

/// Notices when the `.swift` files of a page folder change: by the kernel's inotify notifications where the folder's
/// file system delivers them, else by polling modification times and contents.
///
/// Every look at the folder compares a content hash too: an editor's save can leave the modification time unchanged
/// within its granularity, and a `touch` or a save of the same text must not cost a rebuild. Only a change of content
/// is reported.
///
/// With notifications, a file closed after writing or renamed into place (an editor's atomic save) is reported at
/// once. Anything less conclusive (a file created, deleted or renamed away, as an editor does halfway through a save,
/// the folder going and coming back) and any change within `quietPeriod` of the last report (a burst of saves, a
/// formatter running after a save) is reported once the folder has been quiet for `quietPeriod`, as one event.
/// Polling cannot tell a finished save from one in progress, so it always waits for the quiet period.
/// Idle, the notification watcher wakes for nothing; the polling one every `interval`.
///
/// `poll()` does one polling step and is driven from outside (the timer from `start`, or a test calling it directly),
/// with the clock injected, so the tests of the quiet period need no sleeps.
public final class SourceWatcher: @unchecked Sendable {
    public enum Event: Equatable, Sendable {
        /// These files changed, appeared or disappeared (helper files may come and go), and the page is still there.
        case changed(files: [String])
        /// `main.swift` or the folder is gone, or files cannot be read: nothing to build until that is fixed.
        case unavailable(missing: [String], unreadable: [String])
    }

    /// How changes are noticed.
    public enum Method: Equatable, Sendable {
        /// inotify where it works, polling where it does not (see `chooseMethod`).
        case automatic
        /// Inotify on the folder and its parent (for the folder being deleted and made again).
        case notifications
        /// Looking at the folder every `interval` seconds.
        case polling
    }

    /// The environment variable that forces polling (`TOUR_WATCH=poll`), for a file system whose notifications
    /// are known not to arrive, where `automatic` cannot tell.
    public static let methodVariable = "TOUR_WATCH"

    /// What one file looked like at one look.
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
    /// The method asked for; `method` is the one in use once started.
    private let requested: Method
    private let environment: [String: String]
    private let now: @Sendable () -> Double
    private let queue = DispatchQueue(label: "tour.source-watcher")
    private let lock = NSLock()
    /// The state last reported (or found at the start).
    private var reported: [String: Fingerprint]
    /// The state seen at the last look, and when the folder last moved (a look that differed, or a notification).
    private var lastSeen: [String: Fingerprint]
    private var lastMovement: Double?
    /// When the last event was reported: a change soon after it is part of a burst.
    private var lastReport: Double?
    private var resolved: Method?
    private var handler: (@Sendable (Event) -> Void)?
    private var timer: DispatchSourceTimer?
    private var notifications: Notifications?

    /// `method` `.automatic` unless a test needs one in particular; `environment` is read for `TOUR_WATCH`.
    public init(folder: URL, quietPeriod: Double = 0.1, method: Method = .automatic,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                now: @escaping @Sendable () -> Double = { Double(monotonicNanoseconds()) / 1e9 }) {
        self.folder = folder
        self.quietPeriod = quietPeriod
        self.requested = method
        self.environment = environment
        self.now = now
        let snapshot = Self.snapshot(of: folder)
        reported = snapshot
        lastSeen = snapshot
    }

    /// `.notifications` or `.polling` once started; nil before.
    public var method: Method? { lock.withLock { resolved } }

    /// One polling step: looks at the folder and returns an event when a change has settled for the quiet period.
    public func poll() -> Event? {
        look(conclusive: false)
    }

    /// Watches on a queue of its own and hands events to `handler`, until `stop()`. `interval` is the polling period,
    /// used only when polling. The watch is in place when it returns (`method` says which).
    public func start(every interval: Double = 0.05, handler: @escaping @Sendable (Event) -> Void) {
        if chooseMethod() == .notifications, let notifications = Notifications(folder: folder, queue: queue, onEvents: { [weak self] conclusive in
            self?.noticed(conclusive: conclusive)
        }) {
            lock.withLock {
                self.handler = handler
                self.notifications = notifications
                resolved = .notifications
            }
            // Whatever changed between `init` and the watch being in place is seen by one look after the quiet period.
            queue.async { [self] in noticed(conclusive: false) }
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self, let event = self.poll() else { return }
            self.deliver(event)
        }
        lock.withLock {
            self.handler = handler
            self.timer = timer
            resolved = .polling
        }
        timer.resume()
    }

    /// Stops watching; no event is handed over after it returns, though one being handed over may finish.
    public func stop() {
        lock.withLock {
            timer?.cancel()
            timer = nil
            notifications?.cancel()
            notifications = nil
            handler = nil
        }
    }

    /// The method `start` uses: polling when asked for, by `TOUR_WATCH=poll`, or on a file system whose changes may be
    /// made by another machine (NFS, SMB, 9p, FUSE), whose notifications would then never arrive; else notifications
    /// (which fall back to polling if inotify cannot be set up).
    public func chooseMethod() -> Method {
        if requested != .automatic { return requested }
        if environment[Self.methodVariable]?.lowercased() == "poll" { return .polling }
        var path = folder.path
        // `struct statfs` starts with its `f_type` (a long) on Linux; Glibc does not import `statfs`.
        var info = [Int](repeating: 0, count: 32)
        while info.withUnsafeMutableBytes({ c_statfs(path, $0.baseAddress!) }) != 0 {
            // The folder may be gone for now: its parent's file system is the one it comes back on.
            guard path != "/" && !path.isEmpty else { return .polling }
            path = (path as NSString).deletingLastPathComponent
        }
        return Self.remoteFileSystems.contains(Int64(info[0])) ? .polling : .notifications
    }

    /// `statfs` magic numbers of file systems that may change under us without a notification.
    static let remoteFileSystems: Set<Int64> = [
        0x6969,         // NFS
        0x517B,         // SMB
        0xFF53_4D42,    // CIFS
        0xFE53_4D42,    // SMB2
        0x0102_1997,    // 9p (v9fs)
        0x6573_5546,    // FUSE
    ]

    /// Looks at the folder. `conclusive`: a notification said a file was closed after writing or renamed into place.
    private func look(conclusive: Bool) -> Event? {
        // The time first: a look stamped later than its snapshot could report a save that a later one, already made
        // by then, replaces within the quiet period, giving a burst two events.
        let time = now()
        let current = Self.snapshot(of: folder)
        lock.lock()
        defer { lock.unlock() }
        if current != lastSeen {
            lastSeen = current
            lastMovement = time
        }
        let inBurst = lastReport.map { time - $0 < quietPeriod } ?? false
        if conclusive && !inBurst && Self.isComplete(current) { return report(current, at: time) }
        guard let since = lastMovement, time - since >= quietPeriod else { return nil }
        return report(current, at: time)
    }

    /// Called with `lock` held.
    private func report(_ current: [String: Fingerprint], at time: Double) -> Event? {
        lastMovement = nil
        // Saved back to what it was (an undo and a save) or only touched: nothing to rebuild.
        guard current.mapValues(\.hash) != reported.mapValues(\.hash) else { return nil }
        let previous = reported
        reported = current
        lastReport = time
        return Self.event(from: previous, to: current)
    }

    /// A batch of notifications arrived, on the queue: the folder moved. A look settles what it means, now if it
    /// was conclusive, and again once the folder has been quiet for the quiet period.
    private func noticed(conclusive: Bool) {
        lock.withLock { lastMovement = now() }
        if let event = look(conclusive: conclusive) { deliver(event) }
        settleLater(after: quietPeriod)
    }

    /// Arms the one-shot look that follows the last notification by the quiet period (re-arming moves it later).
    private func settleLater(after seconds: Double) {
        let timer = lock.withLock { () -> DispatchSourceTimer? in
            guard notifications != nil else { return nil }
            if let timer = self.timer { return timer }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [weak self] in self?.settle() }
            timer.schedule(deadline: .distantFuture)
            timer.resume()
            self.timer = timer
            return timer
        }
        timer?.schedule(deadline: .now() + seconds)
    }

    private func settle() {
        if let event = look(conclusive: false) { deliver(event) }
        // Moved again since (by the injected clock): wait out the rest of the quiet period.
        let remaining = lock.withLock { lastMovement.map { quietPeriod - (now() - $0) } }
        if let remaining { settleLater(after: max(remaining, 0.005)) }
    }

    private func deliver(_ event: Event) {
        let handler = lock.withLock { self.handler }
        handler?(event)
    }

    private static func isComplete(_ snapshot: [String: Fingerprint]) -> Bool {
        snapshot["main.swift"] != nil && snapshot.values.allSatisfy { $0.hash != nil }
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
        var snapshot: [String: Fingerprint] = [:]
        FolderNames.forEach(in: path) { name in
            guard name.hasSuffix(".swift") else { return }
            let file = path + "/" + name
            var info = stat()
            guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
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

@_silgen_name("statfs")
private func c_statfs(_ path: UnsafePointer<CChar>, _ buffer: UnsafeMutableRawPointer) -> Int32

/// The inotify side of `SourceWatcher`: one watch on the page folder, one on its parent to see the folder deleted and
/// made again, read on the watcher's queue. Touched only on that queue, after `init`.
final class Notifications: @unchecked Sendable {
    private let descriptor: Int32
    private let source: DispatchSourceRead
    private let folderPath: String
    private let folderName: String
    private var folderWatch: Int32 = -1
    private var parentWatch: Int32 = -1
    private let onEvents: (_ conclusive: Bool) -> Void
    private var buffer = [UInt8](repeating: 0, count: 65_536)

    /// What a page folder's watch listens for: every way a file's content or presence changes, and the folder's own end.
    static let folderMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB
                                   | IN_DELETE_SELF | IN_MOVE_SELF)
    static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR)

    /// Nil when inotify cannot be set up here (no instance or watch left, the parent folder gone): the watcher polls.
    /// `onEvents` gets each batch that moved the folder; `conclusive` when a `.swift` file in it was closed after
    /// writing or renamed into place.
    init?(folder: URL, queue: DispatchQueue, onEvents: @escaping (_ conclusive: Bool) -> Void) {
        folderPath = folder.path
        folderName = folder.lastPathComponent
        self.onEvents = onEvents
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        parentWatch = inotify_add_watch(descriptor, folder.deletingLastPathComponent().path, Self.parentMask)
        folderWatch = inotify_add_watch(descriptor, folderPath, Self.folderMask)
        // A folder that is not there yet is fine (the parent's watch sees it come); one that cannot be watched is not.
        guard parentWatch >= 0, folderWatch >= 0 || errno == ENOENT else {
            close(descriptor)
            return nil
        }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let descriptor = descriptor
        source.setEventHandler { [weak self] in self?.readAll() }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    func cancel() {
        source.cancel()
    }

    /// Reads every notification queued, then reports the batch once.
    private func readAll() {
        var moved = false
        var conclusive = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                // struct inotify_event: wd, mask, cookie, len, then `len` bytes of NUL-padded name.
                while offset + 16 <= count {
                    let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    offset += 16 + length
                    switch classify(watch: watch, mask: mask, name: name) {
                    case .ignored: break
                    case .moved: moved = true
                    case .conclusive: conclusive = true
                    }
                }
            }
        }
        if moved || conclusive { onEvents(conclusive) }
    }

    private enum Meaning { case ignored, moved, conclusive }

    private func classify(watch: Int32, mask: UInt32, name: String) -> Meaning {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return .moved }
        if watch == folderWatch && folderWatch >= 0 {
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                // A folder moved away keeps its watch; it is not the page folder any more.
                if mask & UInt32(IN_IGNORED) == 0 { inotify_rm_watch(descriptor, folderWatch) }
                folderWatch = -1
                return .moved
            }
            guard name.hasSuffix(".swift") else { return .ignored }
            return mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 ? .conclusive : .moved
        }
        guard watch == parentWatch, name == folderName else { return .ignored }
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, folderWatch < 0 {
            // Back (made again, or renamed into place): files written before this watch existed are seen by the look
            // after the quiet period.
            folderWatch = inotify_add_watch(descriptor, folderPath, Self.folderMask)
        } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0, folderWatch >= 0 {
            inotify_rm_watch(descriptor, folderWatch)
            folderWatch = -1
        }
        return .moved
    }
}
