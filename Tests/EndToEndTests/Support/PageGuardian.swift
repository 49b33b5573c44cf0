import Foundation
import Testing
import TourCore
import TourTestSupport

/// Keeps a real page safe while a test edits it: moves aside any original a learner had kept (so the tour keeps
/// a fresh one from the text as it is now), and on `restore` puts back the exact bytes, that original, and a program
/// built from the restored text. It takes the page's program for itself (`PageProgramTurns`): other tests wait in
/// `init` until `restore`, rather than run a program being linked or see another test's edit.
struct PageGuardian {
    let page: Page
    let root: URL
    let original: Data
    let kept: URL
    let keptAside: URL?

    /// Waits for other tests to finish with the page's program, then reads the page's text as it is: the bytes `restore` puts back.
    init(page: Page, root: URL) throws {
        self.page = page
        self.root = root
        PageProgramTurns.shared.beginChanging(page.product)
        kept = OriginalPages(packageRoot: root).originalsFolder(for: page)
        do {
            original = try Data(contentsOf: page.source)
            if FileManager.default.fileExists(atPath: kept.path) {
                let aside = kept.deletingLastPathComponent().appendingPathComponent(".\(page.folder).kept-during-test-\(UUID().uuidString)")
                try FileManager.default.moveItem(at: kept, to: aside)
                keptAside = aside
            } else {
                keptAside = nil
            }
        } catch {
            PageProgramTurns.shared.endChanging(page.product)
            throw error
        }
    }

    func restore() {
        let current = try? Data(contentsOf: page.source)
        if current != original {
            try? original.write(to: page.source, options: .atomic)
            // The program may have been built from an edit; other tests run it.
            _ = PageBuilder(packageRoot: root).build(product: page.product, sources: page.listSourceFiles()).wait()
        }
        try? FileManager.default.removeItem(at: kept)
        if let keptAside { try? FileManager.default.moveItem(at: keptAside, to: kept) }
        #expect((try? Data(contentsOf: page.source)) == original, "page \(page.number) was not restored byte for byte")
        PageProgramTurns.shared.endChanging(page.product)
    }
}
