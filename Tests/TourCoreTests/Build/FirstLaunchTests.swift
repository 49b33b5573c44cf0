import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// The first launch after a fresh build says how long the learner waited, once: the age of the launch that `swift run`
/// started before its build, or else the build's time, measured from the build folder's files.
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

        /// The notice of a launch `launchAge` seconds old: by default one started by hand after the build, which waited
        /// for none.
        func notice(launchAge: TimeInterval = 0.3) -> String? {
            FirstLaunch.buildNotice(packageRoot: root, executable: executable, launchAge: launchAge)
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
        #expect(FirstLaunch.buildNotice(packageRoot: scratch.root, executable: program, launchAge: 40) == nil)
    }

    @Test("Launched by swift run, which built first, it says the whole wait: the process's age, build included")
    func theWholeWait() async throws {
        let scratch = Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        let made = Date(timeIntervalSinceNow: -60)
        try scratch.build(madeAt: made, linkedAt: made.addingTimeInterval(41))
        #expect(scratch.notice(launchAge: 57.6) == "Ready in 58 s, the build included; later launches open at once.")
        #expect(scratch.notice(launchAge: 57.6) == nil, "said once")
    }

    @Test("The process's age is read from the kernel: this test's process started before the test and after the boot")
    func processAge() async throws {
        let age = try #require(FirstLaunch.processAge())
        let started = ContinuousClock.now
        #expect(age > 0)
        #expect(age < ProcessInfo.processInfo.systemUptime)
        let later = try #require(FirstLaunch.processAge())
        let elapsed = (ContinuousClock.now - started).components
        let between = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        // Clock ticks are 10 ms: the second reading is the first plus the time between, to within two ticks.
        #expect(abs(later - age - between) < 0.02, "\(age) then \(later), \(between) s apart")
    }
}
