import Foundation
import Testing
import TourCommandLine
import TourCore
import TourTestSupport

/// The pages fall into parts: a page opens one with a line after its title, and the pages after it belong to it.
@Suite("Page parts", .bodiesBelowTheRunner)
struct PagePartsTests {
    @Test func aPageBelongsToThePartItOpensOrElseToThePartOfThePageBeforeIt() async throws {
        let folder = try PartedCatalog()
        let catalog = folder.catalog
        #expect(catalog.pages.map { $0.part?.title } == ["Operations and Dispatch", "Operations and Dispatch", "Swift Concurrency", "Swift Concurrency"])
        #expect(catalog.pages.map(\.summary) == ["One unit of work.", "Runs operations.", "Suspend, do not block.", "Families of tasks."],
                "a part's line is not the summary")
    }

    @Test func theListingPutsEachPartsHeadingAboveItsFirstPage() async throws {
        let folder = try PartedCatalog()
        let catalog = folder.catalog
        #expect(catalog.listing == [
            "Part one: Operations and Dispatch",
            "1  operation     Operation: One unit of work.",
            "2  queue         Queue: Runs operations.",
            "\nPart two: Swift Concurrency",
            "3  tasks         Tasks: Suspend, do not block.",
            "4  task-groups   Task groups: Families of tasks.",
        ])
    }

    @Test func pagesThatOpenNoPartAreListedWithoutHeadings() async throws {
        let folder = try PartedCatalog([("01-Operation", "//: # Operation\n//: One.\n"), ("02-Queue", "//: # Queue\n//: Two.\n")])
        let catalog = folder.catalog
        #expect(catalog.pages.allSatisfy { $0.part == nil })
        #expect(catalog.listing == ["1  operation     Operation: One.", "2  queue         Queue: Two."])
    }

    @Test func theCheckoutHasTwoPartsAndPartTwoBeginsAtPageNine() async throws {
        let pages = try PageCatalog.load().pages
        #expect(pages.prefix(8).allSatisfy { $0.part?.heading == "Part one: Operations and Dispatch" })
        #expect(pages.dropFirst(8).allSatisfy { $0.part?.heading == "Part two: Swift Concurrency" })
        #expect(pages.count > 8 && pages[8].number == 9)
    }
}
