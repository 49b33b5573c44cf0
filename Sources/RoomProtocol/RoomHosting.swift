/// What `tour room` needs of a room's network: a broker (started for the room, or one already running) and a leader's
/// link to it. The MQTT side (`RoomLink`) provides it; the dashboard's tests give a fake that feeds `RoomEvent`s.
public protocol RoomHosting: Sendable {
    /// Starts or finds the broker `request` asks for and opens a leader's link to it. Everything the link hears, and
    /// each change of its status, goes to `hear`, on any thread, in the order heard. Throws what is wrong (a port
    /// taken, mosquitto missing) in words that say what would be right.
    func open(_ request: RoomRequest, hear: @escaping @Sendable (RoomFeed) -> Void) throws(RoomInputError) -> OpenedRoom
}

/// Which broker carries the room.
public enum RoomRequest: Equatable, Sendable {
    /// Start mosquitto with generated passwords, on `port` or a free one.
    case start(port: UInt16?)
    /// Use the broker already running there (`tour room --broker HOST:PORT`).
    case use(RoomAddress)
}

/// What a leader's link hears.
public enum RoomFeed: Equatable, Sendable {
    case event(RoomEvent)
    case status(RoomLinkStatus)
    /// Every message retained on the broker when the link subscribed has arrived (`tour room --json` waits for it). A
    /// link can tell, for example, by publishing to a topic of its own after subscribing and hearing it back.
    case caughtUp
    /// Something the room's host did that the leader should know of, in words: "the broker ended by itself; started
    /// again on port 41883".
    case notice(String)
}

/// A room opened for its leader.
public struct OpenedRoom: Sendable {
    /// Where participants join: for a broker started here, this machine's address on the network, and the port.
    public var address: RoomAddress
    /// The participants' password, when the leader has it (always, for a broker started here).
    public var password: String?
    public var link: any LeaderLinking
    /// Leaves the room and stops the broker if it was started for it; calling it again does nothing.
    public var close: @Sendable () -> Void

    public init(address: RoomAddress, password: String?, link: any LeaderLinking, close: @escaping @Sendable () -> Void) {
        self.address = address
        self.password = password
        self.link = link
        self.close = close
    }
}
