import Foundation
import Testing
@testable import TourCommandLine
@testable import TourCore
@testable import RunModel
@testable import PageText
import PageProtocol
@testable import TourCommandLine
import TourTestSupport

/// `tour watch` and `tour reset` on the command line: parsing, and reset against a temporary package root.
@Suite("Watch and reset commands", .bodiesBelowTheRunner)
struct WatchResetCommandTests {
    @Test func watchTakesThePageAndTheRunOptions() throws {
        var expected = TourCommand.RunOptions(page: "operation")
        expected.plain = true
        expected.knobs = [KnobSetting(name: "photo", value: "rocket")]
        #expect(try TourCommand.parse(["watch", "operation", "--plain", "--set", "photo=rocket"]) == .watch(expected))
        #expect(throws: TourCommand.UsageError(description: "watch needs a page, for example: tour watch operation (see tour list)")) {
            try TourCommand.parse(["watch"])
        }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["watch", "1", "--bogus"]) }
    }

    @Test("An unknown option lists only what the command takes: watch refuses --trace, --svg, --predict and --cast, so it does not offer them")
    func unknownOptionsListWhatTheCommandTakes() throws {
        let watch = try #require(throws: TourCommand.UsageError.self) { try TourCommand.parse(["watch", "1", "--bogus"]) }
        #expect(watch.description == "unknown option '--bogus' for watch (\(CommandArguments.accepted(by: .watch)))")
        let run = try #require(throws: TourCommand.UsageError.self) { try TourCommand.parse(["run", "1", "--bogus"]) }
        #expect(run.description == "unknown option '--bogus' for run (\(CommandArguments.accepted(by: .run)))")
        #expect(CommandArguments.accepted(by: .watch).hasPrefix("this command takes: --plain, --set name=value, --speed N, --seed N, --notes"))
        for refused in ["--trace FILE.json", "--svg FILE.svg", "--predict KEY", "--cast FILE.cast"] {
            #expect(!watch.description.contains(refused), "\(refused)")
            #expect(run.description.contains(refused), "\(refused)")
        }
    }

    @Test("--stuck-after says the bound it checks: above 0, at most 600", arguments: ["0", "-1", "601", "soon"])
    func stuckAfterOutOfRange(value: String) throws {
        #expect(throws: TourCommand.UsageError(description: "--stuck-after needs a number of seconds above 0 and at most 600, for example --stuck-after 5")) {
            try TourCommand.parse(["run", "1", "--stuck-after", value])
        }
    }

    @Test func resetTakesOnePageOrAll() throws {
        #expect(try TourCommand.parse(["reset", "2"]) == .reset(page: "2"))
        #expect(try TourCommand.parse(["reset", "--all"]) == .reset(page: nil))
        for arguments in [["reset"], ["reset", "1", "2"], ["reset", "--everything"]] {
            #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(arguments) }
        }
    }

    @Test func usageNamesTheNewCommands() {
        #expect(UsageTests.help.contains("tour watch <page>"))
        #expect(UsageTests.help.contains("tour reset <page> | --all"))
    }

    /// Messages name commands as `tour …`; a newcomer who has only `swift run tour` learns from the help how to call them.
    @Test func usageSaysEveryCommandAlsoRunsThroughSwiftRunAndWhereToMakeTourACommand() {
        #expect(UsageTests.help.contains("also runs as swift run tour ... from the"))
        #expect(UsageTests.help.contains("README.md (\"Run it\") shows how to make tour a command of your shell"))
    }

    @Test func resetMessagesAndStatuses() throws {
        let root = URL(fileURLWithPath: "/tmp").appendingPathComponent("reset-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["01-Operation", "02-Queue"] {
            let path = root.appendingPathComponent("Lessons/\(folder)")
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            try Data("print(1)\n".utf8).write(to: path.appendingPathComponent("main.swift"))
        }
        let catalog = try PageCatalog.load(root: root)
        let unknown = ResetCommand.execute("nine", catalog: catalog)
        #expect(unknown.status == .usage)
        #expect(unknown.lines == ["there is no page 'nine'; the pages are 1 operation, 2 queue"])

        try OriginalPages(packageRoot: root).keepOriginal(of: catalog.pages[0])
        try Data("print(2)\n".utf8).write(to: catalog.pages[0].source)
        let all = ResetCommand.execute(nil, catalog: catalog)
        #expect(all.status == .endedAsExpected)
        #expect(all.lines == [
            "Page 1 (operation): restored main.swift; it is back to its original text. Your version is kept: tour reset --undo operation puts it back.",
            "Page 2 (queue): has no original to put back: it is not in git's HEAD (or this folder is not a git checkout), and was never edited through tour.",
        ])
        #expect(FileManager.default.contents(atPath: catalog.pages[0].source.path) == Data("print(1)\n".utf8))
        #expect(ResetCommand.execute("operation", catalog: catalog).lines == ["Page 1 (operation): already has its original text."])
    }
}
