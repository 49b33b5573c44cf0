/// How the tour's commands get their links to a room, without knowing how a link speaks to the broker: `tour` is
/// given the MQTT one (`RoomLink`); the tests of the tutorial, the presenter and the command line give fakes.
///
/// Every handler is called on the link's own threads; whoever opens a link moves what it hears onto its own queue.
public protocol RoomLinkOpening: Sendable {
    /// This installation's participant id: made once and kept in tour's state folder, so a participant keeps their
    /// row on the dashboard across restarts. A problem (a state folder that cannot be written) is said in words.
    func participantID(environment: [String: String]) -> Result<ParticipantID, RoomInputError>

    /// The leader's password `tour room` left for the room at `address` in tour's state folder (a file only its owner
    /// reads), if there is one.
    func savedLeaderPassword(for address: RoomAddress, environment: [String: String]) -> String?

    /// Joins the room at `address` as `participant`, shown as `name`; connects in the background and reports how the
    /// link stands through `status` and what it hears (the poll on stage) through `heard`.
    func openParticipantLink(address: RoomAddress, credentials: RoomCredentials, participant: ParticipantID, name: String,
                             status: @escaping @Sendable (RoomLinkStatus) -> Void,
                             heard: @escaping @Sendable (RoomEvent) -> Void) -> any ParticipantLinking

    /// Opens the leader's link to the room at `address`, for the presenter's polls: it hears the participants'
    /// answers (and whatever else the leader's subscriptions carry) through `heard`.
    func openLeaderLink(address: RoomAddress, credentials: RoomCredentials,
                        status: @escaping @Sendable (RoomLinkStatus) -> Void,
                        heard: @escaping @Sendable (RoomEvent) -> Void) -> any LeaderLinking
}
