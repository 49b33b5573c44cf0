import RoomProtocol
import TourCore

/// What a link to a room reports to the interface, and what the loop adds to it, each folded in by `update`.
public enum RoomReport: Sendable, Equatable {
    /// How the link to the broker stands now.
    case status(RoomLinkStatus)
    /// Something heard in the room: the poll on stage (a participant), an answer to it (the presenter).
    case heard(RoomEvent)
    /// The progress file as the loop has just written it (or read it at launch): the truth a participant publishes.
    case progressWritten(ProgressRecord)
}

/// The tutorial in a room (`tour --room HOST:PORT --name ana`): who the learner is there, how the link stands, and
/// the poll on stage, if one is open.
public struct ParticipantRoom: Sendable, Equatable {
    /// The name the room sees, as the link publishes it with the progress.
    public var name: String
    public var status = RoomLinkStatus.connecting
    public var poll: ParticipantPoll?

    public init(name: String) {
        self.name = name
    }
}

/// The poll on stage as a participant has it: the question (with its outcome once the presenter's run gave one) and
/// the answer this participant sent, if any.
public struct ParticipantPoll: Sendable, Equatable {
    public var poll: RoomPoll
    /// The key of the choice given; a later key sends again and replaces it.
    public var answer: String?
    /// Whether the link was connected when the answer was given: a link keeps no answer while disconnected, so one
    /// given then must be given again.
    public var answerSent = false

    public init(poll: RoomPoll, answer: String? = nil, answerSent: Bool = false) {
        self.poll = poll
        self.answer = answer
        self.answerSent = answerSent
    }

    /// The choice whose key is `key`, as the learner types it (case ignored); nil for any other key.
    func choice(forKey key: Character) -> RoomPoll.Choice? {
        poll.choices.first { $0.key.count == 1 && $0.key.lowercased() == String(key).lowercased() }
    }
}

/// The presenter's link to a room (`tour present --room`): how it stands, and the poll asked on stage.
public struct StageRoom: Sendable, Equatable {
    public var status = RoomLinkStatus.connecting
    /// Told apart from other presenters' (and earlier sessions') polls: each poll's id is the session and a count.
    public let session: String
    /// How many polls this presenter has asked: the next one's id follows it.
    var asked = 0
    /// The poll asked of the room on the current page, with its answers; nil until `r` asks one.
    public var poll: StagePoll?

    public init(session: String) {
        self.session = session
    }
}

/// A page's prediction asked of the room: the poll as published, the answers counted (the latest per participant,
/// for this poll's id only) and the run that gives its outcome.
public struct StagePoll: Sendable, Equatable {
    public var poll: RoomPoll
    /// The page asked about, as an index into the model's pages.
    public var page: Int
    /// Each participant's latest answer, by choice key; at most `maximumAnswers` participants.
    public private(set) var answers: [ParticipantID: String] = [:]
    /// The run that answers the poll is the first of the page from this id on, once `r` ran it; nil before.
    var fromRunID: Int?

    /// The most participants counted in one poll: a room that invents ids by the thousand cannot grow the count
    /// without bound. A workshop has tens.
    public static let maximumAnswers = 1_000

    public init(poll: RoomPoll, page: Int) {
        self.poll = poll
        self.page = page
    }

    /// Counts `answer` from `participant`, replacing their earlier one; false (and nothing counted) for another
    /// poll's answer, a key that is no choice, an answer after the outcome, or a new participant past the limit.
    mutating func count(_ answer: PollAnswer, from participant: ParticipantID) -> Bool {
        guard answer.pollID == poll.id, poll.outcome == nil, poll.choices.contains(where: { $0.key == answer.choice }),
              answers[participant] != nil || answers.count < Self.maximumAnswers else { return false }
        answers[participant] = answer.choice
        return true
    }

    /// The answers by choice key, every choice present (zero when nobody chose it).
    public var counts: [String: Int] {
        var counts = Dictionary(poll.choices.map { ($0.key, 0) }, uniquingKeysWith: { first, _ in first })
        for choice in answers.values { counts[choice, default: 0] += 1 }
        return counts
    }
}
