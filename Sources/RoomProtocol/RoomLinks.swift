import TourCore

/// How the tour's processes talk to a room, seen from the code that uses a link: the tutorial (a participant), the
/// presenter and the dashboard (the leader). The links over MQTT are in `RoomLink`; tests of the interface give
/// their own.

/// The state of a link's connection to its broker, shown on the status line and the dashboard.
public enum RoomLinkStatus: Sendable, Equatable {
    /// Trying to connect for the first time.
    case connecting
    case connected
    /// The connection was lost (or never made); the link keeps trying, and says what went wrong last.
    case reconnecting(problem: String)
    /// The broker refused the link (a wrong password, say); it does not try again.
    case refused(problem: String)

    /// The state in words, as the dashboard, the status line and the presenter say it: "connected as ana",
    /// "reconnecting (connection refused)"; the reason, kept printable and cut to 120 characters, unless `withReason`
    /// is false.
    public func words(name: String? = nil, withReason: Bool = true) -> String {
        func reason(_ problem: String) -> String { withReason ? " (\(RoomMessages.printableText(problem, limit: 120)))" : "" }
        return switch self {
        case .connecting: "connecting"
        case .connected: name.map { "connected as \($0)" } ?? "connected"
        case .reconnecting(let problem): "reconnecting" + reason(problem)
        case .refused(let problem): "refused" + reason(problem)
        }
    }
}

/// The name and password a link connects with. Participants connect as `participant` with the room's password;
/// the leader's tools as `leader` with the leader's own.
public struct RoomCredentials: Sendable, Equatable {
    public static let participantUser = "participant"
    public static let leaderUser = "leader"
    /// Where a password is given without being typed: the room's for a participant, the leader's for
    /// `tour present --room` and `tour room --broker`.
    public static let passwordVariable = "TOUR_ROOM_PASSWORD"

    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// A participant's link: what the tutorial says to the room. Every call returns at once; the link sends in the
/// background, keeps only the latest state while disconnected, and sends it again on reconnecting.
public protocol ParticipantLinking: AnyObject, Sendable {
    /// The participant's progress as it is now, retained on the broker.
    func publish(_ progress: ParticipantProgress)
    func answer(_ answer: PollAnswer)
    /// Leaves cleanly: `offline` is published and the connection closed.
    func leave()
}

/// The leader's link: what the dashboard and the presenter say to the room. Everything heard comes back as
/// `RoomEvent`s through the handler the link was made with.
public protocol LeaderLinking: AnyObject, Sendable {
    /// Opens `poll` (or publishes its outcome), retained so a participant who joins late sees it.
    func ask(_ poll: RoomPoll)
    func closePoll()
    func leave()
}
