@testable import ExerciseJudging
import ExerciseJudging
import Foundation
import Testing
@testable import TourCommandLine
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourCommandLine
import TourTestSupport

/// `tour progress`, `--json`, `--summary` and `reset --progress`, against temporary folders only.
@Suite("Progress commands", .bodiesBelowTheRunner)
struct ProgressCommandTests {
    static let morning = ProgressFolders.morning

    static func options(_ arguments: [String]) throws -> TourCommand.ProgressOptions {
        guard case .progress(let options) = try TourCommand.parse(["progress"] + arguments) else {
            throw TourCommand.UsageError(description: "tour progress \(arguments) did not parse as progress")
        }
        return options
    }

    /// A participant who opened `page`, ran it, and passed `passed` (as `page`, `exercise`), their document written at
    /// `writtenAt`; `change` does the rest.
    static func participant(_ name: String, on page: String, passed: [(String, String)], writtenAt: Date = morning,
                            _ change: (inout ProgressRecord) -> Void = { _ in }) -> ParticipantProgress {
        var record = ProgressRecord()
        for (page, exercise) in passed {
            record.apply(.opened(page: page), at: morning)
            record.apply(.passed(page: page, exercise: exercise), at: morning)
        }
        record.apply(.opened(page: page), at: morning)
        record.apply(.ran(page: page), at: morning)
        change(&record)
        return ParticipantProgress(participant: name, tourVersion: TourVersion.current, writtenAt: writtenAt, progress: record)
    }

    @Test func theCommandLineParses() throws {
        #expect(try Self.options([]) == TourCommand.ProgressOptions())
        let json = try Self.options(["--json", "--name", "ana"])
        #expect(json.json && json.name == "ana")
        #expect(try Self.options(["--summary", "a.json", "b.json"]).summaryFiles == ["a.json", "b.json"])
        #expect(try TourCommand.parse(["reset", "--progress"]) == .resetProgress(confirmed: false))
        #expect(try TourCommand.parse(["reset", "--progress", "--yes"]) == .resetProgress(confirmed: true))
        #expect(try TourCommand.parse(["reset", "queue"]) == .reset(page: "queue"), "a page's reset is unchanged")
        #expect(throws: TourCommand.UsageError.self) { try Self.options(["--summary"]) }
        #expect(throws: TourCommand.UsageError.self) { try Self.options(["--name", "ana"]) }
        #expect(throws: TourCommand.UsageError.self) { try Self.options(["--summary", "a.json", "--json"]) }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["reset", "--progress", "queue"]) }
    }

