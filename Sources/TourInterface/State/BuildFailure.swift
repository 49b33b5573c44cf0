import TourCore

/// Why the last build left the page without a program.
public enum BuildFailure: Equatable, Sendable {
    /// The compiler stopped on errors; they are in `diagnostics` (or, with no line to point at, in the output).
    case doesNotCompile
    /// The build ran longer than the builder allows and was stopped.
    case timedOut(seconds: Double)
    /// `swift` could not be started.
    case couldNotStart(String)
    /// `main.swift` or the folder is gone, or a file cannot be read.
    case sourceUnavailable(missing: [String], unreadable: [String])
}
