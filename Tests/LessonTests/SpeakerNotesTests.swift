import Foundation
import Testing
import TourCore
import TourTestSupport

/// A speaker can present any page: each has notes, starting with one that opens the page, before its first section.
@Suite("Speaker notes on every page", .bodiesBelowTheRunner)
struct SpeakerNotesTests {
    @Test("Every page opens with a speaker note before its first section, and has at least three in all")
    func everyPageHasSpeakerNotes() throws {
        for page in try PageCatalog.load().pages {
            let document = LiterateParser.parse(page.readSourceTexts().main)
            let notes = document.speakerNotes
            let firstSection = document.blocks.compactMap { block -> Int? in
                if case .heading(let level, _, let line) = block, level == 2 { line } else { nil }
            }.first ?? Int.max
            #expect(notes.first.map { $0.line < firstSection } == true, "page \(page.number) has no speaker note before its first section")
            #expect(notes.count >= 3, "page \(page.number) has \(notes.count) speaker notes")
        }
    }
}
