import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourInterface
import TourTestSupport

/// How a page that does not compile looks: the message under its line, the state in the sidebar and status line.
@Suite("Edit loop on screen", .bodiesBelowTheRunner)
struct EditLoopRenderingTests {
    static func failedModel() throws -> TourModel {
        var model = try FixturePages.model()
        let (_, build) = try EditLoopUpdateTests.change(&model)
        let error = EditLoopUpdateTests.diagnostic(model, line: 18, .error, "cannot find 'widht' in scope")
        let note = Diagnostic(file: error.file, line: 13, column: 5, severity: .note, message: "did you mean 'width'?")
        var withNote = error
        withNote.notes = [note]
        _ = model.update(.editLoop(.buildFinished(buildID: build.buildID,
                                                  EditLoopUpdateTests.outcome(.failed, [withNote], output: ["error: compile command failed"]))))
        return model
    }

    @Test("The message appears on the row under its source line, its note under the note's line (after its continuation)")
    func messageUnderItsLine() throws {
        let model = try Self.failedModel()
        let screen = TourRenderer.render(model)
        let page = try #require(model.layout.panes[.page]).inside
        let code = try #require(screen.find("18 peek(width)", in: page))
        let message = try #require(screen.find("error: cannot find 'widht' in scope", in: page))
        #expect(message.y == code.y + 1)
        #expect(screen[message.x, message.y].style.foreground == .failure)
        let knob = try #require(screen.find("13 let width", in: page))
        let hint = try #require(screen.find("note: did you mean 'width'?", in: page))
        // Line 13 is too long for the pane: the note comes after its continuation row.
        #expect(hint.y == knob.y + 2)
        #expect(screen.lines(in: page)[knob.y + 1 - page.y].contains("\(model.glyphs.continuation)"))
    }

    @Test("Snapshot: the page pane of a page that does not compile, at the failing line")
    func pagePaneSnapshot() throws {
        let model = try Self.failedModel()
        let page = try #require(model.layout.panes[.page])
        Snapshot.expect(TourRenderer.render(model).lines(in: page), matches: "pane-page-does-not-compile-120")
    }

    @Test("A message on a line the page shows as prose comes first in the page pane, with its line number")
    func messageOnProse() throws {
        var model = try FixturePages.model()
        let (_, build) = try EditLoopUpdateTests.change(&model)
        let unclosed = EditLoopUpdateTests.diagnostic(model, line: 1, .error, "unterminated '/*' comment")
        _ = model.update(.editLoop(.buildFinished(buildID: build.buildID, EditLoopUpdateTests.outcome(.failed, [unclosed]))))
        let page = try #require(model.layout.panes[.page]).inside
        model.currentPage.pageScroll = 0
        let rows = TourRenderer.render(model).lines(in: page)
        #expect(rows.first?.contains("line 1: error: unterminated '/*' comment") == true, "\(rows.prefix(3))")
    }

    @Test("The sidebar marks the page with its glyph, keeping its title; the status line and output say it does not compile")
    func stateInWords() throws {
        let model = try Self.failedModel()
        let screen = TourRenderer.render(model)
        let sidebar = try #require(model.layout.sidebar).inside
        let row = try #require(screen.find("1 Queue", in: sidebar))
        #expect(screen[sidebar.maxX - 1, row.y].character == model.glyphs.doesNotCompile)
        #expect(screen[sidebar.maxX - 1, row.y].style.foreground == .failure)
        #expect(screen.find("does not compile: 1 error", in: model.layout.status) != nil)
        let output = try #require(model.layout.panes[.output]).inside
        #expect(screen.find("main.swift:18:1: error: cannot find", in: output) != nil)
        #expect(screen.find("Page 1 does not compile", in: output) != nil)
    }

    @Test("While a page builds, the status line says what is building and for how long")
    func buildingProgress() throws {
        var model = try FixturePages.model()
        let (_, build) = try EditLoopUpdateTests.change(&model)
        _ = model.update(.editLoop(.buildStarted(buildID: build.buildID, time: 1_000_000_000, route: .direct)))
        _ = model.update(.tick(now: 1_400_000_000))
        model.notice = nil
        let screen = TourRenderer.render(model)
        #expect(screen.find("building Lesson01Queue", in: model.layout.status) != nil)
        #expect(screen.find("s cancel build", in: model.layout.status) != nil)
        #expect(screen.lines(in: model.layout.status).joined().contains("0.4 s"))
    }

    @Test("x draws the question before anything is reset")
    func resetQuestion() throws {
        var model = try FixturePages.model()
        model.press(.character("x"))
        let screen = TourRenderer.render(model)
        #expect(screen.find("Restore page 1 to its original text?") != nil)
        #expect(screen.find("Your version is kept: u undoes it.") != nil)
    }
}
