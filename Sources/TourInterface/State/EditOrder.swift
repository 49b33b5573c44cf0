import TourCore

/// A file to open in the learner's editor, at a line.
public struct EditOrder: Equatable, Sendable {
    /// The files whose original is kept before the first edit: the page's, or its exercise's
    /// (`PageExercises.exerciseFiles`), which `tour reset` puts back.
    public var page: Page
    /// Absolute path: the page's `main.swift`, or the file of the selected diagnostic.
    public var file: String
    /// 1-based; the line in focus.
    public var line: Int
}
