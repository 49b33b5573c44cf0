@preconcurrency import Glibc
import Foundation
import Testing
import TourCore
import TourTestSupport

/// No test may change the checkout: a learner runs `swift test` in the folder that holds their pages and their kept
/// originals, and a test killed at the wrong moment must not leave any of it edited. Tests that edit pages work in a
/// `ScratchPackage`.
///
/// Tests run in parallel in one process and none of them can run last, so the guard looks twice: once as a test,
/// for what tests changed so far, and once more as the process exits, after every test, where a change prints what
/// was changed and turns the exit status of `swift test` into a failure. `.ci/run` checks `git status` once more.
@Suite("The checkout after the tests", .bodiesBelowTheRunner)
struct CheckoutUntouchedTests {
    @Test("No test changes the checkout's files (checked now, and again as the test process exits)",
          .enabled(if: CheckoutGuard.isGitCheckout, "not a git checkout: nothing to compare against"))
    func noTestChangesTheCheckout() throws {
        CheckoutGuard.checkAgainAtExit()
        let changed = try CheckoutGuard.changedSinceTheTestsStarted()
        #expect(changed.isEmpty, "tests changed the checkout: \(changed.joined(separator: ", "))")
    }

    @Test("The guard counts a file written after the tests started, a file deleted since through its folder, and nothing older",
          .enabled(if: CheckoutGuard.isGitCheckout, "not a git checkout: nothing to compare against"))
    func theGuardSeesAChange() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = folder.appendingPathComponent("written.txt")
        try Data("a".utf8).write(to: written)
        #expect(CheckoutGuard.changedSince(start: CheckoutGuard.testsStarted, path: written))
        #expect(CheckoutGuard.changedSince(start: CheckoutGuard.testsStarted, path: folder.appendingPathComponent("deleted.txt")))
        let later = Date().timeIntervalSince1970 + 60
        #expect(!CheckoutGuard.changedSince(start: later, path: written))
        #expect(CheckoutGuard.testsStarted > 0 && CheckoutGuard.testsStarted <= Date().timeIntervalSince1970)
    }
}

/// Compares the checkout with the moment the test process started, through `git status` and modification times.
enum CheckoutGuard {
    /// The checkout these tests were built from.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // EndToEndTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()

    static var isGitCheckout: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path)
    }

    /// Seconds since the epoch at which this process started, from `/proc`: the tests cannot have changed anything
    /// before it.
    static let testsStarted: Double = {
        let stat = (try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)) ?? ""
        // Fields after the command name, which is in parentheses and may hold spaces; `starttime` is field 22.
        let fields = stat[(stat.range(of: ")", options: .backwards)?.upperBound ?? stat.startIndex)...].split(separator: " ")
        let ticks = fields.count > 19 ? Double(fields[19]) ?? 0 : 0
        let boot = ((try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? "")
            .split(separator: "\n").first { $0.hasPrefix("btime ") }
            .flatMap { Double($0.dropFirst("btime ".count)) } ?? 0
        return boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }()

    /// Whether `path` (or, if it is gone, the folder that held it) was modified at or after `start`.
    static func changedSince(start: Double, path: URL) -> Bool {
        var status = stat()
        if lstat(path.path, &status) == 0 {
            return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9 >= start
                || Double(status.st_ctim.tv_sec) + Double(status.st_ctim.tv_nsec) / 1e9 >= start
        }
        return changedSince(start: start, path: path.deletingLastPathComponent())
    }

    /// The entries `git status` reports (changed, deleted, untracked, and ignored ones outside the build folders,
    /// such as the learner's `.tour`) that were modified since the tests started. Entries that were already dirty
    /// before, a learner's own edits, are not the tests' doing and do not count.
    static func changedSinceTheTestsStarted() throws -> [String] {
        let status = try git(["status", "--porcelain=v1", "-z", "--ignored", "--untracked-files=all"])
        return status.split(separator: "\0").compactMap { entry -> String? in
            guard entry.count > 3 else { return nil }
            let path = String(entry.dropFirst(3))
            if [".build/", ".swiftpm/"].contains(where: { path.hasPrefix($0) }) { return nil }
            return changedSince(start: testsStarted, path: root.appendingPathComponent(path)) ? "\(entry.prefix(2)) \(path)" : nil
        }
    }

    /// Runs git in the checkout and returns its standard output (a `BlockingCommand`, which also works while the
    /// process exits; git's warnings stay on the test process's standard error, out of the parsed status).
    static func git(_ arguments: [String]) throws -> String {
        guard let git = SearchPath().find("git") else { throw GuardFailure(description: "git is not on PATH") }
        let finished = try BlockingCommand(executable: git, arguments: ["-C", root.path] + arguments, collectsStandardError: false).run()
        guard finished.exit.succeeded else { throw GuardFailure(description: "git \(arguments.joined(separator: " ")) failed (\(finished.exit))") }
        return finished.output
    }

    struct GuardFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Registers, once, the look at the checkout as the process exits, after the last test.
    static func checkAgainAtExit() {
        _ = registered
    }

    private static let registered: Void = {
        atexit {
            guard let changed = try? CheckoutGuard.changedSinceTheTestsStarted(), !changed.isEmpty else { return }
            fflush(nil)
            let message = "error: tests changed the checkout (\(CheckoutGuard.root.path)); work in a ScratchPackage instead:\n"
                + changed.map { "  \($0)\n" }.joined()
            fputs(message, stderr)
            _exit(1)
        }
    }()
}
