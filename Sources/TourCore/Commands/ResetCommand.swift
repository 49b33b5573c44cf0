import Foundation
import PageProtocol

/// `tour reset <page>`, `tour reset --all` and `tour reset --undo <page>`: put pages back to the text the tour shipped
/// with (`OriginalPages`), or put back the version a reset replaced.
public enum ResetCommand {
    /// Resets one page, or every page when `query` is nil; returns the lines to print and the exit status.
    public static func execute(_ query: String?, catalog: PageCatalog) -> (lines: [String], status: PlainRun.Status) {
        let pages: [Page]
        if let query {
            guard let page = catalog.page(named: query) else { return unknown(query, catalog) }
            pages = [page]
        } else {
            pages = catalog.pages
        }
        let originals = OriginalPages(packageRoot: catalog.root)
        var lines: [String] = []
        var failed = false
        // Each page, then its exercise file, kept and reset the same way. An exercise with no original is not
        // mentioned: a line per untouched exercise would bury what the reset did.
        // `slug` names the page the learner types, for the exercise too (its files form a page of their own).
        let targets = pages.flatMap { page -> [(page: Page, slug: String, name: String, isExercise: Bool)] in
            let name = "Page \(page.number) (\(page.slug))"
            guard let exercises = ExerciseCatalog.exercises(forPage: page.slug) else { return [(page, page.slug, name, false)] }
            return [(page, page.slug, name, false),
                    (exercises.exerciseFiles(of: page, packageRoot: catalog.root), page.slug,
                     "\(name) exercise (\(exercises.challenge.file))", true)]
        }
        for (page, slug, name, isExercise) in targets {
            do {
                switch try originals.reset(page) {
                case .restored(let rewritten, let removed):
                    lines.append("\(name): \(changes(rewritten, removed)); it is back to its original text. "
                                 + "Your version is kept: tour reset --undo \(slug) puts it back.")
                case .unchanged:
                    lines.append("\(name): already has its original text.")
                case .noOriginal:
                    if isExercise { continue }
                    lines.append("\(name): has no original to put back: it is not in git's HEAD (or this folder is "
                                 + "not a git checkout), and was never edited through tour.")
                }
            } catch {
                failed = true
                lines.append("\(name): could not reset: \(error)")
            }
        }
        return (lines, failed ? .endedOtherwise : .endedAsExpected)
    }

    /// Puts back the version the last reset of the page named `query` replaced.
    /// Its exercise file's last reset is undone too.
    public static func undo(_ query: String, catalog: PageCatalog) -> (lines: [String], status: PlainRun.Status) {
        guard let page = catalog.page(named: query) else { return unknown(query, catalog) }
        let pageUndo = undo(page, named: "Page \(page.number) (\(page.slug))", catalog: catalog)
        guard let exercises = ExerciseCatalog.exercises(forPage: page.slug) else { return (pageUndo.lines, pageUndo.status) }
        let exerciseUndo = undo(exercises.exerciseFiles(of: page, packageRoot: catalog.root),
                                named: "Page \(page.number) (\(page.slug)) exercise (\(exercises.challenge.file))", catalog: catalog)
        let status: PlainRun.Status = pageUndo.status == .endedAsExpected ? exerciseUndo.status : pageUndo.status
        // An exercise with no reset to undo is not mentioned, as `execute` leaves out one never touched.
        return (pageUndo.lines + (exerciseUndo.undid || exerciseUndo.status != .endedAsExpected ? exerciseUndo.lines : []), status)
    }

    private static func undo(_ page: Page, named name: String, catalog: PageCatalog) -> (lines: [String], status: PlainRun.Status, undid: Bool) {
        do {
            switch try OriginalPages(packageRoot: catalog.root).undoReset(page) {
            case .restored(let rewritten, let removed):
                let left = OriginalPages(packageRoot: catalog.root).keptVersionCount(of: page)
                return (["\(name): \(changes(rewritten, removed)); it is back to the version its last reset replaced"
                         + (left > 0 ? " (\(left) more kept)." : ".")], .endedAsExpected, true)
            case .nothingToUndo:
                return (["\(name): has no reset to undo."], .endedAsExpected, false)
            }
        } catch {
            return (["\(name): could not undo the reset: \(error)"], .endedOtherwise, false)
        }
    }

    private static func unknown(_ query: String, _ catalog: PageCatalog) -> (lines: [String], status: PlainRun.Status) {
        (["there is no page \(EchoedInput.quoted(query)); the pages are \(catalog.choices)"], .usage)
    }

    /// "restored main.swift; removed the added Helper.swift".
    private static func changes(_ rewritten: [String], _ removed: [String]) -> String {
        var parts: [String] = []
        if !rewritten.isEmpty { parts.append("restored \(rewritten.joined(separator: ", "))") }
        if !removed.isEmpty { parts.append("removed the added \(removed.joined(separator: ", "))") }
        return parts.isEmpty ? "no file needed changing" : parts.joined(separator: "; ")
    }
}
