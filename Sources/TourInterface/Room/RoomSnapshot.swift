import Foundation
import RoomProtocol
import TourCore

/// `tour room --json`: the dashboard as one document, taken once the room's retained states have arrived.
public struct RoomSnapshot: Codable, Equatable, Sendable {
    public static let formatName = "concurrency-tour-room"

    public struct Participant: Codable, Equatable, Sendable {
        public var id: String
        /// The name as the dashboard shows it ("ana (2)" for a second ana).
        public var name: String
        /// `online`, `offline`, or nil before the participant's presence was heard.
        public var presence: String?
        /// The page they are on, by number and slug; nil before their first page.
        public var pageNumber: Int?
        public var page: String?
        /// The challenges passed, as `page/exercise`.
        public var passed: [String]
        public var needsHelp: [Help]
    }

    public struct Help: Codable, Equatable, Sendable {
        public var exercise: String
        /// "2 failed checks", "no progress for 12 min".
        public var why: String
        public var failedChecks: Int
        public var hintsShown: Int
        public var lastFinding: String?
    }

    public struct Stuck: Codable, Equatable, Sendable {
        public var exercise: String
        public var notPassed: Int
        public var reached: Int
    }

    public var format = RoomSnapshot.formatName
    public var room: String?
    public var link: String
    public var takenAt: Date
    public var participants: [Participant]
    public var stuck: [Stuck]
    public var untrackedMessages: Int
    public var unreadableMessages: Int

    public init(_ board: RoomBoard) {
        room = board.address?.description
        link = board.status.words()
        takenAt = board.now
        participants = board.order.compactMap { board.participants[$0] }.map { participant in
            let standing = participant.standing
            let page = standing?.current.map { board.analysis.pages[$0] }
            return Participant(id: participant.id.value, name: participant.label, presence: participant.presence?.rawValue,
                               pageNumber: page?.number, page: page?.slug,
                               passed: standing?.challenges.filter(\.passed).map(\.name) ?? [],
                               needsHelp: (standing?.needsHelp ?? []).map { need in
                                   Help(exercise: need.challenge.name, why: need.why(now: board.now), failedChecks: need.challenge.failedChecks,
                                        hintsShown: need.challenge.hintsShown, lastFinding: need.challenge.lastFinding)
                               })
        }
        stuck = board.stuck.map { Stuck(exercise: $0.name, notPassed: $0.notPassed.count, reached: $0.reached) }
        untrackedMessages = board.untrackedMessages
        unreadableMessages = board.unreadableMessages
    }

    /// The document as JSON text: sorted keys, ISO 8601 times.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
