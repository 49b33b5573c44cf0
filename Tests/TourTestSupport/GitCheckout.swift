import Foundation
import TourCore

/// Makes a scratch folder a git checkout whose HEAD holds some of its files, as a learner's clone of the tour is: for
/// tests of what tour reads from git. Git runs with this test's own identity and no hooks or signing, whatever the
/// machine's configuration says.
public enum GitCheckout {
    /// The `git` on `PATH`, or nil: tests that need one are `.enabled(if: GitCheckout.isAvailable)`.
    public static let git = SearchPath().find("git")
    public static var isAvailable: Bool { git != nil }

    /// `git init` in `folder`, then one commit of `paths` (relative to it) as they are now.
    public static func commit(_ paths: [String], in folder: URL) async throws {
        for arguments in [["init", "--quiet"], ["add", "--"] + paths,
                          ["-c", "user.name=tour tests", "-c", "user.email=tests@tour.invalid", "-c", "commit.gpgsign=false",
                           "commit", "--quiet", "--no-verify", "-m", "the tour as shipped"]] {
            try await run(arguments, in: folder)
        }
    }

    /// Runs git in `folder` to its end, off Swift Testing's threads; a failure throws with what git said.
    private static func run(_ arguments: [String], in folder: URL) async throws {
        guard let git else { throw Problem(description: "git is not installed") }
        let result = try await runToEnd(git, ["-C", folder.path] + arguments, environment: ProcessInfo.processInfo.environment
            .merging(["GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"]) { $1 }, label: "git")
        guard result.status == 0 else {
            throw Problem(description: "git \(arguments.joined(separator: " ")) in \(folder.path) ended with \(result.status): \(result.output)")
        }
    }

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }
}
