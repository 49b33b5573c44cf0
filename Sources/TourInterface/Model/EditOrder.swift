import TourCore

/// A file to open in the learner's editor, at a line.
public struct EditOrder: Equatable, Sendable {
    public var page: Page
    /// Absolute path: the page's `main.swift`, or the file of the selected diagnostic.
    public var file: String
    /// 1-based; the line in focus.
    public var line: Int
    /// Keep the page's original before the first edit, for `x`; an exercise file has `tour reset` instead.
    public var keepsPageOriginal = true
}
