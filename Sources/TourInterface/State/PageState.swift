import PageProtocol
import TourCore

/// Everything the interface keeps about one page: its document, its last run, the knob values the learner
/// chose for the next run, and where each of its panes is scrolled to.
public struct PageState: Sendable {
    public let page: Page
    /// The page's files as last read, parsed; nil until the first `.sourceRead`. Replaced, not changed, when the
    /// files change, so layouts cached for the old text are not reused.
    var text: PageText?
    /// The last run, or the one in flight.
    public var record: RunRecord?
    /// `C`: the output and timeline show the run of the exercise's last check (`PageExerciseState.checkRun`) instead
    /// of `record`; the page's own results, live view, knobs and state stay the page's.
    public var showsCheckRun = false
    /// The run whose events feed `record`.
    public var runID: Int?
    /// Values chosen in the knob panel, by knob name, passed to the next run.
    public var chosenKnobValues: [String: String] = [:]
    public var selectedKnob = 0
    /// The first row of the laid-out page shown at the top of the page pane.
    public var pageScroll = 0
    /// The deep dives the learner opened, by the line of their `- deep dive:` marker; the others show folded.
    public var openDeepDives: Set<Int> = []
    /// Output lines hidden below the bottom of the output pane; 0 follows the newest line.
    public var outputScrollBack = 0
    public var timeline = TimelineState()
    /// The row of the live view's list shown at the pane's full size (`f`), nil while the list is shown.
    public var liveFullSizeRow: Int?
    /// The edit loop's rebuilds of the page's program.
    public var build = PageBuildState()
    /// A reset of this page kept the learner's version in this session: the status line offers `u` until it is undone.
    public var offersUndo = false
    /// The page's prediction and code challenge, if it has them.
    public var exercise: PageExerciseState?
    /// The levels of "be the scheduler" drawn from this page, by the name `tour play` takes; `B` plays them in turn.
    public var levels: [String] = []
    /// The one of `levels` that `B` plays next.
    var nextLevel = 0

    public init(page: Page) {
        self.page = page
    }

    /// The run the output and timeline show: the last check's when `showsCheckRun`, else the page's own.
    public var shownRecord: RunRecord? { showsCheckRun ? exercise?.checkRun : record }

    /// The page's document; empty until its source has been read.
    public var document: PageDocument { text?.document ?? PageDocument(blocks: []) }

    /// The knobs the source declares, for the knob panel before the page has run.
    public var declaredKnobs: [KnobRow] { text?.knobs ?? [] }

    /// The page draws in the live view, so the layout gives it a pane.
    public var drawsLiveView: Bool { text?.drawsLiveView ?? false }

    /// The live view takes the learner's scroll keys now: the page runs and said it reads scroll commands.
    public var takesScrollKeys: Bool { isRunning && record?.acceptsScrollCommands == true }

    /// A build in flight or a failed one says more than the last run: its program is not the one that ran.
    public var status: RunStatus {
        build.status ?? (build.needsBuild && record == nil ? .notBuilt : RunStatus(record))
    }

    public var isRunning: Bool { record != nil && record?.ending == nil }

    /// The knobs as the panel lists them: as the last run reported them, else as declared, with any
    /// declared knob the run did not reach kept at the end.
    public var knobs: [KnobRow] {
        let reported = record?.knobs.map(KnobRow.init) ?? []
        let reportedNames = Set(reported.map(\.name))
        return reported + declaredKnobs.filter { !reportedNames.contains($0.name) }
    }

    /// The value the next run will get for `knob`.
    public func nextValue(of knob: KnobRow) -> String {
        chosenKnobValues[knob.name] ?? knob.value
    }

    /// The settings for the next run: every chosen value that differs from the knob's default.
    public var knobSettings: [KnobSetting] {
        knobs.compactMap { knob in
            guard let chosen = chosenKnobValues[knob.name], chosen != knob.defaultValue else { return nil }
            return KnobSetting(name: knob.name, value: chosen)
        }
    }
}
