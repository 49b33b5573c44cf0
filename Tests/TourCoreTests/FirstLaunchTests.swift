import Foundation
import Testing
@testable import TourCore
import TourTestSupport

/// The first launch after a fresh build says how long the build took, once, measured from the build folder's files.
@Suite("First launch", .bodiesBelowTheRunner)
struct FirstLaunchTests {
    /// A scratch package: its root, the build folder's `workspace-state.json` and a `tour` program in it.
    private struct Scratch {
        let root = ScratchSpace.folder.appendingPathComponent("tour-first-launch-\(UUID().uuidString)")
        var buildFolder: URL { root.appendingPathComponent(".build") }
        var workspaceState: URL { buildFolder.appendingPathComponent("workspace-state.json") }
        var executable: URL { buildFolder.appendingPathComponent("x86_64-unknown-linux-gnu/debug/tour") }

        /// A build that made the build folder at `made` and linked `tour` at `linked`.
        func build(madeAt made: Date, linkedAt linked: Date) throws {
            try FileManager.default.createDirectory(at: executable.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: workspaceState)
            try Data("program".utf8).write(to: executable)
            try FileManager.default.setAttributes([.modificationDate: made], ofItemAtPath: workspaceState.path)
            try FileManager.default.setAttributes([.modificationDate: linked], ofItemAtPath: executable.path)
        }

        func relink(at linked: Date) throws {
            try FileManager.default.setAttributes([.modificationDate: linked], ofItemAtPath: executable.path)
        }

        func notice() -> String? {
            FirstLaunch.buildNotice(packageRoot: root, executable: executable)
        }
    }

    @Test("Said once after the build that made the build folder, with the time from the folder to the program")
    func onceAfterAFreshBuild() async throws {
        let scratch = Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        let made = Date(timeIntervalSinceNow: -600)
        try scratch.build(madeAt: made, linkedAt: made.addingTimeInterval(49.4))
        #expect(scratch.notice() == "Built in 49 s; later launches open at once.")
        #expect(scratch.notice() == nil, "said once")
        try scratch.relink(at: made.addingTimeInterval(300))
        #expect(scratch.notice() == nil, "a later rebuild in the same folder is not a first build")
    }

    @Test("A build folder made again (the checkout cleaned and built afresh) is said again")
    func againAfterACleanBuild() async throws {
        let scratch = Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        let first = Date(timeIntervalSinceNow: -3_600)
        try scratch.build(madeAt: first, linkedAt: first.addingTimeInterval(50))
        _ = scratch.notice()
        let second = Date(timeIntervalSinceNow: -200)
        try scratch.build(madeAt: second, linkedAt: second.addingTimeInterval(61))
        #expect(scratch.notice() == "Built in 61 s; later launches open at once.")
    }

    @Test("A folder made long before the program was built says nothing: that span is no one build's time")
    func noClaimForAnOldFolder() async throws {
        let scratch = Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        let made = Date(timeIntervalSinceNow: -86_400)
        try scratch.build(madeAt: made, linkedAt: Date(timeIntervalSinceNow: -60))
        #expect(scratch.notice() == nil)
    }

    @Test("A program outside a SwiftPM build folder says nothing")
    func noBuildFolder() async throws {
        let scratch = Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        try FileManager.default.createDirectory(at: scratch.root, withIntermediateDirectories: true)
        let program = scratch.root.appendingPathComponent("tour")
        try Data("program".utf8).write(to: program)
        #expect(FirstLaunch.buildNotice(packageRoot: scratch.root, executable: program) == nil)
    }
}
