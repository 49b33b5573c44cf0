/// How putting a page back to its original text went, as the terminal layer reports it.
public enum PageResetResult: Equatable, Sendable {
    case restored
    case unchanged
    /// The page was never edited through the tour: no original was kept.
    case noOriginal
    case failed(String)
}
