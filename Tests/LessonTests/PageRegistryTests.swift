import ExerciseJudging
import Foundation
import Testing
import TourCore
import TourTestSupport

/// The pages are listed in `Package.swift` and in the exercise catalog, and live in folders: one test holds them to
/// one another, so adding a page fails here, saying what is missing, until every part of it is in place.
@Suite("One list of pages", .bodiesBelowTheRunner)
struct PageRegistryTests {
    /// The folder names in `let pages = [ … ]` of `Package.swift`, in order.
    static func manifestPages() throws -> [String] {
        let manifest = try String(contentsOf: PageCatalog.defaultRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: "let pages = [")?.upperBound, "Package.swift lists its pages in `let pages = [`")
        let end = try #require(manifest[start...].range(of: "]")?.lowerBound)
        return manifest[start..<end].split(separator: "\n").compactMap { line in
            line.firstMatch(of: /"(\d\d-[A-Za-z]+)"/).map { String($0.1) }
        }
    }

    static func folders(_ parent: String) -> [String] {
        let path = PageCatalog.defaultRoot.appendingPathComponent(parent).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.first?.isNumber == true }.sorted()
    }

    @Test("Package.swift, the page folders, the exercises, the solutions, their variants and the exercise catalog name the same pages")
    func everyListAgrees() throws {
        let pages = try Self.manifestPages()
        #expect(pages.count >= 14)
        #expect(pages == pages.sorted(), "Package.swift lists the pages in order")
        #expect(Self.folders("Lessons") == pages, "Lessons/ and Package.swift's pages")
        #expect(Self.folders("Exercises") == pages, "every page has its exercise in Exercises/")
        #expect(Self.folders("Solutions") == pages, "every page has its reference solution in Solutions/")
        #expect(Self.folders("Tests/Fixtures/ExerciseVariants") == pages, "every exercise has its test variants")
        for page in pages {
            let named = ((try? FileManager.default.contentsOfDirectory(atPath: PageCatalog.defaultRoot
                .appendingPathComponent("Tests/Fixtures/ExerciseVariants/\(page)").path)) ?? []).sorted()
            #expect(named == ["Emptied", "Faked", "FirstStep"], "\(page)'s variants: \(named)")
        }
        let catalog = try PageCatalog.load()
        #expect(catalog.pages.map(\.slug) == ExerciseCatalog.all.map(\.page), "the exercise catalog, in page order")
        #expect(zip(catalog.pages, ExerciseCatalog.all).allSatisfy { page, exercises in exercises.challenge.folder == page.folder },
                "each challenge's folder is its page's")
    }
}
