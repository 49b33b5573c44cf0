import TourCore

/// Where a page stands: shown in the sidebar and the status line.
public enum RunStatus: Equatable, Sendable {
    case notRun
    /// The page's program is missing or older than its source, and waits to be built: in the background, or by `r`.
    case notBuilt
    case running
    case endedAsExpected
    case crashed
    case stuck
    case stopped
    /// Exited with a failure status or could not start.
    case failed
    /// The page's program is being rebuilt after its source changed.
    case building
    /// The last build stopped on errors in the page's code; the old program is not run in its place.
    case doesNotCompile
    /// The page could not be built for another reason: its source is gone or unreadable, or the build hung or could not start.
    case cannotBuild

    /// The state of the page that last ran as `record`.
    public init(_ record: RunRecord?) {
        guard let record else {
            self = .notRun
            return
        }
        guard let ending = record.ending else {
            self = .running
            return
        }
        if record.endedAsExpected {
            self = .endedAsExpected
        } else if case .stuck = ending {
            self = .stuck
        } else if ending.isCrash {
            self = .crashed
        } else if ending == .stopped {
            self = .stopped
        } else {
            self = .failed
        }
    }

    public var words: String {
        switch self {
        case .notRun: "not run"
        case .notBuilt: "not built yet"
        case .running: "running"
        case .endedAsExpected: "as expected"
        case .crashed: "crashed"
        case .stuck: "stuck"
        case .stopped: "stopped"
        case .failed: "failed"
        case .building: "building"
        case .doesNotCompile: "does not compile"
        case .cannotBuild: "cannot build"
        }
    }

    public func glyph(_ glyphs: Glyphs) -> Character {
        switch self {
        case .notRun: glyphs.notRun
        case .notBuilt: glyphs.notBuilt
        case .running: glyphs.running
        case .endedAsExpected: glyphs.expected
        case .crashed: glyphs.crashed
        case .stuck: glyphs.stuck
        case .stopped: glyphs.stopped
        case .failed: glyphs.failed
        case .building: glyphs.building
        case .doesNotCompile: glyphs.doesNotCompile
        case .cannotBuild: glyphs.failed
        }
    }

    public var color: PaletteColor? {
        switch self {
        case .notRun, .notBuilt, .stopped: nil
        case .running, .building: .running
        case .endedAsExpected: .success
        case .crashed, .failed, .doesNotCompile: .failure
        case .stuck, .cannotBuild: .warning
        }
    }
}
