import Foundation
import Testing
import TourCore
import TourTestSupport

/// A fresh clone's first build prints no warning (issue 30), and the code a learner reads most is where one would creep
/// back in: a page's code edited with its prose, an exercise, a reference solution. Each of their folders is
/// type-checked here as SwiftPM compiles it (Swift 6 mode, against the LessonKit these tests were built with), which
/// takes a fraction of a second each, where a clean build would take minutes. The linker's and SwiftPM's own warnings
/// show only in a clean build, and are not checked here.
@Suite("Shipped programs compile without a warning", .bodiesBelowTheRunner)
struct ShippedProgramWarningTests {
    /// Every folder of `Lessons/`, `Exercises/` and `Solutions/`, as `Lessons/01-Operation`.
    static let folders: [String] = ["Lessons", "Exercises", "Solutions"].flatMap { parent in
        let folder = PageCatalog.defaultRoot.appendingPathComponent(parent).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { "\(parent)/\($0)" }
    }

    /// Every page of the catalog has its folder here, and so has its exercise and reference solution.
    @Test func everyPageExerciseAndSolutionIsChecked() throws {
        let pages = try PageCatalog.load().pages.map { $0.source.deletingLastPathComponent().lastPathComponent }
        #expect(pages.count >= 11)
        #expect(Self.folders.filter { $0.hasPrefix("Lessons/") } == pages.map { "Lessons/\($0)" })
        #expect(Self.folders.filter { $0.hasPrefix("Exercises/") } == pages.map { "Exercises/\($0)" })
        #expect(Self.folders.filter { $0.hasPrefix("Solutions/") } == pages.map { "Solutions/\($0)" })
    }

    @Test(arguments: folders)
    func typeChecksWithoutAWarning(_ folder: String) async throws {
        let directory = PageCatalog.defaultRoot.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.sorted()
        let (status, output) = try await PageCompiler.compile(files.map { directory.appendingPathComponent($0) }, upTo: .typecheck,
                                                              label: "typecheck \(folder)")
        #expect(status == 0, "\(output)")
        #expect(!output.contains("warning:"), "\(output)")
    }
}
