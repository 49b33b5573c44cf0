import Testing
import PageProtocol
@testable import TourCommandLine
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourCommandLine
import TourTestSupport

/// Every message that repeats what the learner typed stays readable: a 100 KB argument is cut, not echoed whole.
@Suite("Messages that echo input", .bodiesBelowTheRunner)
struct EchoedInputMessageTests {
    static let huge = String(repeating: "y", count: 100_000)

    /// The message `arguments` get from the parser.
    private func usageMessage(_ arguments: [String]) throws -> String {
        let error = try #require(throws: TourCommand.UsageError.self) { try TourCommand.parse(arguments) }
        return error.description
    }

    /// `message` is short and tells how long the echoed input was (`length`: the huge argument and what came with it).
    private func expectCut(_ message: String, _ comment: Comment? = nil, length: String = "100,000") {
        #expect(message.count < 400, comment)
        #expect(message.contains("...' (\(length) characters)"), comment)
    }

    @Test("The parser cuts every argument it echoes")
    func parserCuts() throws {
        expectCut(try usageMessage([Self.huge]), "unknown command")
        expectCut(try usageMessage(["list", Self.huge]), "list with arguments")
        expectCut(try usageMessage(["run", "1", "--" + Self.huge]), "unknown option", length: "100,002")
        expectCut(try usageMessage(["run", "1", Self.huge]), "a second page")
        expectCut(try usageMessage(["run", "1", "--set", Self.huge]), "a knob setting without =")
        expectCut(try usageMessage(["run", "1", "--speed", Self.huge]), "a speed")
        expectCut(try usageMessage(["reset", "1", Self.huge]), "reset with two pages")
    }

    @Test("Knob values and page names are cut too")
    func knobsAndPagesCut() throws {
        let count = KnobDeclaration(name: "count", kind: .integer(default: 1, range: 1...4), line: 1)
        expectCut(try #require(throws: LaunchProblem.self) { try count.spec.value(from: Self.huge) }.description)
        let flag = KnobDeclaration(name: "flag", kind: .boolean(default: false), line: 1)
        expectCut(try #require(throws: LaunchProblem.self) { try flag.spec.value(from: Self.huge) }.description)
        let mode = KnobDeclaration(name: "mode", kind: .choice(default: "a", choices: ["a", "b"]), line: 1)
        expectCut(try #require(throws: LaunchProblem.self) { try mode.spec.value(from: Self.huge) }.description)

        let catalog = try PageCatalog.load()
        let error = try #require(throws: TourCommand.UsageError.self) {
            try PlainRun.validate(TourCommand.RunOptions(page: Self.huge), catalog: catalog)
        }
        expectCut(error.description, "an unknown page")
        let (lines, status) = ResetCommand.execute(Self.huge, catalog: catalog)
        #expect(status == .usage)
        expectCut(lines.joined(separator: "\n"), "reset of an unknown page")
    }
}
