import RoomProtocol

/// How the tutorial sits in a room, if it does: the loop opens the link when it starts, with handlers that bring what
/// the link reports onto its queue, and leaves the room when it quits. `tour` opens the MQTT links (`MQTTRooms`);
/// the loop's tests open fakes.
public enum RoomSeat: Sendable {
    /// Reports from a link, on the link's threads: how it stands, and what it heard.
    public typealias StatusHandler = @Sendable (RoomLinkStatus) -> Void
    public typealias HeardHandler = @Sendable (RoomEvent) -> Void

    /// `tour --room`: a participant, shown to the room as `name`; their progress is published as it is written.
    case participant(name: String, open: @Sendable (@escaping StatusHandler, @escaping HeardHandler) -> any ParticipantLinking)
    /// `tour present --room`: the presenter, asking the room the pages' predictions. `session` tells its polls apart
    /// from any other presenter's.
    case leader(session: String, open: @Sendable (@escaping StatusHandler, @escaping HeardHandler) -> any LeaderLinking)
}
