import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourInterface
import TourTestSupport

/// File work is an effect the loop performs: the update asks for a read and folds in the texts that come back.
@Suite("Source effects", .bodiesBelowTheRunner)
struct SourceEffectsTests {
    /// A model whose pages were never read, as `TourModel.load` leaves it; with no exercises, since the real
    /// catalog's would attach to fixture pages that share a real page's slug.
    static func unreadModel() throws -> TourModel {
        TourModel.load(try FixturePages.catalog(), speed: 1, size: Size(width: 120, height: 40), glyphs: .unicode,
                       pictureDepth: .colors256, exercises: [])
    }

    @Test("Launching asks to read and watch the first page, to read the others ahead and which programs to build; the page shows the texts the read returned")
    func launchReadsTheFirstPage() throws {
        var model = try Self.unreadModel()
        let page = model.currentPage.page
        #expect(model.currentPage.document.blocks.isEmpty, "loading reads no file")
        #expect(model.update(.launched) == [.readSource(page), .watch(page), .recordProgress(.opened(page: page.slug)),
                                             .readSourcesAhead(model.pages.dropFirst().map(\.page)),
                                             .findProgramsToBuild(model.pages.map(\.page))])
        _ = model.update(.editLoop(.sourceRead(page: page, ParsedPageSource(Page.SourceTexts(main: FixturePages.queueSource)))))
        #expect(model.currentPage.document.title == "Queue")
        #expect(model.currentPage.declaredKnobs.map(\.name) == ["width", "serial"])
    }

    @Test("The update reads no file: the document is the event's text, whatever is on disk")
    func updateReadsNoFile() throws {
        var model = try Self.unreadModel()
        let page = model.currentPage.page
        try FileManager.default.removeItem(at: page.source)
        _ = model.update(.editLoop(.sourceRead(page: page, ParsedPageSource(Page.SourceTexts(main: "//: # Only in the event\nlet a = 1\n")))))
        #expect(model.currentPage.document.title == "Only in the event")
        // A change on disk is only a request to read: the text stays until the read's result comes back.
        let effects = model.update(.editLoop(.sourceChanged(page: page, files: ["main.swift"])))
        #expect(effects.contains(.readSource(page)))
        #expect(model.currentPage.document.title == "Only in the event")
        #expect(TourRenderer.render(model).find("Only in the event") != nil)
    }

    @Test("Moving to a page reads it once, watches it and records it as opened; moving back does not read it again")
    func movingReadsOnce() throws {
        var model = try Self.unreadModel()
        let (first, second) = (model.pages[0].page, model.pages[1].page)
        _ = model.update(.editLoop(.sourceRead(page: first, first.readParsedSource())))
        #expect(model.update(.key(.character("n"))) == [.readSource(second), .watch(second), .recordProgress(.opened(page: second.slug))])
        #expect(model.update(.key(.character("p"))) == [.watch(first), .recordProgress(.opened(page: first.slug))])
        #expect(model.update(.key(.character("p"))) == [], "no move, no effect")
    }

    @Test("Watching a page already read reads it again; the same text keeps its parse, a new one replaces it")
    func rereadOnWatch() throws {
        var model = try Self.unreadModel()
        let page = model.currentPage.page
        let texts = Page.SourceTexts(main: FixturePages.queueSource)
        _ = model.update(.editLoop(.sourceRead(page: page, ParsedPageSource(texts))))
        let parsed = try #require(model.currentPage.text)
        #expect(model.update(.editLoop(.watchStarted(page: page, programIsStale: false))) == [.readSource(page)])
        _ = model.update(.editLoop(.sourceRead(page: page, ParsedPageSource(texts))))
        #expect(model.currentPage.text === parsed, "an unchanged read keeps the layouts cached for the text")
        _ = model.update(.editLoop(.sourceRead(page: page, ParsedPageSource(Page.SourceTexts(main: FixturePages.dispatchSource)))))
        #expect(model.currentPage.text !== parsed)
        #expect(model.currentPage.document.title == "Dispatch")
    }

    @Test("Each model has its own render caches: no singleton carries one model's layouts into another")
    func cachesBelongToTheModel() throws {
        let narrow = try FixturePages.model(width: 80, height: 24)
        let wide = try FixturePages.model()
        #expect(narrow.renderCaches !== wide.renderCaches)
        var copy = wide
        copy.press(.character("j"))
        #expect(copy.renderCaches === wide.renderCaches, "copies a frame makes share the one cache")
    }
}
