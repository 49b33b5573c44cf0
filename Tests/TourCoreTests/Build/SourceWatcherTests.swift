import Foundation
import Synchronization
import Testing
@testable import TourCore

/// The watcher with its clock in the test's hands: each poll is called explicitly, so nothing sleeps.
@Suite("Source watcher")
final class SourceWatcherTests {
    final class Clock: Sendable {
        private let time = Mutex(100.0)
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
        var now: @Sendable () -> Double { { self.time.withLock { $0 } } }
    }

    let folder: URL
    let clock = Clock()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-\(UUID().uuidString)")
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
