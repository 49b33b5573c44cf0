/// Where a presenter is, as `tour notes` in a second terminal follows it: the page, the block just revealed
/// and the next one, the speaker's notes for it, the clock, and the knob changes the talk's script has coming.
/// It travels as one JSON line over the notes channel.
public struct PresenterSnapshot: Sendable, Equatable, Codable {
    /// The page's number, from 1, and its title.
    public var page: Int
    public var pageTitle: String
    /// The index of the block revealed last, from 0, and how many blocks the page has.
    public var block: Int
    public var blockCount: Int
    /// The revealed block's text and the next block's, as plain text; `next` is nil at the page's end.
    public var current: String
    public var next: String?
    /// The `- speaker:` notes that go with the revealed block.
    public var notes: [String]
    /// Seconds since the talk started.
    public var elapsedSeconds: Double
    /// Knob changes the script makes next, as the room's caption writes them ("maxConcurrentOperationCount 1 → 3").
    public var upcomingKnobChanges: [String]
    /// When a script plays: the whole seconds left of the `pause` it waits in (nil when it waits in none), and the
    /// seconds its pauses planned up to the end of the step it is on, to set the clock against. A presenter of an
    /// older tour sends neither, and the notes show neither.
    public var pauseSecondsLeft: Int?
    public var plannedSeconds: Int?
    /// The page's prediction asked of the room (`tour present --room`), with the answers counted so far; nil when no
    /// poll is open, and from a presenter of an older tour.
    public var poll: PollTally?

    public init(page: Int, pageTitle: String, block: Int, blockCount: Int, current: String, next: String?,
                notes: [String], elapsedSeconds: Double, upcomingKnobChanges: [String], pauseSecondsLeft: Int? = nil,
                plannedSeconds: Int? = nil, poll: PollTally? = nil) {
        self.poll = poll
        self.pauseSecondsLeft = pauseSecondsLeft
        self.plannedSeconds = plannedSeconds
        self.page = page
        self.pageTitle = pageTitle
        self.block = block
        self.blockCount = blockCount
        self.current = current
        self.next = next
        self.notes = notes
        self.elapsedSeconds = elapsedSeconds
        self.upcomingKnobChanges = upcomingKnobChanges
    }
}

/// A poll asked of the room on stage, as `tour notes` shows it: the question, each choice with how many chose it,
/// and, once the run answered it, the right choice.
public struct PollTally: Sendable, Equatable, Codable {
    public struct Choice: Sendable, Equatable, Codable {
        public var key: String
        public var text: String
        public var count: Int

        public init(key: String, text: String, count: Int) {
            self.key = key
            self.text = text
            self.count = count
        }
    }

    public var question: String
    public var choices: [Choice]
    /// The key of the choice the run bore out; nil before the run.
    public var rightChoice: String?

    public init(question: String, choices: [Choice], rightChoice: String? = nil) {
        self.question = question
        self.choices = choices
        self.rightChoice = rightChoice
    }

    /// How many answered.
    public var answered: Int { choices.reduce(0) { $0 + $1.count } }

    /// "7 of 12 right" once the run answered the poll, "12 answered" before.
    public var summary: String {
        guard let rightChoice else { return "\(answered) answered" }
        return "\(choices.first { $0.key == rightChoice }?.count ?? 0) of \(answered) right"
    }
}
