@preconcurrency import Glibc
import Foundation
import Testing
import TourCore
import TourTestSupport

/// Whether a page's program can run as it is, judged by the times of its files.
@Suite("Program freshness", .bodiesBelowTheRunner)
struct ProgramFreshnessTests {
    /// A folder with a program and a page's source, each given a modification time in nanoseconds.
    static func folder(program: Int?, source: Int) throws -> (program: String, sources: String) {
        let root = ScratchSpace.folder.appendingPathComponent("freshness-\(UUID().uuidString)")
        let sources = root.appendingPathComponent("Lessons/01-Page")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let main = sources.appendingPathComponent("main.swift").path
        let programPath = root.appendingPathComponent("Lesson01Page").path
        try ScratchSpace.write("print(1)\n".utf8, to: URL(fileURLWithPath: main))
        try setTime(source, of: main)
        if let program {
            try ScratchSpace.write("program".utf8, to: URL(fileURLWithPath: programPath))
            try setTime(program, of: programPath)
        }
        return (programPath, sources.path)
    }

    static func setTime(_ nanoseconds: Int, of path: String) throws {
        let time = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        var times = [time, time]
        try #require(utimensat(AT_FDCWD, path, &times, 0) == 0, "utimensat \(path)")
    }

    static let built = 1_700_000_000_000_000_000

    @Test("A program newer than its sources is fresh; one missing, older, or written in the same clock tick as a save is stale")
    func staleness() throws {
        let older = try Self.folder(program: Self.built, source: Self.built - 4_000_000)
        #expect(!ProgramFreshness.isStale(program: older.program, sourceFolder: older.sources))
        let newer = try Self.folder(program: Self.built, source: Self.built + 4_000_000)
        #expect(ProgramFreshness.isStale(program: newer.program, sourceFolder: newer.sources))
        // The kernel's coarse clock gives a save in the same tick as the build the same time, to the nanosecond.
        let sameTick = try Self.folder(program: Self.built, source: Self.built)
        #expect(ProgramFreshness.isStale(program: sameTick.program, sourceFolder: sameTick.sources))
        let missing = try Self.folder(program: nil, source: Self.built)
        #expect(ProgramFreshness.isStale(program: missing.program, sourceFolder: missing.sources))
    }
}
