import TourCore

/// What the edit loop's machinery reports: source changes, builds, the editor and reset.
public enum EditLoopEvent: Sendable {
    /// The interface started watching `page` (it became the current page); `programIsStale` when its program
    /// is missing or older than its sources.
    case watchStarted(page: Page, programIsStale: Bool)
    /// The programs of these pages and exercises (`.findProgramsToBuild`) are missing or older than their sources.
    case programsToBuild([Page])
    /// The page's `.swift` files changed on disk, in the tour's editor or anywhere else.
    case sourceChanged(page: Page, files: [String])
    /// The page's files as a `.readSource` effect read and parsed them.
    case sourceRead(page: Page, ParsedPageSource)
    /// The page's source went away or became unreadable.
    case sourceUnavailable(page: Page, missing: [String], unreadable: [String])
    /// The build started, at this time on the monotonic clock, and goes by `route`.
    case buildStarted(buildID: Int, time: UInt64, route: BuildRoute)
    case buildOutput(buildID: Int, lines: [String])
    case buildFinished(buildID: Int, BuildOutcome)
    case editorFinished(EditorResult)
    case resetFinished(page: Page, PageResetResult)
}
