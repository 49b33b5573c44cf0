import ExerciseJudging
import Foundation
import PageProtocol
import TourCore

/// `tour reset <page>`, `tour reset --all` and `tour reset --undo <page>`, each for the page's exercise instead with
/// `--exercise`: put files back to the text the tour shipped with (`OriginalPages`), or put back the version a reset
/// replaced. A page and its exercise are reset apart: the exercise holds the learner's own attempt, which a reset
/// aimed at the page's demo must not take away.
public enum ResetCommand {
    /// The lines to print and the exit status; a `.usage` status comes with one line that says what would be right.
    public typealias Outcome = (lines: [String], status: ExitStatus)

    /// Resets the page `query` names, or every page when it is nil (`--all`); with `exercise`, their exercises instead
    /// (every page's that has one, for `--all`).
    public static func execute(_ query: String?, exercise: Bool = false, catalog: PageCatalog) -> Outcome {
        let targets: [Target]
        do { targets = try self.targets(query, exercise: exercise, catalog: catalog) } catch { return ([error.description], .usage) }
        let originals = OriginalPages(packageRoot: catalog.root)
        var lines: [String] = []
        var failed = false
        for target in targets {
            do {
                switch try originals.reset(target.files) {
                case .restored(let rewritten, let removed):
                    lines.append("\(target.name): \(changes(rewritten, removed)); it is back to its original text. "
                                 + "Your version is kept: \(target.files.undoResetCommand) puts it back.")
                case .unchanged:
                    lines.append("\(target.name): already has its original text.")
                case .noOriginal:
                    lines.append("\(target.name): has no original to put back: it is not in git's HEAD (or this folder is "
                                 + "not a git checkout), and was never edited through tour.")
                }
            } catch {
                failed = true
                lines.append("\(target.name): could not reset: \(error)")
            }
        }
        return (lines, failed ? .endedOtherwise : .endedAsExpected)
    }

    /// Puts back the version the last reset of the page `query` names replaced; with `exercise`, of its exercise.
    public static func undo(_ query: String, exercise: Bool = false, catalog: PageCatalog) -> Outcome {
        let target: Target
        do { target = try targets(query, exercise: exercise, catalog: catalog)[0] } catch { return ([error.description], .usage) }
        let originals = OriginalPages(packageRoot: catalog.root)
        do {
            switch try originals.undoReset(target.files) {
            case .restored(let rewritten, let removed):
                let left = originals.keptVersionCount(of: target.files)
                return (["\(target.name): \(changes(rewritten, removed)); it is back to the version its last reset replaced"
                         + (left > 0 ? " (\(left) more kept)." : ".")], .endedAsExpected)
            case .nothingToUndo:
                return (["\(target.name): has no reset to undo."], .endedAsExpected)
            }
        } catch {
            return (["\(target.name): could not undo the reset: \(error)"], .endedOtherwise)
        }
    }

    /// Files a reset puts back, as `OriginalPages` keeps them, and how the messages name them.
    private struct Target {
        let files: Page
        let name: String
    }

    /// The page `query` names, or every page when nil, as pages or as their exercises' files; a page with no exercise
    /// asked for with `exercise` is a usage mistake that names the pages that have one.
    private static func targets(_ query: String?, exercise: Bool, catalog: PageCatalog) throws(TourCommand.UsageError) -> [Target] {
        guard let query else {
            return catalog.pages.compactMap { page in
                exercise ? ExerciseCatalog.exercises(forPage: page.slug).map { exerciseTarget($0, of: page, catalog: catalog) }
                    : pageTarget(page)
            }
        }
        guard exercise else {
            guard let page = catalog.page(named: query) else {
                throw TourCommand.UsageError(description: "there is no page \(EchoedInput.quoted(query)); the pages are \(catalog.choices)")
            }
            return [pageTarget(page)]
        }
        do {
            let found = try ExerciseCommand.exercises(named: query, catalog: catalog)
            return [exerciseTarget(found.exercises, of: found.page, catalog: catalog)]
        } catch {
            // Said for a page that exists but has no exercise: what does work for it.
            guard let page = catalog.page(named: query) else { throw error }
            throw TourCommand.UsageError(description: "\(error.description); tour reset \(page.slug), without --exercise, resets the page itself")
        }
    }

    private static func pageTarget(_ page: Page) -> Target {
        Target(files: page, name: "Page \(page.number) (\(page.slug))")
    }

    private static func exerciseTarget(_ exercises: PageExercises, of page: Page, catalog: PageCatalog) -> Target {
        Target(files: exercises.exerciseFiles(of: page, packageRoot: catalog.root),
               name: "Page \(page.number) (\(page.slug)) exercise (\(exercises.challenge.file))")
    }

    /// "restored main.swift; removed the added Helper.swift".
    private static func changes(_ rewritten: [String], _ removed: [String]) -> String {
        var parts: [String] = []
        if !rewritten.isEmpty { parts.append("restored \(rewritten.joined(separator: ", "))") }
        if !removed.isEmpty { parts.append("removed the added \(removed.joined(separator: ", "))") }
        return parts.isEmpty ? "no file needed changing" : parts.joined(separator: "; ")
    }
}
