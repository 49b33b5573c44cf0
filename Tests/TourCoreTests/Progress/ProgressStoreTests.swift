import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// The progress file: a round trip, files that cannot be trusted set aside, concurrent writers, the page resumed.
@Suite("Progress store", .bodiesBelowTheRunner)
struct ProgressStoreTests {
    @Test func theFileLivesUnderXDGStateHomeElseUnderHome() throws {
        let xdg = try #require(ProgressStore(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/ana"]))
        #expect(xdg.file.path == "/state/tour/progress.json")
        let home = try #require(ProgressStore(environment: ["HOME": "/home/ana"]))
        #expect(home.file.path == "/home/ana/.local/state/tour/progress.json")
        let relative = try #require(ProgressStore(environment: ["XDG_STATE_HOME": "state", "HOME": "/home/ana"]))
        #expect(relative.file.path == "/home/ana/.local/state/tour/progress.json", "a relative XDG_STATE_HOME is ignored")
        #expect(ProgressStore(environment: [:]) == nil)
    }

    @Test func aRecordSurvivesARoundTripThroughTheFile() async throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ProgressFolders.store(in: folder)
        try store.record(.opened(page: "queue"))
        try store.record(.ran(page: "queue"))
        try store.record(.ran(page: "queue"))
        try store.record(.predicted(page: "queue", prediction: "lanes", right: true))
        try store.record(.predicted(page: "queue", prediction: "order", right: false))
        try store.record(.passed(page: "queue", exercise: "preview-first"))

