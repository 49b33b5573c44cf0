import Foundation
import Testing
import TourCore
import TourTestSupport

/// Every suite runs its bodies below Swift Testing's runner (`BodiesBelowTheRunner`): one suite without it would put
/// its bodies back on the runner's queue, and every test's report behind them.
@Suite("Every suite's traits", .bodiesBelowTheRunner)
struct EverySuiteTests {
    @Test("Every @Suite in the test sources carries .bodiesBelowTheRunner")
    func everySuiteRunsItsBodiesBelowTheRunner() throws {
        let tests = PageCatalog.defaultRoot.appendingPathComponent("Tests")
        let files = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.path.contains("/Fixtures/") && !$0.path.contains("/Fuzz/") }
        var suites = 0
        var without: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") {
                suites += 1
                if !line.contains(".bodiesBelowTheRunner") { without.append("\(file.lastPathComponent):\(number + 1)") }
            }
        }
        #expect(suites >= 100, "found only \(suites) suites under \(tests.path)")
        #expect(without.isEmpty, "suites without .bodiesBelowTheRunner: \(without.joined(separator: ", "))")
    }

    @Test("A body runs below the runner, at .utility, and still knows its test: its expectations are recorded against it")
    func aBodyRunsBelowTheRunner() {
        #expect(Task.currentPriority == .utility)
        #expect(Test.current?.name == "aBodyRunsBelowTheRunner()")
    }
}
