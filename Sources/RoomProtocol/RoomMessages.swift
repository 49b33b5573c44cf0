import Foundation
import PageProtocol
import TourCore

/// Whether a participant is in the room: `online` is published retained on connecting, and `offline` is the
/// participant's last will (the broker publishes it when the connection is lost) and what a clean leave publishes.
public enum Presence: String, Codable, Sendable, Equatable {
    case online
    case offline
}

/// A page's prediction asked of the room on stage: `tour present --room` publishes it, retained, before `r` runs the
/// page, and again with its outcome once the run has answered it.
public struct RoomPoll: Codable, Sendable, Equatable {
    /// One answer, by its key ("a", "b"…), as the page's prediction has it.
    public struct Choice: Codable, Sendable, Equatable {
        public var key: String
        public var text: String

        public init(key: String, text: String) {
            self.key = key
            self.text = text
        }
    }

    /// What the run showed, published once it ended.
    public struct Outcome: Codable, Sendable, Equatable {
        /// The choice the run bore out; nil when the run could not tell.
        public var rightChoice: String?
        /// What happened, in the prediction's own words ("it ran on T3, a pool thread").
        public var happened: String
        /// The answers counted, by choice key.
        public var counts: [String: Int]

        public init(rightChoice: String?, happened: String, counts: [String: Int]) {
            self.rightChoice = rightChoice
            self.happened = happened
            self.counts = counts
        }
    }

    /// Unique for each time a question is asked, so an answer to an earlier asking is not counted in a later one.
    public var id: String
    /// The page's slug and number.
    public var page: String
    public var pageNumber: Int
    public var question: String
    public var choices: [Choice]
    public var outcome: Outcome?

    public init(id: String, page: String, pageNumber: Int, question: String, choices: [Choice], outcome: Outcome? = nil) {
        self.id = id
        self.page = page
        self.pageNumber = pageNumber
        self.question = question
        self.choices = choices
        self.outcome = outcome
    }
}

/// A participant's answer to the poll with `pollID`; a later answer to the same poll replaces the earlier one.
public struct PollAnswer: Codable, Sendable, Equatable {
    public var pollID: String
    public var choice: String

    public init(pollID: String, choice: String) {
        self.pollID = pollID
        self.choice = choice
    }
}

/// One thing heard in a room, decoded from a topic and its payload: the only way room messages are read.
public enum RoomEvent: Sendable, Equatable {
    /// A participant's progress: the same document `tour progress --json` prints, its name already made printable.
    case state(ParticipantID, ParticipantProgress)
    case presence(ParticipantID, Presence)
    case poll(RoomPoll)
    /// The poll was closed (an empty retained message).
    case pollClosed
    case answer(ParticipantID, PollAnswer)
    /// A message on a room topic that could not be read, with why; the participant, when the topic names one.
    case unreadable(ParticipantID?, problem: String)
}

/// Reads and writes room messages, with limits that keep a hostile room from growing anything without bound.
public enum RoomMessages {
    /// The largest payload read; a larger one is `unreadable`. The broker started by `tour room` refuses larger ones
    /// too (`message_size_limit`). A progress document with every page and level is under 20 KiB.
    public static let maximumPayload = 64 * 1024
    /// The longest name shown; a longer one is cut, with an ellipsis.
    public static let maximumNameLength = 32
    /// The longest question, choice text or finding kept from a room message.
    public static let maximumTextLength = 600

    /// The event a message on `topic` carries; nil when the topic is not a room topic at all.
    public static func event(topic: String, payload: [UInt8]) -> RoomEvent? {
        guard let parsed = RoomTopic(name: topic) else { return nil }
        let participant: ParticipantID? = switch parsed {
        case .state(let id), .presence(let id), .answer(let id): id
        case .poll: nil
        }
        guard payload.count <= maximumPayload else {
            return .unreadable(participant, problem: "sent \(payload.count) bytes, more than the \(maximumPayload) a room message may have")
        }
        let data = Data(payload)
        switch parsed {
        case .state(let id):
            switch ParticipantProgress.parse(data) {
            case .success(var progress):
                progress.participant = printableName(progress.participant)
                return .state(id, progress)
            case .failure(let error):
                return .unreadable(id, problem: "sent a state that \(error.description)")
            }
        case .presence(let id):
            guard let presence = Presence(rawValue: String(decoding: payload, as: UTF8.self)) else {
                return .unreadable(id, problem: "sent a presence that is neither online nor offline")
            }
            return .presence(id, presence)
        case .poll:
            if payload.isEmpty { return .pollClosed }
            guard let poll = try? JSONDecoder().decode(RoomPoll.self, from: data), !poll.choices.isEmpty else {
                return .unreadable(nil, problem: "the poll message is not a poll with choices")
            }
            return .poll(printable(poll))
        case .answer(let id):
            guard let answer = try? JSONDecoder().decode(PollAnswer.self, from: data),
                  answer.choice.count <= 8, answer.pollID.count <= 200 else {
                return .unreadable(id, problem: "sent an answer that is not one (a poll id and a choice key)")
            }
            return .answer(id, answer)
        }
    }

    /// The payload that carries `value` on its topic.
    public static func payload(_ progress: ParticipantProgress) throws -> [UInt8] {
        Array(try progress.json().utf8)
    }

    public static func payload(_ poll: RoomPoll) throws -> [UInt8] {
        Array(try JSONEncoder().encode(poll))
    }

    public static func payload(_ answer: PollAnswer) throws -> [UInt8] {
        Array(try JSONEncoder().encode(answer))
    }

    public static func payload(_ presence: Presence) -> [UInt8] {
        Array(presence.rawValue.utf8)
    }

    /// A name as the dashboard may show it: no control characters or escape sequences, at most
    /// `maximumNameLength` characters, and `(no name)` for one left empty.
    public static func printableName(_ name: String) -> String {
        let clean = printableText(name, limit: maximumNameLength).trimmingCharacters(in: .whitespaces)
        return clean.isEmpty ? "(no name)" : clean
    }

    /// `text` without control characters or escape sequences, on one line, cut to `limit` characters.
    public static func printableText(_ text: String, limit: Int = maximumTextLength) -> String {
        let line = TerminalText.sanitized(text).replacingOccurrences(of: "\n", with: " ")
        return line.count <= limit ? line : String(line.prefix(limit - 1)) + "…"
    }

    static func printable(_ poll: RoomPoll) -> RoomPoll {
        var clean = poll
        clean.id = printableText(poll.id, limit: 200)
        clean.page = printableText(poll.page, limit: 64)
        clean.question = printableText(poll.question)
        clean.choices = poll.choices.prefix(10).map { RoomPoll.Choice(key: printableText($0.key, limit: 8), text: printableText($0.text)) }
        if var outcome = clean.outcome {
            outcome.happened = printableText(outcome.happened)
            outcome.rightChoice = outcome.rightChoice.map { printableText($0, limit: 8) }
            outcome.counts = outcome.counts.filter { key, _ in clean.choices.contains { $0.key == key } }
            clean.outcome = outcome
        }
        return clean
    }
}
