import TourCore

/// Where a page's own program stands in the edit loop: rebuilt after a change, and what the last build said.
public struct PageBuildState: Sendable {
    public enum Phase: Equatable, Sendable {
        /// The program matches the source as far as the interface knows.
        case idle
        /// A rebuild is in flight; its outcome arrives as `.buildFinished` with this id. `since` is set once it has started.
        case building(id: Int, since: UInt64?)
        /// The last build did not produce a program; the old one is not run in its place.
        case failed(BuildFailure)
    }

    public var phase = Phase.idle
    /// What the last build said (warnings stay after a success); a new build clears them, since its lines may have moved.
    public var diagnostics: [Diagnostic] = []
    /// The diagnostic `d`/`D` stepped to, whose file and line `e` opens.
    public var selectedDiagnostic: Int?
    /// The lines the last (or current) build printed, kept for the learner to read.
    public var output: [String] = []
    /// Run the page once the build in flight succeeds.
    public var runAfterBuild = false
    /// The program is missing or older than the source, or the last build failed: `r` builds before it runs.
    public var needsBuild = false

    /// The longest build output kept: a build that loops on errors must not fill memory.
    static let outputLimit = 2_000

    /// The state the sidebar and status line show, when the build decides it.
    var status: RunStatus? {
        switch phase {
        case .idle: nil
        case .building: .building
        case .failed(.doesNotCompile): .doesNotCompile
        case .failed: .cannotBuild
        }
    }

    public var isBuilding: Bool {
        if case .building = phase { return true }
        return false
    }
}

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

/// What the terminal layer knows about the edit loop that the model shows: which editor `e` opens.
public struct EditingSettings: Sendable {
    /// "nano", "vim -p"; nil when none was found.
    public var editor: String?
    /// Where the editor came from: "$VISUAL", "$EDITOR", or "found on PATH".
    public var editorOrigin: String
    var nextBuildID = 1

    public init(editor: String? = nil, editorOrigin: String = "") {
        self.editor = editor
        self.editorOrigin = editorOrigin
    }
}

/// How a visit to the editor ended, as the terminal layer reports it.
public enum EditorResult: Equatable, Sendable {
    /// The editor exited with status 0; a saved change arrives separately, through the source watcher.
    case closed
    /// The editor ran and exited with a failure status (or was killed by a signal).
    case failed(editor: String, status: Int32)
    /// No editor could be started: `editor` (from `origin`) is not a program here, or nil when none was found at all.
    case notFound(editor: String?, origin: String)
    /// The original could not be kept before the first edit, so `x` cannot undo this edit.
    case couldNotKeepOriginal(reason: String)
}

/// How putting a page back to its original text went, as the terminal layer reports it.
public enum PageResetResult: Equatable, Sendable {
    case restored
    case unchanged
    /// The page was never edited through the tour: no original was kept.
    case noOriginal
    case failed(String)
}

/// What the edit loop's machinery reports: source changes, builds, the editor and reset.
public enum EditLoopEvent: Sendable {
    /// The interface started watching `page` (it became the current page); `programIsStale` when its program
    /// is missing or older than its sources.
    case watchStarted(page: Page, programIsStale: Bool)
    /// The page's `.swift` files changed on disk, in the tour's editor or anywhere else.
    case sourceChanged(page: Page, files: [String])
    /// The page's source went away or became unreadable.
    case sourceUnavailable(page: Page, missing: [String], unreadable: [String])
    /// The build process started, at this time on the monotonic clock.
    case buildStarted(buildID: Int, time: UInt64)
    case buildOutput(buildID: Int, lines: [String])
    case buildFinished(buildID: Int, BuildOutcome)
    case editorFinished(EditorResult)
    case resetFinished(page: Page, PageResetResult)
}

/// A file to open in the learner's editor, at a line.
public struct EditOrder: Equatable, Sendable {
    public var page: Page
    /// Absolute path: the page's `main.swift`, or the file of the selected diagnostic.
    public var file: String
    /// 1-based; the line in focus.
    public var line: Int
}

/// A rebuild of one page's program the interface asks the terminal layer to start.
public struct BuildOrder: Equatable, Sendable {
    /// Tells this build's output and outcome apart from those of a build cancelled a moment earlier.
    public var buildID: Int
    public var page: Page
}
