import ExerciseJudging
import Foundation
import PageProtocol
import Synchronization
import Testing
import TourCommandLine
import TourCore
import TourTestSupport

/// A package folder with page 3 and its exercise and solution, in a scratch folder (`ScratchSpace`), and a progress store beside
/// it: commands and resets change only these.
final class ExerciseFolder: Sendable {
    let folder: URL
    let root: URL
    let catalog: PageCatalog
    let store: ProgressStore
    var page: Page { catalog.pages[0] }
    var exercise: URL { root.appendingPathComponent(PageExercises.async.challenge.file) }
    var solution: URL { root.appendingPathComponent(PageExercises.async.challenge.solutionFile) }
    static let shippedExercise = "//: # Exercise: Finish the asynchronous operation\nprint(\"untouched\")\n"

    init() throws {
        folder = ScratchSpace.folder.appendingPathComponent("tour-exercise-\(UUID().uuidString)")
        root = folder.appendingPathComponent("package")
        let manager = FileManager.default
        for (path, text) in [("Lessons/03-Async/main.swift", "//: # Async\nprint(3)\n"),
                             ("Exercises/03-Async/main.swift", Self.shippedExercise),
                             ("Solutions/03-Async/main.swift", "//: # Solution\nprint(\"solved\")\n")] {
            let file = root.appendingPathComponent(path)
            try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        catalog = try PageCatalog.load(root: root)
        store = ProgressStore(file: folder.appendingPathComponent("state/tour/progress.json"))
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func text(_ url: URL) -> String? {
        FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
    }
}

@Suite("Exercise commands", .bodiesBelowTheRunner)
struct ExerciseCommandTests {
    @Test func theCommandLineParsesTheExerciseCommandsAndRefusesBadInput() throws {
        #expect(try TourCommand.parse(["check", "3"]) == .check(page: "3", plain: false))
        #expect(try TourCommand.parse(["check", "3", "--trace", "check.json", "--svg", "check.svg"])
            == .check(page: "3", plain: false, exports: RunExports(traceFile: "check.json", svgFile: "check.svg")))
        let noFile = #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["check", "3", "--svg"]) }
        #expect(noFile?.description == "--svg needs a file name, for example --svg timeline.svg")
        let hintTrace = #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["hint", "3", "--trace", "hint.json"]) }
        #expect(hintTrace?.description == "unknown option '--trace' for hint (this command takes: --plain; see tour hint --help)")
        #expect(try TourCommand.parse(["hint", "async", "--plain"]) == .hint(page: "async", plain: true))
        #expect(try TourCommand.parse(["solution", "Async"]) == .solution(page: "Async", plain: false))
        #expect(try TourCommand.parse(["predict", "3"]) == .predict(page: "3", plain: false))
        let parsed = try TourCommand.parse(["run", "3", "--plain", "--predict", "a"])
        let options = try #require({ if case .run(let options) = parsed { options } else { nil } }(), "\(parsed)")
        #expect(options.predict == "a" && options.plain)
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["check"]) }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["check", "3", "4"]) }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["hint", "3", "--all"]) }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["run", "3", "--predict"]) }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["watch", "3", "--predict", "a"]) }
    }

    @Test func aBadPageOrAnUnknownAnswerIsRefusedByName() throws {
        let folder = try ExerciseFolder()
        let unknown = ExerciseCommand.hint("nine", catalog: folder.catalog, store: folder.store)
        #expect(unknown.status == .usage)
        #expect(unknown.messages == ["there is no page 'nine'; the pages are \(folder.catalog.choices)"])
        let page = try #require(folder.catalog.page(named: "async"))
        #expect {
            try ExerciseCommand.validatePrediction("z", page: page)
        } throws: { error in
            "\(error)" == "'z' is not an answer to the prediction 'too-early-finish'; the answers are a, b (see tour predict <page>)"
        }
        var options = TourCommand.RunOptions(page: "3")
        options.predict = "z"
        #expect(throws: TourCommand.UsageError.self) { try PlainRun.validate(options, catalog: folder.catalog) }
    }

    @Test func predictPrintsTheQuestionAndHowToAnswer() throws {
        let folder = try ExerciseFolder()
        let outcome = ExerciseCommand.predict("3", catalog: folder.catalog, store: folder.store)
        #expect(outcome.status == .endedAsExpected)
        #expect(outcome.lines.first == "Page 3 (async), before you run it:")
        #expect(outcome.lines.contains("  (a) the queue calls the operation finished, while the photo is still on its way"))
        #expect(outcome.lines.last == "Answer by running the page with it: tour run async --plain --predict a")
    }

    @Test func hintsComeInOrderRememberedAndTwoOpenTheSolutionWhichNeverTouchesTheLearnersFile() throws {
        let folder = try ExerciseFolder()
        let locked = ExerciseCommand.solution("3", catalog: folder.catalog, store: folder.store)
        #expect(locked.status == .endedOtherwise)
        #expect(locked.lines.first?.contains("opens once tour check async passes, or after 2 hints (you have seen 0; tour hint async 2 more times)") == true,
                "\(locked.lines)")

        let first = ExerciseCommand.hint("3", catalog: folder.catalog, store: folder.store)
        #expect(first.lines.prefix(2) == ["Finish the asynchronous operation: hint 1 of 3", PageExercises.async.challenge.hints[0]])
        #expect(first.lines.last == "Again for the next one: tour hint async")
        #expect(ExerciseCommand.solution("async", catalog: folder.catalog, store: folder.store).status == .endedOtherwise, "one hint is not enough")
        let second = ExerciseCommand.hint("async", catalog: folder.catalog, store: folder.store)
        #expect(second.lines.first == "Finish the asynchronous operation: hint 2 of 3")
        #expect(second.lines.last == "The reference solution is open: tour solution async")

        let learners = "// the learner's own attempt\n"
        try Data(learners.utf8).write(to: folder.exercise)
        let open = ExerciseCommand.solution("3", catalog: folder.catalog, store: folder.store)
        #expect(open.status == .endedAsExpected)
        #expect(open.lines.contains("print(\"solved\")"))
        #expect(folder.text(folder.exercise) == learners, "the solution is printed, never written over the learner's file")

        _ = ExerciseCommand.hint("3", catalog: folder.catalog, store: folder.store)
        let last = ExerciseCommand.hint("3", catalog: folder.catalog, store: folder.store)
        #expect(last.lines.first == "Finish the asynchronous operation: hint 3 of 3", "after the last hint, the last again")
        let attempts = try folder.store.read().record.attempts(on: .async)
        #expect(attempts.hintsShown == 3)
        #expect(attempts.solutionOpened != nil)
    }

    @Test func aCheckReportMarksEachFindingAndSaysTheNextStep() throws {
        let folder = try ExerciseFolder()
        let failing = CheckVerdict(findings: [CheckFinding(holds: true, "it went executing"), CheckFinding(holds: false, "it never finished")])
        var record = ProgressRecord()
        let lines = ExerciseCommand.report(failing, exercises: .async, page: folder.page, record: record, style: .bare)
        #expect(lines == ["  ok it went executing", "  XX it never finished", "Not yet: 1 thing still wrong.",
                          "Next: tour hint async (hint 1 of 3); then tour check async again."])
        record.apply(.hintShown(page: "async", exercise: "finish", number: 3), at: Date())
        #expect(ExerciseCommand.report(failing, exercises: .async, page: folder.page, record: record, style: .bare).last
                == "Next: tour solution async shows the reference solution; then tour check async again.")
        let passing = CheckVerdict(findings: [CheckFinding(holds: true, "it finished")])
        let passed = ExerciseCommand.report(passing, exercises: .async, page: folder.page, record: nil, style: PlainStyle(colour: false, unicode: true))
        #expect(passed == ["  ✔ it finished", "Passed: Finish the asynchronous operation.",
                           "The reference solution is now open: tour solution async (it never replaces your file)."])
    }

    @Test("tour check on an exercise that does not compile names each error, its place and its line, in tour's words, and exits 1")
    func aCheckOfAnExerciseThatDoesNotCompileListsEachError() async throws {
        let scratch = try await ScratchPackage.make(withTour: false)
        defer { scratch.remove() }
        let challenge = PageExercises.async.challenge
        let exercise = scratch.root.appendingPathComponent(challenge.file)
        let untouched = try String(contentsOf: exercise, encoding: .utf8)
        let broken = untouched.replacingOccurrences(of: "        // Your code here (step 1).", with: "        setState(.done)")
            .replacingOccurrences(of: "            // Your code here (step 2).", with: "            self.finnish()")
        try Data(broken.utf8).write(to: exercise)
        let sourceLines = broken.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(sourceLines.firstIndex { $0.contains("setState(.done)") }) + 1
        let second = try #require(sourceLines.firstIndex { $0.contains("self.finnish()") }) + 1
        let store = ProgressStore(file: scratch.root.appendingPathComponent(".tour-test-state/progress.json"))
        let catalog = try scratch.catalog()

        let lines = Mutex<[String]>([])
        let status = await PageRunSlots.shared.withSlot(.followUp, label: "check: exercise that does not compile") {
            await ExerciseCommand.check("3", catalog: catalog, store: store, style: .bare,
                                        productsDirectory: scratch.productsDirectory) { line in lines.withLock { $0.append(line) } }
        }
        let printed = lines.withLock { $0 }
        #expect(status == .endedOtherwise, "a program that does not compile has not passed yet: exit 1, not 2")
        let firstError = try #require(printed.firstIndex { $0.hasPrefix("Exercises/03-Async/main.swift:\(first): error: ") }, "\(printed)")
        #expect(printed[firstError].contains("'done'"), "\(printed)")
        #expect(printed[firstError + 1] == "    setState(.done)", "the line itself, indented, under its place")
        let secondError = try #require(printed.firstIndex { $0.hasPrefix("Exercises/03-Async/main.swift:\(second): error: ") }, "\(printed)")
        #expect(printed[secondError].hasSuffix("error: value of type 'ImageLoad' has no member 'finnish'"), "\(printed)")
        #expect(printed[secondError + 1] == "    self.finnish()")
        #expect(printed.contains("Not yet: Exercises/03-Async/main.swift does not compile; the lines above say where."), "\(printed)")
        // None of SwiftPM's own lines: no progress, no summary of the failed command, no absolute path.
        #expect(!printed.contains { $0.hasPrefix("[") || $0.contains("command failed") || $0.contains(scratch.root.path) }, "\(printed)")
        #expect(try store.read().record.attempts(on: .async).failedChecks == 1, "the failed check is recorded")
    }

    @Test func aThreadSanitizerCheckSaysSoWhileItBuildsAndThatTheFirstTakesAboutAMinute() throws {
        let barrier = try #require(ExerciseCatalog.exercises(forPage: "barrier")).challenge
        #expect(barrier.threadSanitizer)
        #expect(ExerciseCommand.progressLine(.building(product: barrier.product, sanitized: barrier.threadSanitizer))
                == "Building with Thread Sanitizer: the first such build takes about a minute...")
        #expect(ExerciseCommand.progressLine(.building(product: "Exercise03Async", sanitized: false)) == "Building...")
        #expect(ExerciseCommand.progressLine(.running(product: barrier.product)) == "Running...")
    }

    @Test("tour check --trace to a folder that does not exist is refused before anything is built or recorded")
    func aCheckRefusesABadExportTargetFirst() async throws {
        let folder = try ExerciseFolder()
        let missing = folder.folder.appendingPathComponent("missing/check.json").path
        let lines = Mutex<[String]>([])
        let status = await ExerciseCommand.check("async", catalog: folder.catalog, store: folder.store, style: .bare,
                                                 exports: RunExports(traceFile: missing)) { line in lines.withLock { $0.append(line) } }
        #expect(status == .usage)
        let said = lines.withLock { $0 }
        #expect(said.count == 1 && said[0].hasPrefix("tour: --trace \(missing) is in a folder that does not exist"), "\(said)")
        #expect(try folder.store.read().record.pages.isEmpty, "no check ran, so none is recorded")
    }

    @Test func aPageWithoutAnExerciseIsAUsageMistake() async throws {
        let folder = try ExerciseFolder()
        // A page of this folder alone, so no page of the catalog will ever have its exercise.
        try FileManager.default.createDirectory(at: folder.root.appendingPathComponent("Lessons/09-Extra"), withIntermediateDirectories: true)
        try Data("//: # Extra\n".utf8).write(to: folder.root.appendingPathComponent("Lessons/09-Extra/main.swift"))
        let catalog = try PageCatalog.load(root: folder.root)
        let lines = Mutex<[String]>([])
        let status = await ExerciseCommand.check("extra", catalog: catalog, store: folder.store, style: .bare) { line in lines.withLock { $0.append(line) } }
        #expect(status == .usage)
        #expect(lines.withLock { $0 } == ["tour: page 9 (extra) has no exercise yet; the pages with exercises are 3 (async)"])
    }
}

