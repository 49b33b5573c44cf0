@preconcurrency import Glibc
import Foundation
import Synchronization
import Testing
import TourCommandLine
import TourCore
import TourTestSupport

/// Plain mode on stage: a page's speaker notes only when asked for, and a plain run recorded as an asciicast, replayed.
@Suite("On stage: plain runs and recordings", .bodiesBelowTheRunner)
struct PlainRunOnStageTests {
    @Test func plainModeLeavesSpeakerNotesOutUnlessAskedFor() async throws {
        let catalog = try PageCatalog.load()
        let page = try #require(catalog.page(named: "groups"))
        let source = page.readSourceTexts().main
        let notes = LiterateParser.parse(source).speakerNotes
        try #require(!notes.isEmpty, "page 7 has speaker notes")
        let report = PlainReport(style: .detect(forceBare: true))
        let lines = report.speakerNoteLines(source)
        #expect(lines.first == "Speaker notes")
        #expect(lines.dropFirst().first == "  main.swift:\(notes[0].line)  \(notes[0].text)")
        // The report of a run without --notes has none of them.
        let summary = report.summary(of: RunRecord(), source: source).joined(separator: "\n")
        #expect(!summary.contains(notes[0].text))
    }

    @Test func aPlainRunRecordsWhatItPrintedAndTheReplayShowsItsLastScreen() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tour-cast-\(UUID().uuidString).cast").path
        defer { unlink(path) }
        let catalog = try PageCatalog.load()
        let page = try #require(catalog.page(named: "groups"))
        var options = TourCommand.RunOptions(page: "groups")
        options.plain = true
        options.speed = 10
        options.castFile = path
        let printed = Mutex<[String]>([])
        let request = options
        let status = await awaitBlocking {
            PlainRun.execute(request, page: page, catalog: catalog, style: .detect(forceBare: true), castSize: (200, 30)) { line in
                printed.withLock { $0.append(line) }
            }.rawValue
        }
        #expect(status == ExitStatus.endedAsExpected.rawValue)
        let (header, events) = try Asciicast.read(path)
        #expect(header["width"] as? Int == 200)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(try #require(events.last).time > 0)
        var terminal = TerminalEmulator(width: 200, height: 30)
        for event in events { terminal.feed(event.text) }
        #expect(terminal.unknownSequences.isEmpty)
        // Every line printed but the closing "Recording written" is in the recording; the last screen is its last 29.
        let lines = printed.withLock { $0 }
        #expect(lines.last?.hasPrefix("Recording written to \(path)") == true)
        let recorded = lines.dropLast()
        #expect(events.count == recorded.count)
        let expected = Array(recorded.suffix(29)).map { $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression) } + [""]
        #expect(terminal.text == expected)
    }
}
