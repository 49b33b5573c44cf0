import Foundation
import PageProtocol

/// `tour reset <page>` and `tour reset --all`: put pages back to the text kept before their first edit.
public enum ResetCommand {
    /// Resets one page, or every page when `query` is nil; returns the lines to print and the exit status.
    public static func execute(_ query: String?, catalog: PageCatalog) -> (lines: [String], status: PlainRun.Status) {
        let pages: [Page]
        if let query {
            guard let page = catalog.page(named: query) else {
                return (["there is no page \(EchoedInput.quoted(query)); the pages are \(catalog.choices)"], .usage)
            }
            pages = [page]
        } else {
            pages = catalog.pages
        }
        let originals = OriginalPages(packageRoot: catalog.root)
        var lines: [String] = []
        var failed = false
        for page in pages {
            let name = "Page \(page.number) (\(page.slug))"
            do {
                switch try originals.reset(page) {
                case .restored(let rewritten, let removed):
                    var parts = ["restored \(rewritten.joined(separator: ", "))"]
                    if rewritten.isEmpty { parts = [] }
                    if !removed.isEmpty { parts.append("removed the added \(removed.joined(separator: ", "))") }
                    lines.append("\(name): \(parts.joined(separator: "; ")); it is back to its original text.")
                case .unchanged:
                    lines.append("\(name): already has its original text.")
                case .noOriginal:
                    lines.append("\(name): never edited through tour, so there is nothing to reset.")
                }
            } catch {
                failed = true
                lines.append("\(name): could not reset: \(error)")
            }
        }
        return (lines, failed ? .endedOtherwise : .endedAsExpected)
    }
}
