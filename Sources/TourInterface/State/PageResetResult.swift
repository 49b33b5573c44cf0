/// How putting a page back to its original text, or undoing that, went, as the terminal layer reports it.
public enum PageResetResult: Equatable, Sendable {
    /// Back to the original; the learner's version was kept, so `u` can undo it.
    case restored
    case unchanged
    /// There is no original to put back: git's HEAD does not have the page (or there is no git), and no copy was kept,
    /// as the page was never edited through the tour.
    case noOriginal
    /// Back to the version the last reset replaced.
    case undone
    /// No reset of the page is kept to undo.
    case nothingToUndo
    case failed(String)
    case undoFailed(String)
}