        let text = try String(contentsOf: store.file, encoding: .utf8)
        #expect(text.contains("\"version\" : 1"))
        #expect(text.contains("\"format\" : \"concurrency-tour-progress\""))
        let reading = try ProgressFolders.store(in: folder).read()
        #expect(reading.setAside == nil)
        let queue = try #require(reading.record.pages["queue"])
        #expect(queue.opens == 1 && queue.runs == 2)
        #expect(queue.firstOpened == ProgressFolders.morning && queue.lastRun == ProgressFolders.morning)
        #expect(queue.predictions == ["lanes": PredictionAnswer(right: true, answeredAt: ProgressFolders.morning),
                                      "order": PredictionAnswer(right: false, answeredAt: ProgressFolders.morning)])
        #expect(queue.predictionsRight == 1)
        #expect(queue.exercises == ["preview-first": ExercisePass(passedAt: ProgressFolders.morning)])
        #expect(reading.record.lastPage == "queue")
        #expect(try ProgressFolders.setAsideCopies(in: store).isEmpty, "no temporary file is left beside it")
    }

    @Test func aFirstPassIsKeptWhenTheExerciseIsPassedAgain() throws {
        var record = ProgressRecord()
        record.apply(.passed(page: "gcd", exercise: "deadlock"), at: ProgressFolders.morning)
        record.apply(.passed(page: "gcd", exercise: "deadlock"), at: ProgressFolders.morning.addingTimeInterval(60))
        #expect(record.pages["gcd"]?.exercises["deadlock"]?.passedAt == ProgressFolders.morning)
    }

    @Test("A level won is kept by its name, its first win counted; it belongs to no page and moves no one's place")
    func aLevelWonIsKeptByItsNameWithItsFirstWin() throws {
        var record = ProgressRecord()
        record.apply(.opened(page: "barrier"), at: ProgressFolders.morning)
        record.apply(.wonLevel(level: "lock-order", steps: 2), at: ProgressFolders.morning)
        record.apply(.wonLevel(level: "lock-order", steps: 12), at: ProgressFolders.morning.addingTimeInterval(60))
        #expect(record.levels == ["lock-order": LevelWin(wonAt: ProgressFolders.morning, steps: 2)])
        #expect(record.lastPage == "barrier" && record.pages.count == 1)
        let report = ProgressReport(style: PlainStyle(colour: false, unicode: true))
        let table = report.table(record, pages: [], exercises: [], file: URL(fileURLWithPath: "/tmp/progress.json"))
        #expect(table.last == "Levels won: lock-order.")
        let summary = report.summary([("ana.json", ParticipantProgress(participant: "ana", tourVersion: "test", writtenAt: ProgressFolders.morning,
                                                                       progress: record))],
                                     pages: [], exercises: [], skipped: [])
        #expect(summary.contains { $0.contains("ana") && $0.contains("1 level won") }, "\(summary)")
    }

    @Test("A corrupt, foreign or newer file is set aside with a timestamp and a message, and progress starts afresh",
          arguments: [
              ("{\"version\": 1, \"format\": \"concurrency-tour-progress\", \"pages\": {\"queue\": {\"runs\": ", "corrupt", "is not valid JSON"),
              ("{\"theme\": \"dark\"}", "foreign", "not a ConcurrencyTour progress file"),
              ("{\"version\": 2, \"format\": \"concurrency-tour-progress\"}", "newer", "has version 2, newer than the 1"),
              ("{\"version\": 1, \"format\": \"concurrency-tour-progress\", \"pages\": {\"queue\": {\"runs\": \"three\"}}}", "corrupt", "pages.queue.runs is not a Int"),
          ])
    func untrustedFileIsSetAside(contents: String, reason: String, what: String) async throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ProgressFolders.store(in: folder)
        try FileManager.default.createDirectory(at: store.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: store.file)

        let reading = try store.record(.opened(page: "gcd"))
        let copyName = "progress.json.\(reason)-20261201T134500Z"
        #expect(try ProgressFolders.setAsideCopies(in: store) == [copyName])
        let copy = store.file.deletingLastPathComponent().appendingPathComponent(copyName)
        #expect(try String(contentsOf: copy, encoding: .utf8) == contents, "the file set aside is kept byte for byte")
        let message = try #require(reading.setAside).message
        #expect(reading.setAside?.briefMessage.contains(copyName) == true, "the status line names the copy")
        #expect(message.contains(store.file.path) && message.contains(what) && message.contains(copy.path), "\(message)")
        let fresh = try store.read()
        #expect(fresh.setAside == nil)
        #expect(fresh.record.pages.keys.sorted() == ["gcd"], "the new file holds only what came after")
    }

    @Test func aSecondSetAsideInTheSameSecondGetsANameOfItsOwn() throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ProgressFolders.store(in: folder)
        try store.record(.opened(page: "gcd"))
        #expect(try store.setAside(reason: "reset")?.lastPathComponent == "progress.json.reset-20261201T134500Z")
        try store.record(.opened(page: "gcd"))
        #expect(try store.setAside(reason: "reset")?.lastPathComponent == "progress.json.reset-20261201T134500Z-2")
        #expect(try store.setAside(reason: "reset") == nil, "nothing is left to set aside")
    }

    @Test("Two writers at once, 200 updates each: every update survives")
    func concurrentWritersLoseNothing() async throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try ProgressFolders.store(in: folder).file
        let updates = 200
        // Each writer has its own store and its own thread, as two tutorials would; flock locks per open file, so
        // two threads of one process exclude each other just as two processes do.
        let failures = await withTaskGroup(of: [String].self) { group in
            for page in ["queue", "gcd"] {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread {
                            let store = ProgressStore(file: file)
                            var failures: [String] = []
                            for _ in 0..<updates {
                                do { try store.record(.ran(page: page)) } catch { failures.append("\(error)") }
                            }
                            continuation.resume(returning: failures)
                        }.start()
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.count == 0, "first failure: \(failures.first ?? "")")
        let reading = try ProgressStore(file: file).read()
        #expect(reading.setAside == nil, "the file was never seen half written")
        #expect(reading.record.pages["queue"]?.runs == updates)
        #expect(reading.record.pages["gcd"]?.runs == updates)
    }

    @Test func theTutorialResumesOnThePageLeftAfterARestart() throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try PageCatalog.load()
        #expect(try ProgressFolders.store(in: folder).read().record.resumeIndex(in: catalog.pages) == nil, "nothing to resume at first")
        let first = try ProgressFolders.store(in: folder)
        try first.record(.opened(page: "operation"))
        try first.record(.opened(page: "async"))
        try first.record(.passed(page: "operation", exercise: "cancel"))
        // A new store, as a new `tour` process makes.
        let record = try ProgressFolders.store(in: folder).read().record
        let index = try #require(record.resumeIndex(in: catalog.pages))
        #expect(catalog.pages[index].slug == "async", "passing an exercise on another page does not move the place left")
        var gone = record
        gone.lastPage = "a-page-since-removed"
        #expect(gone.resumeIndex(in: catalog.pages) == nil)
    }

    @Test("A check keeps its verdict and first failure for the next launch; a passing one keeps no failure")
    func aCheckKeepsItsVerdict() throws {
        let folder = try ProgressFolders.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try ProgressFolders.store(in: folder).record(.checked(page: "gcd", exercise: "deadlock", passed: false,
                                                   firstFailure: "the program deadlocked"))
        var attempts = try #require(try ProgressFolders.store(in: folder).read().record.pages["gcd"]?.attempts["deadlock"])
        #expect(attempts.lastChecked == ProgressFolders.morning)
        #expect(attempts.lastVerdict == CheckVerdictRecord(passed: false, firstFailure: "the program deadlocked"))
        let later = ProgressFolders.morning.addingTimeInterval(60)
        try ProgressFolders.store(in: folder, at: later).record(.checked(page: "gcd", exercise: "deadlock", passed: true, firstFailure: "ignored"))
        attempts = try #require(try ProgressFolders.store(in: folder).read().record.pages["gcd"]?.attempts["deadlock"])
        #expect(attempts.lastChecked == later)
        #expect(attempts.lastVerdict == CheckVerdictRecord(passed: true, firstFailure: nil))
    }

    @Test("A file from before checks kept their verdict reads, with the time of the last check and no verdict")
    func aFileWithoutVerdictsStillReads() throws {
        let data = Data("""
            {"version": 1, "format": "concurrency-tour-progress", "pages": {"gcd": {"attempts": {"deadlock":
                {"checks": 2, "failedChecks": 2, "lastChecked": "2026-12-01T13:45:00Z"}}}}}
            """.utf8)
        let record = try #require(Self.record(in: data), "the file did not read: \(ProgressDocument.classify(data))")
        let attempts = try #require(record.pages["gcd"]?.attempts["deadlock"])
        #expect(attempts.checks == 2 && attempts.lastChecked == ProgressFolders.morning)
        #expect(attempts.lastVerdict == nil)
    }

    @Test("The example in docs/progress-format.md is a record this code reads, with every field it shows")
    func theDocumentedExampleReads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/progress-format.md"), encoding: .utf8)
        let start = try #require(document.range(of: "```json\n"))
        let end = try #require(document.range(of: "\n```", range: start.upperBound..<document.endIndex))
        let example = Data(document[start.upperBound..<end.lowerBound].utf8)
        let record = try #require(Self.record(in: example), "the example did not read: \(ProgressDocument.classify(example))")
        let async = try #require(record.pages["async"])
        #expect(record.lastPage == "async" && async.opens == 2 && async.runs == 3)
        #expect(async.predictions["order"]?.right == false)
        #expect(async.exercises["finish"] != nil)
        let attempts = try #require(async.attempts["finish"])
        #expect(attempts.checks == 3 && attempts.failedChecks == 2 && attempts.hintsShown == 2 && attempts.solutionOpened != nil)
        #expect(attempts.lastVerdict == CheckVerdictRecord(passed: false, firstFailure: "the program got stuck: no progress for 2.0 s"))
        #expect(record.levels["lock-order"]?.steps == 2)
    }

    /// The record `data` holds, if it is one.
    static func record(in data: Data) -> ProgressRecord? {
        if case .record(let record) = ProgressDocument.classify(data) { record } else { nil }
    }

    @Test func aFileWrittenBeforeAFieldExistedStillReads() throws {
        let data = Data("{\"version\": 1, \"format\": \"concurrency-tour-progress\", \"pages\": {\"queue\": {\"runs\": 3}}}".utf8)
        var expected = ProgressRecord()
        var queue = PageProgress()
        queue.runs = 3
        expected.pages["queue"] = queue
        #expect(ProgressDocument.classify(data) == .record(expected))
    }
}
