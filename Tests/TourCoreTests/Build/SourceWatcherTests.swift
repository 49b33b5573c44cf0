import Foundation
import Synchronization
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// The watcher with its clock in the test's hands: each poll is called explicitly, so nothing sleeps.
@Suite("Source watcher", .bodiesBelowTheRunner)
final class SourceWatcherTests {
    final class Clock: Sendable {
        private let time = Mutex(100.0)
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
        var now: @Sendable () -> Double { { self.time.withLock { $0 } } }
    }

    let folder: URL
    let clock = Clock()

    init() throws {
        folder = ScratchSpace.folder.appendingPathComponent("watcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try write("main.swift", "print(1)\n")
        try write("Helper.swift", "func helper() {}\n")
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }

    func watcher() -> SourceWatcher { SourceWatcher(folder: folder, quietPeriod: 0.1, now: clock.now) }

    /// Polls every 20 ms of fake time for `seconds`, collecting the events.
    func polls(_ watcher: SourceWatcher, for seconds: Double) -> [SourceWatcher.Event] {
        var events: [SourceWatcher.Event] = []
        for _ in 0..<Int(seconds / 0.02) {
            clock.advance(0.02)
            if let event = watcher.poll() { events.append(event) }
        }
        return events
    }

    @Test func nothingChangedNoEvent() {
        #expect(polls(watcher(), for: 1).isEmpty)
    }

    @Test func oneChangeOneEvent() throws {
        let watcher = watcher()
        try write("main.swift", "print(2)\n")
        #expect(polls(watcher, for: 1) == [.changed(files: ["main.swift"])])
        #expect(polls(watcher, for: 1).isEmpty)
    }

    @Test func sameSizeSameSecondChangeIsSeenByItsContent() throws {
        let path = folder.appendingPathComponent("main.swift").path
        let watcher = watcher()
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
        try write("main.swift", "print(3)\n")
        // A file system whose modification times did not move: only the hash can tell.
        try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: path)
        #expect(polls(watcher, for: 1) == [.changed(files: ["main.swift"])])
    }

    @Test func burstOfSavesIsOneEvent() throws {
        let watcher = watcher()
        var events: [SourceWatcher.Event] = []
        for round in 0..<8 {
            try write("main.swift", "print(\(round))\n// \(String(repeating: "x", count: round))\n")
            if round == 3 { try write("Helper.swift", "func helper() { }\n") }
            events += polls(watcher, for: 0.06)   // saves closer together than the quiet period
        }
        events += polls(watcher, for: 1)
        #expect(events == [.changed(files: ["Helper.swift", "main.swift"])])
    }

    @Test func savedBackToTheOriginalIsNoEvent() throws {
        let path = folder.appendingPathComponent("main.swift").path
        let watcher = watcher()
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
        try write("main.swift", "print(9)\n")
        _ = watcher.poll()
        try write("main.swift", "print(1)\n")
        try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: path)
        #expect(polls(watcher, for: 1).isEmpty)
    }

    @Test func deletionIsItsOwnEvent() throws {
        let watcher = watcher()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("main.swift"))
        #expect(polls(watcher, for: 1) == [.unavailable(missing: ["main.swift"], unreadable: [])])
        try write("main.swift", "print(1)\n")
        #expect(polls(watcher, for: 1) == [.changed(files: ["main.swift"])])
    }

    @Test func folderGoneIsUnavailable() throws {
        let watcher = watcher()
        try FileManager.default.removeItem(at: folder)
        #expect(polls(watcher, for: 1) == [.unavailable(missing: ["Helper.swift", "main.swift"], unreadable: [])])
    }

    @Test func helperDeletedIsAChange() throws {
        let watcher = watcher()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Helper.swift"))
        #expect(polls(watcher, for: 1) == [.changed(files: ["Helper.swift"])])
    }
}