@Suite("Exercise progress and reset", .bodiesBelowTheRunner)
struct ExerciseProgressTests {
    @Test func checksHintsAndTheSolutionAreRecordedAndAFileWithoutThemStillReads() throws {
        var record = ProgressRecord()
        let morning = Date(timeIntervalSince1970: 1_796_000_000)
        record.apply(.checked(page: "async", exercise: "finish", passed: false), at: morning)
        record.apply(.checked(page: "async", exercise: "finish", passed: false), at: morning)
        #expect(!record.hasPassed(.async) && !record.solutionIsOpen(for: .async))
        record.apply(.checked(page: "async", exercise: "finish", passed: true), at: morning.addingTimeInterval(60))
        #expect(record.hasPassed(.async) && record.solutionIsOpen(for: .async), "a pass opens the solution")
        record.apply(.checked(page: "async", exercise: "finish", passed: false), at: morning.addingTimeInterval(120))
        #expect(record.pages["async"]?.exercises["finish"]?.passedAt == morning.addingTimeInterval(60), "the first pass counts")
        let attempts = record.attempts(on: .async)
        #expect(attempts.checks == 4 && attempts.failedChecks == 3)

        let data = try JSONEncoder().encodeProgress(record)
        #expect(ProgressDocument.classify(data) == .record(record))

        // Written before attempts existed: the same version, read as none.
        let old = Data("""
            {"format": "concurrency-tour-progress", "version": 1, "lastPage": "async",
             "pages": {"async": {"opens": 1, "exercises": {"finish": {"passedAt": "2026-12-01T13:50:00Z"}}}}}
            """.utf8)
        let kind = ProgressDocument.classify(old)
        let older = try #require({ if case .record(let record) = kind { record } else { nil } }(), "a version 1 file without attempts must still read: \(kind)")
        #expect(older.hasPassed(.async))
        #expect(older.attempts(on: .async) == ExerciseAttempts())
    }

