import Foundation
import Testing
@testable import TourCore
import PageProtocol

/// `tour watch` and `tour reset` on the command line: parsing, and reset against a temporary package root.
@Suite("Watch and reset commands")
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

    @Test func resetTakesOnePageOrAll() throws {
        #expect(try TourCommand.parse(["reset", "2"]) == .reset(page: "2"))
        #expect(try TourCommand.parse(["reset", "--all"]) == .reset(page: nil))
        for arguments in [["reset"], ["reset", "1", "2"], ["reset", "--everything"]] {
            #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(arguments) }
        }
    }

    @Test func usageNamesTheNewCommands() {
        #expect(TourCommand.usage.contains("tour watch <page>"))
        #expect(TourCommand.usage.contains("tour reset <page> | --all"))
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
            "Page 2 (queue): never edited through tour, so there is nothing to reset.",
        ])
        #expect(FileManager.default.contents(atPath: catalog.pages[0].source.path) == Data("print(1)\n".utf8))
        #expect(ResetCommand.execute("operation", catalog: catalog).lines == ["Page 1 (operation): already has its original text."])
    }
}