/// The watcher as the tutorial runs it, on a real folder with inotify (or polling, forced): every test awaits the
/// events the watcher hands over, bridged to a stream, and saves atomically (a temporary file renamed into place), as
/// editors do, so no test sees a save half done. Any wait for the quiet period is real time, so no test may need one to
/// pass unless its quiet period is short.
@Suite("Source watcher, started", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
final class StartedSourceWatcherTests {
    final class Clock: Sendable {
        private let time = Mutex(100.0)
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
        var now: @Sendable () -> Double { { self.time.withLock { $0 } } }
    }

    let root: URL
    let folder: URL

    init() throws {
        root = ScratchSpace.folder.appendingPathComponent("started-watcher-\(UUID().uuidString)")
        folder = root.appendingPathComponent("01-Page")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try save("main.swift", "print(1)\n")
        try save("Helper.swift", "func helper() {}\n")
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Writes a temporary file beside the page and renames it into place, as an editor's atomic save does.
    func save(_ name: String, _ text: String, in folder: URL? = nil) throws {
        let folder = folder ?? self.folder
        let temporary = folder.appendingPathComponent(".\(name).tmp-\(UUID().uuidString)")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, folder.appendingPathComponent(name).path) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Starts `watcher` and returns its events as a stream.
    func events(of watcher: SourceWatcher, every interval: Double = 0.05) -> AsyncStream<SourceWatcher.Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: SourceWatcher.Event.self)
        watcher.start(every: interval) { continuation.yield($0) }
        return stream
    }

    /// How the watcher watches; its watch is in place once `start` returned.
    func started(_ watcher: SourceWatcher) throws -> SourceWatcher.Method {
        try #require(watcher.method)
    }

    @Test func anAtomicSaveIsReportedWithoutWaitingForTheQuietPeriod() async throws {
        // Ten minutes of quiet: only a report at once can arrive within the test's time limit.
        let watcher = SourceWatcher(folder: folder, quietPeriod: 600, method: .automatic, environment: [:])
        defer { watcher.stop() }
        var events = events(of: watcher).makeAsyncIterator()
        #expect(try started(watcher) == .notifications)
        try save("main.swift", "print(2)\n")
        #expect(await events.next() == .changed(files: ["main.swift"]))
    }

    @Test func aBurstOfSavesAfterAReportIsOneEventWithTheLastText() async throws {
        // The clock stands still until the test moves it: every save of the burst falls within the quiet period of
        // the report before it, however slowly the machine runs the loop.
        let clock = Clock()
        let watcher = SourceWatcher(folder: folder, quietPeriod: 0.05, method: .notifications, now: clock.now)
        defer { watcher.stop() }
        var events = events(of: watcher).makeAsyncIterator()
        _ = try started(watcher)
        try save("main.swift", "print(2)\n")
        #expect(await events.next() == .changed(files: ["main.swift"]))
        for round in 3...10 { try save("main.swift", "print(\(round))\n") }
        clock.advance(1)
        #expect(await events.next() == .changed(files: ["main.swift"]))
        // Had the burst given two events, or one with an older text, the next would name main.swift again.
        try save("Helper.swift", "func helper() { }\n")
        clock.advance(1)
        #expect(await events.next() == .changed(files: ["Helper.swift"]))
    }

    @Test func pollingIsTheFallbackAndCanBeForced() async throws {
        let forced = SourceWatcher(folder: folder, environment: [SourceWatcher.methodVariable: "poll"])
        #expect(forced.chooseMethod() == .polling)
        #expect(SourceWatcher(folder: folder, environment: [:]).chooseMethod() == .notifications)
        // A network file system's changes made elsewhere raise no notification here.
        #expect(SourceWatcher.remoteFileSystems.contains(0x6969))

        let watcher = SourceWatcher(folder: folder, quietPeriod: 0.05, method: .polling)
        defer { watcher.stop() }
        var events = events(of: watcher, every: 0.02).makeAsyncIterator()
        #expect(try started(watcher) == .polling)
        try save("main.swift", "print(2)\n")
        #expect(await events.next() == .changed(files: ["main.swift"]))
    }

    @Test func whereInotifyCannotWatchTheWatcherPollsAndStillSeesTheSave() async throws {
        // The folder and its parent are not there yet, so inotify has nothing to watch: asked for notifications, the
        // watcher must fall back to polling rather than watch nothing.
        let later = root.appendingPathComponent("later/01-Page")
        let watcher = SourceWatcher(folder: later, quietPeriod: 0.05, method: .notifications)
        defer { watcher.stop() }
        var events = events(of: watcher, every: 0.02).makeAsyncIterator()
        #expect(try started(watcher) == .polling)
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
        try save("main.swift", "print(2)\n", in: later)
        #expect(await events.next() == .changed(files: ["main.swift"]))
    }

    @Test func aFolderDeletedAndMadeAgainIsWatchedAgain() async throws {
        let watcher = SourceWatcher(folder: folder, quietPeriod: 0.05, method: .notifications)
        defer { watcher.stop() }
        var events = events(of: watcher).makeAsyncIterator()
        _ = try started(watcher)
        // Moved away whole, then deleted: the page's files go at once, not one by one.
        let away = root.appendingPathComponent("gone")
        try FileManager.default.moveItem(at: folder, to: away)
        try FileManager.default.removeItem(at: away)
        #expect(await events.next() == .unavailable(missing: ["Helper.swift", "main.swift"], unreadable: []))

        // Made again elsewhere and renamed into place, as a checkout or a restore from a backup might.
        let made = root.appendingPathComponent("made")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        try save("main.swift", "print(3)\n", in: made)
        try FileManager.default.moveItem(at: made, to: folder)
        #expect(await events.next() == .changed(files: ["main.swift"]))
        // The new folder is watched, not only seen once.
        try save("main.swift", "print(4)\n")
        #expect(await events.next() == .changed(files: ["main.swift"]))
    }
}
