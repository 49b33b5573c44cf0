import Foundation
import Presenting
import Testing
import TourCore
import TourTestSupport
@testable import TourInterface

/// Speaker notes stay out of the learner's page; the notes screen and the recording's frames draw what they should.
@Suite("On stage: speaker notes, the notes screen, recorded frames", .bodiesBelowTheRunner)
struct OnStageRenderingTests {
    static let page = """
        /*:
         # Queue

         Operations go to a queue.

         - speaker: Point at the two lanes that fill at once.
         - note: A note every learner sees.
         */
        let queue = 1
        """

    @Test func aSpeakerNoteIsLeftOutOfTheLearnersPage() async throws {
        let document = LiterateParser.parse(Self.page)
        let learner = PageLayout(document: document, width: 60, glyphs: .unicode).rows.map(\.text)
        #expect(!learner.joined().contains("Point at the two lanes"))
        #expect(!learner.contains { $0.contains("Speaker") })
        #expect(learner.contains { $0.contains("A note every learner sees.") })
        // No blank row is left where the note was: the paragraph is followed by the note's box, one blank row apart.
        let paragraph = try #require(learner.firstIndex(of: "Operations go to a queue."))
        #expect(learner[paragraph + 1] == "")
        #expect(learner[paragraph + 2].hasPrefix("┌─ Note "))
    }

    @Test func aPresenterWhoAsksSeesTheSpeakerNoteBoxed() async throws {
        let rows = PageLayout(document: LiterateParser.parse(Self.page), width: 60, glyphs: .unicode, showsSpeakerNotes: true).rows.map(\.text)
        #expect(rows.contains { $0.hasPrefix("┌─ Speaker ") })
        #expect(rows.contains { $0.contains("Point at the two lanes that fill at once.") })
    }

    @Test func theModelsFlagDecidesWhatThePagePaneShows() async throws {
        let root = ScratchSpace.folder.appendingPathComponent("tour-speaker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Lessons/01-Queue")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.page.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        var model = TourModel.load(try PageCatalog.load(root: root), speed: 1, size: Size(width: 100, height: 30), glyphs: .unicode,
                                   pictureDepth: .colors256, exercises: [])
        model.readEverySource()
        #expect(TourRenderer.render(model).find("Operations go to a queue.") != nil)
        #expect(TourRenderer.render(model).find("Point at the two lanes") == nil)
        model.showsSpeakerNotes = true
        #expect(TourRenderer.render(model).find("Point at the two lanes") != nil)
    }

    static let snapshot = PresenterSnapshot(
        page: 2, pageTitle: "Queue", block: 3, blockCount: 12,
        current: "## Adding operations to a queue\nEach filter becomes an operation.",
        next: "Adding is asynchronous: the loop returns before the filters end.",
        notes: ["Point at the two lanes that fill at once: two cores, two workers.",
                "Usual question: why not eight at once? The pool starts as wide as the machine."],
        elapsedSeconds: 754, upcomingKnobChanges: ["maxConcurrentOperationCount 1 → 3"])

    @Test func theNotesScreenShowsEverySectionAt80x24() async throws {
        let state = NotesScreenState(session: "4242", snapshot: Self.snapshot, secondsSinceSnapshot: 2, otherSessions: ["4250"])
        let screen = NotesView.render(state, size: Size(width: 80, height: 24), glyphs: .unicode).textRows
        #expect(screen[0].hasPrefix("Notes for presenter 4242 · page 2: Queue  block 4 of 12"))
        #expect(screen[0].hasSuffix("12:36"))
        for expected in ["SHOWING", "  ## Adding operations to a queue", "NEXT", "SAY",
                         "  • Point at the two lanes that fill at once: two cores, two workers.", "KNOBS NEXT",
                         "  → maxConcurrentOperationCount 1 → 3"] {
            #expect(screen.contains(expected), "missing \(expected) in\n\(screen.joined(separator: "\n"))")
        }
        #expect(screen[23].contains("also live: 4250"))
        #expect(screen.allSatisfy { TextWidth.of($0) <= 80 })
    }

    @Test func notesLongerThanTheRoomAreCutWithAnEllipsisAndTheKnobsStay() async throws {
        var snapshot = Self.snapshot
        snapshot.notes = (1...30).map { "Note number \($0) for the speaker." }
        let screen = NotesView.render(NotesScreenState(session: "1", snapshot: snapshot), size: Size(width: 80, height: 24), glyphs: .unicode).textRows
        #expect(screen.contains { $0.hasSuffix("…") && $0.contains("Note number") })
        #expect(screen.contains("  → maxConcurrentOperationCount 1 → 3"))
        #expect(screen[23] == "q ends the notes")
    }

