import Presenting
import TourCore

/// The presenter, on stage: which pages the talk shows and in what order, how many blocks of each are revealed, the
/// talk's clock, the caption the room reads, and the script being played, if any.
public struct PresenterState: Sendable {
    /// The pages presented, as indices into the model's pages, in the talk's order.
    public var order: [Int]
    /// How many blocks of each page are shown, by page index; a page not visited yet shows its first.
    public var revealed: [Int: Int] = [:]
    /// The clock reading the talk started at: the first tick after the presenter opened. Nil until then.
    public var startedAt: UInt64?
    /// A line for the room in large type (a knob changed on stage), shown for `PresenterCaption.duration`.
    public var caption: PresenterCaption?
    /// The output and the timeline take the room below the prose while the page has a run; `t` hides them.
    public var showsRun = true
    /// Rows scrolled back from where the presenter keeps the last revealed block in view.
    public var scrollBack = 0
    /// The talk's end slide, its words, once the script's `end` step played: the screen shows nothing else, and the
    /// talk stops there (← goes back to the last page).
    public var endSlide: String?
    /// The first block the last reveal showed, when it showed several at once (`reveal N`): the speaker's notes of
    /// every block it passed go to `tour notes` together. Nil after a page change.
    var revealedFrom: Int?
    /// The talk's script being played, if the presenter was opened with one.
    public var playback: TalkPlayback?
    /// The level being played on stage (`B`), while its game has the terminal: `tour notes` says so, since the
    /// presenter's screen is the game's until it ends.
    var levelOnStage: String?
    /// The snapshot last handed to `tour notes`, so the same one is not sent again.
    var published: PresenterSnapshot?

    public init(order: [Int], playback: TalkPlayback? = nil) {
        self.order = order
        self.playback = playback
    }

    /// How many of a page's `count` blocks are shown: at least its first, at most all.
    func shownBlocks(onPage index: Int, of count: Int) -> Int {
        min(count, max(1, revealed[index] ?? 1))
    }
}

/// A line the room reads, such as "maxConcurrentOperationCount 1 → 3", and when it appeared.
public struct PresenterCaption: Sendable, Equatable {
    public var text: String
    public var shownAt: UInt64
    /// A script's `caption` stays as long as the script says: until the next step or key that shows the room something
    /// else (a page, a reveal, another caption). A knob's caption goes after `duration`.
    public var untilTheScriptMovesOn = false

    /// How long a knob's caption stays on the screen, in nanoseconds.
    public static let duration: UInt64 = 5_000_000_000

    public func isShown(at now: UInt64) -> Bool {
        untilTheScriptMovesOn || now < shownAt + Self.duration
    }
}

/// A talk's script as the presenter plays it: the steps with their pages found, the next one to play, and what the
/// step played last waits for.
public struct TalkPlayback: Sendable {
    /// What the script waits for before its next step.
    public enum Waiting: Equatable, Sendable {
        /// Space, → or Enter.
        case key
        /// The clock to reach this reading (a `pause`); a key ends it early.
        case clock(UInt64)
        /// A run of this page with an id from `fromRunID` on to end (it may first be built).
        case run(page: Int, fromRunID: Int)
        /// The page's source to be read, so the steps after `page` act on its blocks and knobs.
        case source(page: Int)
    }

    /// Each step with its page as an index into the model's pages.
    public var steps: [(line: Int, step: TalkStep<Int>)]
    /// The index of the next step to play.
    public var next = 0
    public var waiting: Waiting?
    /// The script's `note` steps since its last `page` or `reveal`: the speaker's, published with the snapshot.
    public var notes: [String] = []

    /// The script's steps with each `page` step's page found by `pageIndex`, or nil (with the step's line) for the first
    /// page it does not find; `TalkPlan.check` has said why before a presenter plays a script.
    public init?(_ script: TalkScript, pageIndex: (String) -> Int?) {
        var steps: [(line: Int, step: TalkStep<Int>)] = []
        for step in script.steps {
            // The theme is the terminal's, chosen before the presenter opens.
            if case .theme = step.step { continue }
            guard let resolved = step.step.findingPage(pageIndex) else { return nil }
            steps.append((step.line, resolved))
        }
        self.steps = steps
    }

    public var isFinished: Bool { next >= steps.count && waiting == nil }

    /// The seconds of the pauses played so far, the one waited in included: where the talk's plan puts the clock
    /// when the step now playing ends.
    public var plannedSecondsSoFar: Int {
        Int(steps.prefix(next).reduce(0.0) { total, step in
            if case .pause(let seconds) = step.step { total + seconds } else { total }
        }.rounded())
    }

    /// The pages the script visits, in the order it first visits them: the talk's pages.
    public var pageOrder: [Int] {
        steps.reduce(into: []) { order, step in
            if case .page(let index) = step.step, !order.contains(index) { order.append(index) }
        }
    }

    /// Moves the script to its first step on page `index`, so a page changed by hand (n, p) takes the script along;
    /// false, and nothing changed, when the script never visits that page.
    mutating func jump(toPage index: Int) -> Bool {
        guard let step = steps.firstIndex(where: { $0.step == .page(index) }) else { return false }
        next = step
        waiting = nil
        notes = []
        return true
    }

    /// The line of the step playing now (the one waited on), or of the next one.
    public var line: Int? {
        let index = waiting == nil ? next : next - 1
        return steps.indices.contains(index) ? steps[index].line : nil
    }
}
