import Foundation
import TourCore

extension PageExercises {
    /// The learner's exercise folder as `OriginalPages` keeps a page: its original kept in
    /// `.tour/originals/Exercises/NN-Name/` before the first edit, each version a reset replaces in
    /// `.tour/before-reset/Exercises/NN-Name/<n>/`, and the page's number, so `tour reset <page> --exercise` names it.
    public func exerciseFiles(of page: Page, packageRoot: URL) -> Page {
        let file = packageRoot.appendingPathComponent(challenge.file)
        return Page(number: page.number, folder: "\(Page.exercisesFolder)/\(challenge.folder)", title: page.title, summary: challenge.title,
                    product: challenge.product, source: file)
    }

    /// Keeps the original of the learner's exercise file if it is not kept yet: call before the learner may first
    /// change it (opening it in an editor, a check, a hint, `tour watch`), so `tour reset` can put it back.
    public func keepOriginalExercise(of page: Page, packageRoot: URL) throws(OriginalPages.Problem) {
        try OriginalPages(packageRoot: packageRoot).keepOriginal(of: exerciseFiles(of: page, packageRoot: packageRoot))
    }
}