    @Test func theTutorialOpensOnANamedPageElseWhereTheProgressSays() throws {
        #expect(try TourCommand.parse([]) == .interactive(.init()))
        #expect(try TourCommand.parse(["--page", "3"]) == .interactive(.init(page: "3")))
        #expect(try TourCommand.parse(["--speed", "2", "--page", "gcd"]) == .interactive(.init(speed: 2, page: "gcd")))
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["--page"]) }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["--page", "3", "--plain"]) }
    }

    @Test func theTableShowsWhatTheRecordHoldsAndADashForNone() async throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ProgressFolders.store(in: folder)
        try store.record(.opened(page: "queue"))
        try store.record(.ran(page: "queue"))
        try store.record(.predicted(page: "queue", prediction: "suspended-queue-finishes", right: true))
        try store.record(.passed(page: "queue", exercise: "preview-first"))
        try store.record(.predicted(page: "gcd", prediction: "sync-block-thread", right: false))
        try store.record(.checked(page: "gcd", exercise: "remove-the-deadlock", passed: false))
        try store.record(.hintShown(page: "gcd", exercise: "remove-the-deadlock", number: 1))
        let outcome = ProgressCommand.execute(TourCommand.ProgressOptions(), store: store, catalog: try PageCatalog.load(),
                                              environment: [:], style: .bare)
        #expect(outcome.status == .endedAsExpected && outcome.messages.isEmpty)
        let lines = outcome.lines
        #expect(lines.contains("The tutorial resumes on page 2 (queue)."))
        let queue = try #require(lines.first { $0.hasPrefix("2 queue") })
        #expect(queue.split(separator: " ", omittingEmptySubsequences: true).suffix(3) == ["1", "right", "passed"], "\(queue)")
        let gcd = try #require(lines.first { $0.hasPrefix("6 gcd") })
        #expect(gcd.split(separator: " ", omittingEmptySubsequences: true) == ["6", "gcd", "-", "-", "wrong", "not", "passed", "(1", "failed", "check,", "1", "hint)"], "\(gcd)")
        let groups = try #require(lines.first { $0.hasPrefix("7 groups") })
        #expect(groups.split(separator: " ", omittingEmptySubsequences: true) == ["7", "groups", "-", "-", "-", "not", "passed"], "\(groups)")
        #expect(lines.allSatisfy { $0.allSatisfy(\.isASCII) })
        let unicode = ProgressReport(style: PlainStyle(colour: false, unicode: true))
            .table(ProgressRecord(), pages: try PageCatalog.load().pages, exercises: ExerciseCatalog.ids, file: store.file)
        #expect(unicode.contains { $0.hasPrefix("1 operation") && $0.contains("–") && $0.hasSuffix("not passed") })
    }

    @Test func theJSONDocumentNamesTheParticipantAndTheTourAndReadsBack() async throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ProgressFolders.store(in: folder)
        try store.record(.opened(page: "gcd"))
        let catalog = try PageCatalog.load()
        let byUser = ProgressCommand.execute(try Self.options(["--json"]), store: store, catalog: catalog,
                                             environment: ["USER": "ana"], style: .bare)
        let named = ProgressCommand.execute(try Self.options(["--json", "--name", "Bob B."]), store: store, catalog: catalog,
                                            environment: ["USER": "ana"], style: .bare)
        let document = try ParticipantProgress.parse(Data(try #require(byUser.lines.first).utf8)).get()
        #expect(document.participant == "ana")
        #expect(document.tourVersion == TourVersion.current)
        #expect(document.writtenAt == Self.morning)
        #expect(document.progress.lastPage == "gcd")
        #expect(try ParticipantProgress.parse(Data(try #require(named.lines.first).utf8)).get().participant == "Bob B.")
    }

    @Test("--summary says who needs help and why, each one's file, failed checks and hints, and what is not passed among those who reached it")
    func summaryOverFixtureDocuments() async throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let operation = ("operation", "stop-within-one-band"), queue = ("queue", "preview-first")
        let documents: [(String, ParticipantProgress)] = [
            ("ana.json", Self.participant("ana", on: "dependencies", passed: [operation, queue, ("async", "finish")])),
            ("bob.json", Self.participant("bob", on: "queue", passed: [operation]) { record in
                record.apply(.checked(page: "queue", exercise: "preview-first", passed: false, firstFailure: "the preview came last"), at: Self.morning)
                record.apply(.hintShown(page: "queue", exercise: "preview-first", number: 1), at: Self.morning)
                record.apply(.checked(page: "queue", exercise: "preview-first", passed: false, firstFailure: "the preview came last"), at: Self.morning)
            }),
            // Two made without --name: the files tell them apart. The first has done nothing on its page for 15 minutes
            // by its own clock, the second for 5.
            ("laptop-1.json", Self.participant("unknown", on: "async", passed: [operation, queue], writtenAt: Self.morning.addingTimeInterval(15 * 60))),
            ("laptop-2.json", Self.participant("unknown", on: "operation", passed: [], writtenAt: Self.morning.addingTimeInterval(5 * 60)) { record in
                record.apply(.hintShown(page: "operation", exercise: "stop-within-one-band", number: 2), at: Self.morning)
            }),
        ]
        var files: [String] = []
        for (file, document) in documents {
            let url = folder.appendingPathComponent(file)
            try Data(try document.json().utf8).write(to: url)
            files.append(url.path)
        }
        // One written by hand, as a leader might receive it: the format is the document, not this code's encoder. It
        // names a page and an exercise the catalog does not have, which are not judged.
        let handWritten = folder.appendingPathComponent("dee.json")
        try Data("""
            {"format": "concurrency-tour-participant", "version": 1, "participant": "dee\\u001b[2J", "tourVersion": "0.1.0",
             "writtenAt": "2026-12-01T13:40:00Z",
             "progress": {"format": "concurrency-tour-progress", "version": 1, "lastPage": "operation",
                          "pages": {"operation": {"opens": 1}, "made-up": {"exercises": {"x": {"passedAt": "2026-12-01T13:40:00Z"}}}}}}
            """.utf8).write(to: handWritten)
        files.append(handWritten.path)
        let foreign = folder.appendingPathComponent("package.json")
        try Data("{\"name\": \"not-a-participant\"}".utf8).write(to: foreign)
        let broken = folder.appendingPathComponent("eve.json")
        try Data("{\"format\": \"concurrency-tour-participant\", ".utf8).write(to: broken)
        let missing = folder.appendingPathComponent("fay.json")
        files += [foreign.path, broken.path, missing.path]

        let outcome = ProgressCommand.execute(try Self.options(["--summary"] + files), store: nil, catalog: try PageCatalog.load(),
                                              environment: [:], style: .bare)
        #expect(outcome.status == .endedAsExpected)
        let lines = outcome.lines
        #expect(lines.contains { $0 == "skipped \(foreign.path): it is not a participant's progress (no \"format\": \"concurrency-tour-participant\"; make one with tour progress --json)" })
        #expect(lines.contains { $0 == "skipped \(broken.path): it is not valid JSON" })
        #expect(lines.contains { $0.hasPrefix("skipped \(missing.path): it cannot be read") })
        #expect(lines.contains("5 participants; 3 files skipped"))
        #expect(!lines.contains { $0.contains("\u{1B}") || $0.contains("made-up") }, "no escape or made-up exercise: \(lines)")

        let help = Array(lines.drop { $0 != "Needs help:" }.dropFirst().prefix { !$0.isEmpty })
        let path = folder.path
        #expect(help == ["  bob: queue/preview-first, 2 failed checks, 1 hint taken; last finding: the preview came last",
                         "  unknown (\(path)/laptop-1.json): async/finish, no progress for 15 min"], "\(help)")

        func line(_ prefix: String) throws -> String { try #require(lines.first { $0.hasPrefix(prefix) }, "no line starts \(prefix)") }
        #expect(try line("  ana ").contains("page 4 (dependencies)"))
        #expect(try line("  ana ").contains("\(path)/ana.json"))
        let bob = try #require(lines.firstIndex { $0.hasPrefix("  bob ") })
        #expect(lines[bob].contains("page 2 (queue)") && lines[bob].hasSuffix("needs help"), "\(lines[bob])")
        #expect(lines[bob + 1] == "      queue/preview-first: not passed, 2 failed checks, 1 hint")
        #expect(try line("  dee").contains("page 1 (operation)"))
        let unknowns = lines.drop { $0 != "Who is on which page:" }.prefix { !$0.isEmpty }.filter { $0.hasPrefix("  unknown ") }
        try #require(unknowns.count == 2, "\(lines)")
        #expect(unknowns[0].contains("laptop-1.json") && unknowns[1].contains("laptop-2.json"), "\(unknowns)")
        #expect(unknowns[0].contains("page 3 (async)") && unknowns[0].hasSuffix("needs help"))
        #expect(unknowns[1].contains("page 1 (operation)") && !unknowns[1].hasSuffix("needs help"), "5 minutes idle is not yet 10")
        #expect(lines.contains("      operation/stop-within-one-band: not passed, 2 hints"))

        let exercises = Array(lines.drop { $0 != "Exercises not passed, counted among those who reached their page:" }.dropFirst())
        #expect(exercises.map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["operation/stop-within-one-band", "queue/preview-first", "async/finish", "dependencies/upload-after-import"],
                "most not passed first, then in page order; none nobody reached: \(exercises)")
        let first = try #require(exercises.first)
        #expect(first.hasPrefix("  operation/stop-within-one-band") && first.contains("2 of 5 who reached it"), "\(first)")
        #expect(first.hasSuffix("dee, unknown (\(path)/laptop-2.json)"), "a name's escape is made harmless: \(first)")
        let async = try #require(exercises.first { $0.hasPrefix("  async/finish ") })
        #expect(async.contains("1 of 2 who reached it"), "\(async)")
        #expect(!exercises.contains { $0.contains("gcd/") }, "nobody reached page 6: its exercise is not noise in the list")
    }

    @Test func aSummaryOfNothingReadableFails() async throws {
        let outcome = ProgressCommand.execute(try Self.options(["--summary", "/nonexistent/a.json"]), store: nil,
                                              catalog: try PageCatalog.load(), environment: [:], style: .bare)
        #expect(outcome.status == .endedOtherwise)
        #expect(outcome.lines.contains("0 participants; 1 file skipped"))
    }

    @Test("reset --progress without --yes off a terminal refuses and changes nothing")
    func resetOffATerminalRefuses() async throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ProgressFolders.store(in: folder)
        try store.record(.opened(page: "gcd"))
        let before = try Data(contentsOf: store.file)
        var asked = false
        let outcome = ProgressCommand.reset(confirmed: false, store: store, onTerminal: false) { _ in
            asked = true
            return "yes"
        }
        #expect(!asked, "nobody is asked where there is no terminal")
        #expect(outcome.status == .usage)
        #expect(outcome.messages.first?.contains("tour reset --progress --yes") == true)
        #expect(try Data(contentsOf: store.file) == before)
        #expect(try ProgressFolders.setAsideCopies(in: store).isEmpty)
    }

    @Test func resetOnATerminalNeedsYesAndKeepsTheOldFile() async throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ProgressFolders.store(in: folder)
        try store.record(.opened(page: "gcd"))
        let before = try Data(contentsOf: store.file)
        for answer in ["y", "", nil] as [String?] {
            let outcome = ProgressCommand.reset(confirmed: false, store: store, onTerminal: true) { _ in answer }
            #expect(outcome.lines == ["Nothing changed: progress is kept as it was."], "answer \(String(describing: answer))")
            #expect(try Data(contentsOf: store.file) == before)
        }
        var question = ""
        let outcome = ProgressCommand.reset(confirmed: false, store: store, onTerminal: true) { asked in
            question = asked
            return "yes"
        }
        #expect(question.contains("Type yes"))
        #expect(outcome.status == .endedAsExpected)
        #expect(!FileManager.default.fileExists(atPath: store.file.path))
        let kept = store.file.deletingLastPathComponent().appendingPathComponent("progress.json.reset-20261201T134500Z")
        #expect(try Data(contentsOf: kept) == before, "the old progress is kept, so the reset can be undone")
        #expect(outcome.lines.first?.contains(kept.path) == true)
        #expect(try store.read().record == ProgressRecord())
    }

    @Test func resetWithYesOffATerminalSetsTheFileAside() async throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ProgressFolders.store(in: folder)
        try store.record(.opened(page: "gcd"))
        let outcome = ProgressCommand.reset(confirmed: true, store: store, onTerminal: false) { _ in nil }
        #expect(outcome.status == .endedAsExpected)
        #expect(try ProgressFolders.setAsideCopies(in: store) == ["progress.json.reset-20261201T134500Z"])
    }
}
