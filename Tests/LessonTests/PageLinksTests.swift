import Foundation
import Testing
import TourCore
import TourTestSupport

/// The pages read as one tour: each but the last ends with a link on to the next, and none before the last says the
/// tour ends there.
@Suite("Links between the pages", .bodiesBelowTheRunner)
struct PageLinksTests {
    @Test("Every page but the last links on to the next, and only the last may call itself the end of the tour")
    func everyPageLinksOn() throws {
        let pages = try PageCatalog.load().pages
        for (index, page) in pages.enumerated() {
            let following = pages.count - 1 - index
            let links = LiterateParser.parse(page.readSourceTexts().main).blocks.flatMap(Self.spans).compactMap { span -> String? in
                if case .link(_, let target) = span { target } else { nil }
            }
            if following > 0 {
                #expect(links.contains("@next"), "page \(page.number) has no link on to page \(page.number + 1)")
                #expect(!page.readSourceTexts().main.contains("end of the tour"),
                        "page \(page.number) says the tour ends there, but \(following) pages follow it")
            }
        }
    }

    /// The inline text of a block of prose, with the blocks inside a deep dive; none for code and rules.
    static func spans(of block: PageBlock) -> [InlineSpan] {
        switch block {
        case .heading(_, let text, _), .paragraph(let text, _), .listItem(_, _, _, let text, _), .callout(_, let text, _): text
        case .deepDive(let body, _): body.flatMap(spans)
        case .rule, .code: []
        }
    }
}