    @Test func theTableShowsEachPagesPredictionAndExercise() throws {
        let folder = try ExerciseFolder()
        try folder.store.record(.predicted(page: "async", prediction: "too-early-finish", right: false))
        try folder.store.record(.checked(page: "async", exercise: "finish", passed: false))
        try folder.store.record(.hintShown(page: "async", exercise: "finish", number: 1))
        let outcome = ProgressCommand.execute(TourCommand.ProgressOptions(), store: folder.store, catalog: folder.catalog, environment: [:], style: .bare)
        let row = try #require(outcome.lines.first { $0.hasPrefix("3 async") })
        #expect(row.contains(" wrong ") && row.hasSuffix(" not passed (1 failed check, 1 hint)"), "\(row)")
        try folder.store.record(.checked(page: "async", exercise: "finish", passed: true))
        let passed = ProgressCommand.execute(TourCommand.ProgressOptions(), store: folder.store, catalog: folder.catalog, environment: [:], style: .bare)
        let passedRow = try #require(passed.lines.first { $0.hasPrefix("3 async") })
        #expect(passedRow.contains(" wrong ") && passedRow.hasSuffix(" passed"), "\(passedRow)")
    }

    @Test func theSummaryCountsAnExerciseNobodyPassedAmongThoseWhoReachedIt() throws {
        let folder = try ExerciseFolder()
        var record = ProgressRecord()
        record.apply(.opened(page: "async"), at: Date())
        let ana = ParticipantProgress(participant: "ana", tourVersion: "0", writtenAt: Date(), progress: record)
        let lines = ProgressReport(style: .bare).summary([("ana.json", ana)], pages: folder.catalog.pages, exercises: ExerciseCatalog.ids,
                                                         skipped: [])
        #expect(lines.contains { $0.hasPrefix("  async/finish") && $0.contains("1 of 1 who reached it") }, "\(lines)")
    }

