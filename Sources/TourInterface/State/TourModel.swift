import ExerciseJudging
import Foundation
import TourCore

/// A pane that can have the focus: keys that scroll, and `z`, act on it.
public enum Pane: String, CaseIterable, Sendable {
    case page, output, timeline, knobs
    /// What the page draws: an animation or a list of pictures. Only on pages that draw one.
    case live

    public var title: String {
        switch self {
        case .page: "Page"
        case .output: "Output"
        case .timeline: "Timeline"
        case .knobs: "Knobs"
        case .live: "Live view"
        }
    }
}

/// A box drawn over the panes that takes the keys until it closes.
public enum Overlay: Equatable, Sendable {
    case help
    /// "A page is running: stop it and quit?"
    case confirmQuit
    /// "Restore page N to its original text?", for the page at this index.
    case confirmReset(page: Int)
    /// The prediction of the page at this index, asked before its run; a choice key answers and runs, `r` runs
    /// without answering, Esc closes it and runs nothing.
    case predict(page: Int)
    /// The reference solution of the page at this index, read-only.
    case solution(page: Int)
    /// The poll on stage (`ParticipantRoom.poll`), over whatever page is shown: a choice's key answers it, Esc puts
    /// it away and `R` brings it back.
    case roomPoll
    /// The room refused this tour (a wrong password): why, whole, and how to join again; any key closes it.
    case roomRefused(problem: String)
}

/// The whole state of the interface. `update` changes it, `render` draws it; neither does anything else.
public struct TourModel: Sendable {
    public var pages: [PageState]
    public var current = 0
    public var focus = Pane.page
    /// The focused pane fills the screen.
    public var zoomed = false
    /// The pane below the page in the compact layout: the last of output, timeline and knobs to have the focus.
    public var compactTab = Pane.output
    public var overlay: Overlay?
    public var speed: Double
    /// `--seed N`: every run's random delays and choices follow this seed, so a rehearsal and the talk match; nil runs
    /// stay random.
    public var seed: UInt64?
    /// `tour --notes`: the pages show their `- speaker:` callouts, which learners never see.
    public var showsSpeakerNotes = false
    public var size: Size
    /// The latest clock reading, on the monotonic clock the runs stamp their events with.
    public var now: UInt64 = 0
    /// A one-off message in the status line, gone at the next key.
    public var notice: String?
    public var glyphs: Glyphs
    /// The editor `e` opens, and the ids of builds.
    public var editing = EditingSettings()
    /// How the terminal can show pictures, from its colours.
    public var pictureDepth: PictureColorDepth
    /// The processors this machine lets the pages use, as the shell read them at launch
    /// (`ProcessInfo.activeProcessorCount`): the concurrency meter's full mark, and what the oversubscription warning
    /// judges against. Nil until the shell says, which leaves both unjudged.
    public var cores: Int?
    /// The page and exercise programs still to build, one at a time, since `swift run tour` builds none of them.
    public var backgroundBuilds = BackgroundBuilds()
    /// On stage (`tour present`, or `P`): the presenter's screen instead of the tutorial's; nil in the tutorial.
    public var presenter: PresenterState?
    /// In a room (`tour --room`): the learner's name there, the link's state and the poll on stage; nil otherwise.
    public var room: ParticipantRoom?
    /// On stage with a room (`tour present --room`): the leader's link and the poll asked on stage. Kept outside the
    /// presenter's state, which leaving the stage drops, because the link stays open until `tour` quits.
    public var stageRoom: StageRoom?
    var nextRunID = 1
    var nextCheckID = 1
    /// Layouts and painted bars kept between frames: the model's own, not a process-wide singleton.
    let renderCaches = RenderCaches()

    /// The speeds `<` and `>` step through.
    public static let speeds: [Double] = [0.25, 0.5, 1, 2, 4, 8]

    public init(pages: [PageState], speed: Double = 1, size: Size = Size(width: 120, height: 40), glyphs: Glyphs = .unicode,
                pictureDepth: PictureColorDepth = .colors256) {
        self.pages = pages
        self.speed = speed
        self.size = size
        self.glyphs = glyphs
        self.pictureDepth = pictureDepth
    }

    /// The model for `catalog`, with no file read: each page's source arrives as `.sourceRead`, asked for by the
    /// `.readSource` effect that `.launched` and moving to the page return.
    /// The first page shown is the one `progress` says the learner left, if any; each page's exercises start as
    /// `progress` recorded them, its times shown in `timeZone` (the shell passes the learner's).
    public static func load(_ catalog: PageCatalog, speed: Double, size: Size, glyphs: Glyphs,
                            pictureDepth: PictureColorDepth, progress: ProgressRecord = ProgressRecord(),
                            exercises: [PageExercises] = ExerciseCatalog.all, timeZone: TimeZone = .gmt) -> TourModel {
        let pages = catalog.pages.map { page in
            var state = PageState(page: page)
            state.exercise = exercises.first { $0.page == page.slug }.map {
                PageExerciseState(exercises: $0, page: page, packageRoot: catalog.root, progress: progress.pages[page.slug],
                                  timeZone: timeZone)
            }
            return state
        }
        var model = TourModel(pages: pages, speed: speed, size: size, glyphs: glyphs, pictureDepth: pictureDepth)
        model.current = progress.resumeIndex(in: catalog.pages) ?? 0
        return model
    }

    /// Says on each page which levels are drawn from it (`levels`: a level's name and its page's number).
    public mutating func showLevels(_ levels: [(name: String, page: Int)]) {
        for index in pages.indices {
            pages[index].levels = levels.filter { $0.page == pages[index].page.number }.map(\.name)
        }
    }

    /// `B`: plays the page's next level full screen, or says the page has none.
    mutating func playLevel() -> [TourEffect] {
        let levels = currentPage.levels
        guard !levels.isEmpty else {
            notice = "This page has no level to play: tour levels lists them all, tour play LEVEL plays one."
            return []
        }
        let level = levels[currentPage.nextLevel % levels.count]
        currentPage.nextLevel = (currentPage.nextLevel + 1) % levels.count
        guard presenter != nil else { return [.playLevel(level)] }
        // The game takes the terminal until it ends, and the loop with it: `tour notes` is told first.
        presenter?.levelOnStage = level
        return publishPresenterSnapshot() + [.playLevel(level)]
    }

    public var currentPage: PageState {
        get { pages[current] }
        set { pages[current] = newValue }
    }

    /// The page with a run in flight, if any: at most one page runs at a time, so its timing is its own.
    public var runningPage: Int? {
        pages.indices.first { pages[$0].isRunning }
    }
}