    /// A scripted talk's notes count its pause down and set the clock against the plan, on the footer's right.
    @Test func aScriptedTalksNotesShowThePauseLeftAndThePlan() async throws {
        var snapshot = Self.snapshot
        snapshot.pauseSecondsLeft = 12
        snapshot.plannedSeconds = 700
        // 754 s at the snapshot, 2 s since: 756 now, 10 s of the pause left, the step ends at 766: 66 s behind 700.
        let state = NotesScreenState(session: "4242", snapshot: snapshot, secondsSinceSnapshot: 2)
        let screen = NotesView.render(state, size: Size(width: 80, height: 24), glyphs: .unicode).textRows
        #expect(screen[23].hasSuffix("pause 10 s · 01:06 behind plan"), "\(screen[23])")
        #expect(screen[23].hasPrefix("q ends the notes"))
        snapshot.pauseSecondsLeft = nil
        snapshot.plannedSeconds = 800
        let ahead = NotesView.render(NotesScreenState(session: "1", snapshot: snapshot), size: Size(width: 80, height: 24), glyphs: .unicode).textRows
        #expect(ahead[23].hasSuffix("00:46 ahead of plan"), "\(ahead[23])")
        // Without a script: nothing but the keys.
        #expect(NotesView.render(NotesScreenState(session: "1", snapshot: Self.snapshot), size: Size(width: 80, height: 24), glyphs: .unicode)
            .textRows[23] == "q ends the notes")
    }

    @Test func beforeTheFirstSnapshotTheScreenSaysItIsWaiting() async throws {
        let screen = NotesView.render(NotesScreenState(session: "7"), size: Size(width: 80, height: 24), glyphs: .ascii).textRows
        #expect(screen[0].contains("waiting for the presenter's first step"))
        #expect(screen[0].hasSuffix("--:--"))
    }

    @Test func replayingTheFramesEscapesGivesTheLastFrame() async throws {
        var escapes = FrameEscapes { $0 == nil ? nil : Int16(100 + $0!.rawValue) }
        var terminal = TerminalEmulator(width: 30, height: 6)
        var frame = CellBuffer(size: Size(width: 30, height: 6))
        frame.write("first frame", x: 2, y: 1, style: CellStyle(foreground: .accent, bold: true))
        frame.write("漢字 wide", x: 0, y: 3)
        terminal.feed(escapes.escapes(for: frame))
        frame.write("second", x: 2, y: 1)
        frame.write("corner", x: 24, y: 5, style: CellStyle(background: .codeBackground))
        let delta = escapes.escapes(for: frame)
        // Only what changed is sent the second time.
        #expect(!delta.contains("wide"))
        terminal.feed(delta)
        #expect(terminal.unknownSequences.isEmpty)
        #expect(terminal.text == frame.textRows)
        #expect(terminal.text[1] == "  secondframe")
        // A new size is drawn whole, after a clear.
        var smaller = CellBuffer(size: Size(width: 30, height: 6))
        smaller.write("after resize", x: 0, y: 0)
        let full = escapes.escapes(for: CellBuffer(size: Size(width: 30, height: 6)))
        #expect(full.isEmpty == false || frame == CellBuffer(size: Size(width: 30, height: 6)))
        terminal.feed(full + escapes.escapes(for: smaller))
        #expect(terminal.text == smaller.textRows)
    }

    @Test func stylesBecomeSGRCodesWithThePalettesIndices() async throws {
        var escapes = FrameEscapes { $0 == .accent ? 75 : nil }
        var frame = CellBuffer(size: Size(width: 4, height: 1))
        frame.write("ab", x: 0, y: 0, style: CellStyle(foreground: .accent, bold: true, underline: true))
        let text = escapes.escapes(for: frame)
        #expect(text.hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        #expect(text.contains("\u{1B}[0;1;4;38;5;75mab"))
        #expect(text.hasSuffix("\u{1B}[0m"))
    }
}

extension CellBuffer {
    /// Each row's characters, trailing spaces removed.
    var textRows: [String] {
        (0..<size.height).map { y in
            var line = String((0..<size.width).map { self[$0, y] }.filter { !$0.isContinuation }.map(\.character))
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