    @Test("reset --exercise puts the exercise back, and only it; --undo --exercise brings the learner's version back")
    func resetPutsTheExerciseBackKeepingTheLearnersVersionForUndo() throws {
        let folder = try ExerciseFolder()
        // A hint keeps the original before the learner's first edit, as a check, tour watch or the editor do.
        _ = ExerciseCommand.hint("3", catalog: folder.catalog, store: folder.store)
        let learners = "// the learner's attempt, which must never be lost\n"
        try Data(learners.utf8).write(to: folder.exercise)
        let page = folder.root.appendingPathComponent("Lessons/03-Async/main.swift")
        try OriginalPages(packageRoot: folder.root).keepOriginal(of: folder.page)
        try Data("// the page, edited too\n".utf8).write(to: page)

        let reset = ResetCommand.execute("async", exercise: true, catalog: folder.catalog)
        #expect(reset.status == .endedAsExpected)
        #expect(reset.lines == ["Page 3 (async) exercise (Exercises/03-Async/main.swift): restored main.swift; it is back to its "
                                + "original text. Your version is kept: tour reset --undo async --exercise puts it back."])
        #expect(folder.text(folder.exercise) == ExerciseFolder.shippedExercise)
        #expect(folder.text(page) == "// the page, edited too\n", "the page is reset apart")
        let kept = folder.root.appendingPathComponent(".tour/before-reset/Exercises/03-Async/1/main.swift")
        #expect(folder.text(kept) == learners)

        // The page's own reset leaves the exercise alone.
        try Data(learners.utf8).write(to: folder.exercise)
        let pageReset = ResetCommand.execute("3", catalog: folder.catalog)
        #expect(pageReset.lines == ["Page 3 (async): restored main.swift; it is back to its original text. "
                                    + "Your version is kept: tour reset --undo async puts it back."])
        #expect(folder.text(page) == "//: # Async\nprint(3)\n")
        #expect(folder.text(folder.exercise) == learners)
        _ = ResetCommand.execute("3", exercise: true, catalog: folder.catalog)

        let undo = ResetCommand.undo("3", exercise: true, catalog: folder.catalog)
        #expect(undo.status == .endedAsExpected)
        #expect(undo.lines.first?.hasPrefix("Page 3 (async) exercise (Exercises/03-Async/main.swift): restored main.swift; it is back to the version its last reset replaced") == true,
                "\(undo.lines)")
        #expect(folder.text(folder.exercise) == learners)
        #expect(folder.text(page) == "//: # Async\nprint(3)\n", "undoing the exercise's reset leaves the page as it is")
    }

    @Test("reset --exercise of a page with no exercise, or of no page, says what would be right, as a usage mistake")
    func resetOfAnExerciseThatIsNotThereIsAUsageMistake() throws {
        let folder = try ExerciseFolder()
        try FileManager.default.createDirectory(at: folder.root.appendingPathComponent("Lessons/09-Extra"), withIntermediateDirectories: true)
        try Data("//: # Extra\n".utf8).write(to: folder.root.appendingPathComponent("Lessons/09-Extra/main.swift"))
        let catalog = try PageCatalog.load(root: folder.root)
        let none = ResetCommand.execute("extra", exercise: true, catalog: catalog)
        #expect(none.status == .usage)
        #expect(none.lines == ["page 9 (extra) has no exercise yet; the pages with exercises are 3 (async); "
                               + "tour reset extra, without --exercise, resets the page itself"])
        #expect(ResetCommand.undo("9", exercise: true, catalog: catalog) == none)
        let unknown = ResetCommand.execute("nine", exercise: true, catalog: catalog)
        #expect(unknown.status == .usage)
        #expect(unknown.lines == ["there is no page 'nine'; the pages are \(catalog.choices)"])
        // --all --exercise resets each page's exercise that has one, and says nothing of the others.
        let all = ResetCommand.execute(nil, exercise: true, catalog: catalog)
        #expect(all.status == .endedAsExpected)
        #expect(all.lines.count == 1 && all.lines[0].hasPrefix("Page 3 (async) exercise (Exercises/03-Async/main.swift): "), "\(all.lines)")
    }

    @Test("An exercise edited in any editor, never checked, is reset to git's HEAD", .enabled(if: GitCheckout.isAvailable, "git is not installed"))
    func anExerciseEditedOutsideTourIsResetToGitsHead() async throws {
        let folder = try ExerciseFolder()
        try await GitCheckout.commit(["Lessons", "Exercises", "Solutions"], in: folder.root)
        let learners = "// typed in another editor, with tour closed\n"
        try Data(learners.utf8).write(to: folder.exercise)

        let reset = ResetCommand.execute("3", exercise: true, catalog: folder.catalog)
        #expect(reset.status == .endedAsExpected)
        #expect(reset.lines == ["Page 3 (async) exercise (Exercises/03-Async/main.swift): restored main.swift; it is back to its "
                                + "original text. Your version is kept: tour reset --undo async --exercise puts it back."])
        #expect(folder.text(folder.exercise) == ExerciseFolder.shippedExercise)
        #expect(ResetCommand.undo("3", exercise: true, catalog: folder.catalog).status == .endedAsExpected)
        #expect(folder.text(folder.exercise) == learners)
    }

    @Test func theCommandLineParsesResetOfAPageAndOfItsExercise() throws {
        #expect(try TourCommand.parse(["reset", "3"]) == .reset(page: "3", exercise: false))
        #expect(try TourCommand.parse(["reset", "3", "--exercise"]) == .reset(page: "3", exercise: true))
        #expect(try TourCommand.parse(["reset", "--exercise", "3"]) == .reset(page: "3", exercise: true))
        #expect(try TourCommand.parse(["reset", "--all", "--exercise"]) == .reset(page: nil, exercise: true))
        #expect(try TourCommand.parse(["reset", "--undo", "3", "--exercise"]) == .undoReset(page: "3", exercise: true))
        #expect(try TourCommand.parse(["reset", "3", "--undo"]) == .undoReset(page: "3", exercise: false))
        for (arguments, message) in [
            (["reset", "--exercise"], "reset needs a page, for example: tour reset operation (the page), tour reset operation --exercise (its exercise), or tour reset --all for every page"),
            (["reset", "3", "--all"], "reset takes a page or --all, not both: tour reset 3, or tour reset --all"),
            (["reset", "--undo", "--all", "--exercise"], "reset --undo undoes one page's reset at a time, so it takes a page, not --all: for example tour reset --undo operation --exercise"),
            (["reset", "--undo", "--exercise"], "reset --undo needs a page, for example: tour reset --undo operation --exercise"),
            (["reset", "3", "4", "--exercise"], "reset takes one page, but got '3' and '4'; reset each on its own, or every one with tour reset --all --exercise"),
            (["reset", "3", "--exercises"], "unknown option '--exercises' for reset (this command takes: --all, --undo, --exercise, --progress, --yes; see tour reset --help)"),
        ] {
            #expect { try TourCommand.parse(arguments) } throws: { "\($0)" == message }
        }
    }
}

extension JSONEncoder {
    /// A progress record as the store writes it.
    func encodeProgress(_ record: ProgressRecord) throws -> Data {
        dateEncodingStrategy = .iso8601
        return try encode(record)
    }
}
