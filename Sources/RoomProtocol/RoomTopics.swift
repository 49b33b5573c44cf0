/// The MQTT topics a room uses (see `docs/room-format.md`). Every participant has a client id of its own
/// (`ParticipantID`), and everything it may write is under its id, so the broker's access list can keep each
/// participant to its own topics and a name that collides never overwrites someone else's state.
public enum RoomTopic: Equatable, Sendable {
    /// A participant's progress, retained: the latest state for whoever joins late.
    case state(ParticipantID)
    /// `online` while connected, retained; the participant's last will sets it `offline`.
    case presence(ParticipantID)
    /// The poll open on stage, retained; an empty retained message closes it.
    case poll
    /// A participant's answer to the open poll.
    case answer(ParticipantID)

    /// Every topic of a room starts with this.
    public static let root = "concurrency-tour"
    /// What the leader's dashboard subscribes to: every participant's state and presence.
    public static let participantsFilter = "\(root)/participants/+/+"
    /// What the presenter subscribes to for answers.
    public static let answersFilter = "\(root)/answers/+"

    /// The topic's name on the broker.
    public var name: String {
        switch self {
        case .state(let id): "\(Self.root)/participants/\(id.value)/state"
        case .presence(let id): "\(Self.root)/participants/\(id.value)/presence"
        case .poll: "\(Self.root)/poll"
        case .answer(let id): "\(Self.root)/answers/\(id.value)"
        }
    }

    /// The room topic `name` is, or nil for any other topic (or a participant id that is not one).
    public init?(name: String) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.first == Self.root else { return nil }
        switch parts.dropFirst().count {
        case 1 where parts[1] == "poll":
            self = .poll
        case 2 where parts[1] == "answers":
            guard let id = ParticipantID(parts[2]) else { return nil }
            self = .answer(id)
        case 3 where parts[1] == "participants":
            guard let id = ParticipantID(parts[2]) else { return nil }
            switch parts[3] {
            case "state": self = .state(id)
            case "presence": self = .presence(id)
            default: return nil
            }
        default:
            return nil
        }
    }
}

/// A participant's client id: made once per installation (`tour-` and 16 hex digits) and kept beside the progress,
/// so a participant keeps their row on the dashboard across restarts. It is also the MQTT client id.
public struct ParticipantID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: String

    /// At most 64 letters, digits and `-`: what a topic level and a client id can hold safely.
    public init?(_ value: String) {
        guard !value.isEmpty, value.count <= 64,
              value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        self.value = value
    }

    public var description: String { value }

    public static func < (left: ParticipantID, right: ParticipantID) -> Bool { left.value < right.value }
}
