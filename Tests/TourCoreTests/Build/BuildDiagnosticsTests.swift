import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// The parser on real `swift build` output captured with Swift 6.3.1 on Linux, from pages broken on purpose
/// in a copy of the package (Tests/TourCoreTests/Fixtures/build-*.txt).
@Suite("Build diagnostics", .bodiesBelowTheRunner)
struct BuildDiagnosticsTests {
    static func fixture(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func errorsWithTheirExcerptNoteAndNoDuplicates() throws {
        let parsed = BuildDiagnostics.parse(try Self.fixture("build-page1-redeclaration-and-extra-argument.txt"))
        // SwiftPM printed both errors twice (compiling, then emitting the module).
        #expect(parsed.diagnostics.count == 2)
        let redeclaration = try #require(parsed.diagnostics.first)
        #expect(redeclaration.file == "/tmp/cap/Lessons/01-Operation/main.swift")
        #expect(redeclaration.line == 22 && redeclaration.column == 5)
        #expect(redeclaration.severity == .error)
        #expect(redeclaration.message == "invalid redeclaration of 'photo'")
        #expect(redeclaration.notes == [
            Diagnostic(file: "/tmp/cap/Lessons/01-Operation/main.swift", line: 21, column: 5, severity: .note,
                       message: "'photo' previously declared here"),
        ])
        #expect(redeclaration.shortDescription == "main.swift:22:5: error: invalid redeclaration of 'photo'")
        let extra = parsed.diagnostics[1]
        #expect((extra.line, extra.column, extra.message) == (47, 43, "extra argument in call"))
        #expect(extra.notes.isEmpty)
        // "emit-module command failed" only repeats the located errors; the SwiftPM warnings have no place.
        #expect(parsed.unlocatedErrors.isEmpty)
    }

    @Test func errorInAHelperFile() throws {
        let parsed = BuildDiagnostics.parse(try Self.fixture("build-page2-helper-error.txt"))
        #expect(parsed.diagnostics == [
            Diagnostic(file: "/tmp/cap/Lessons/02-Queue/PoolMeter.swift", line: 21, column: 30, severity: .error,
                       message: "cannot convert value of type 'String' to expected argument type 'Int'"),
        ])
    }

    @Test func warningInAHelperAndErrorInMain() throws {
        let parsed = BuildDiagnostics.parse(try Self.fixture("build-page3-helper-warning-and-label.txt"))
        #expect(parsed.diagnostics.map(\.shortDescription) == [
            "RunLoopWait.swift:52:9: warning: variable 'idleSource' was never mutated; consider changing to 'let' constant",
            "main.swift:291:30: error: extraneous argument label 'untill:' in call",
        ])
        #expect(parsed.errors.count == 1)
    }

    @Test func sameErrorInTwoFiles() throws {
        let parsed = BuildDiagnostics.parse(try Self.fixture("build-page3-redeclared-across-files.txt"))
        #expect(parsed.diagnostics.map { "\(($0.file as NSString).lastPathComponent):\($0.line)" } == ["RunLoopWait.swift:125", "main.swift:194"])
    }

    @Test func olderFormatNotesFollowTheirError() {
        let output = """
            /p/Lessons/01-Operation/main.swift:22:5: error: invalid redeclaration of 'photo'
            let photo = 3
                ^
            /p/Lessons/01-Operation/main.swift:21:5: note: 'photo' previously declared here
            let photo = try Photos.load(photoName.rawValue)
                ^
            /p/Lessons/01-Operation/Helper.swift:3:1: warning: will never be executed
            error: link command failed with exit code 1 (use -v to see invocation)
            """
        let parsed = BuildDiagnostics.parse(output)
        #expect(parsed.diagnostics.count == 2)
        #expect(parsed.diagnostics[0].notes.map(\.line) == [21])
        #expect(parsed.diagnostics[1].file == "/p/Lessons/01-Operation/Helper.swift")
        #expect(parsed.unlocatedErrors == ["link command failed with exit code 1 (use -v to see invocation)"])
    }

    @Test func severalMarkersUnderOneRow() {
        let output = """
            /p/main.swift:4:7: error: cannot find 'x' in scope
            3 | func f() {
            4 |     g(x, y)
              |       |  `- error: cannot find 'y' in scope
              |       `- error: cannot find 'x' in scope
            5 | }
            """
        let parsed = BuildDiagnostics.parse(output)
        #expect(parsed.diagnostics.count == 1)
        #expect(parsed.diagnostics[0].notes.map { "\($0.line):\($0.column) \($0.message)" } == ["4:10 cannot find 'y' in scope"])
    }

    /// Found by `scripts/fuzz.sh` (BuildDiagnostics): a header with a negative line, an excerpt row numbered 0 and a
    /// marker right after the bar gave places before the start of the file, where the page pane and the editor look.
    @Test func everyPlaceCountsFromOne() throws {
        let output = """
            /tmp/cap/Lessons/03-Async/main.swift:-94:6: error: invalid redeclaration of 'describe(_:of:)'
            /tmp/cap/Lessons/03-Async/main.swift:+94:6: error: a signed line
            /tmp/cap/Lessons/03-Async/main.swift:0:6: error: line zero
            /tmp/cap/Lessons/03-Async/main.swift:12:5: error: the real one
            0 | func describe()
              |      `- note: under row zero
            -3 | func describe()
              |      `- note: under a negative row
            13 | func describe()
              |`- note: straight after the bar
            """
        let parsed = BuildDiagnostics.parse(output)
        let places = parsed.diagnostics.flatMap { [$0] + $0.notes }.map { "\($0.line):\($0.column) \($0.message)" }
        #expect(places == ["12:5 the real one", "13:1 straight after the bar"])
    }
}
