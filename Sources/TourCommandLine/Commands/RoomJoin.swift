import RoomProtocol

/// What joining a room takes before the full screen starts, read from the command line and the environment, each
/// mistake refused with what would be right: `tour --room HOST:PORT --name ana` (or `TOUR_ROOM`, `TOUR_ROOM_NAME`)
/// for a participant, `tour present --room HOST:PORT` for the presenter. The password comes from
/// `TOUR_ROOM_PASSWORD`, else a participant is asked for it (echo off) and the presenter takes the leader's that
/// `tour room` saved.
public enum RoomJoin {
    /// A participant's seat: where, as whom, and with which credentials.
    public struct Participant: Equatable, Sendable {
        public var address: RoomAddress
        public var name: String
        public var credentials: RoomCredentials
    }

    /// The leader's seat for the presenter's polls.
    public struct Leader: Equatable, Sendable {
        public var address: RoomAddress
        public var credentials: RoomCredentials
    }

    static let roomVariable = "TOUR_ROOM"
    static let nameVariable = "TOUR_ROOM_NAME"
    static let passwordVariable = RoomCredentials.passwordVariable

    /// The participant's seat for the tutorial's `options`, or nil when no room is given (the tutorial as it always
    /// was). `ask` reads the password from the terminal with its prompt, echo off; it is called only when
    /// `onTerminal` and no password is in the environment, and returns nil when the learner gave none (end of input).
    public static func participant(_ options: TourCommand.InteractiveOptions, environment: [String: String], onTerminal: Bool,
                                   ask: (String) -> String?) throws(TourCommand.UsageError) -> Participant? {
        var chosen = options.room
        if chosen == nil, let text = environment[roomVariable], !text.isEmpty { chosen = try environmentAddress(text) }
        guard let address = chosen else {
            if options.name != nil {
                throw TourCommand.UsageError(description: "--name names you in a room; give the room too: tour --room HOST:PORT --name NAME "
                                             + "(or set \(roomVariable)=HOST:PORT)")
            }
            return nil
        }
        let given = options.name ?? environment[nameVariable].flatMap { $0.isEmpty ? nil : $0 }
        let name = RoomMessages.printableName(ProgressCommand.participantName(given, environment: environment))
        let password: String
        if let set = environment[passwordVariable] {
            password = set
        } else {
            guard onTerminal else {
                throw TourCommand.UsageError(description: "the room \(address) needs its password, and standard input is not a terminal to ask on: "
                                             + "set \(passwordVariable) (the leader's tour room prints it)")
            }
            guard let typed = ask("Password for the room \(address) (the leader's tour room prints it): ") else {
                throw TourCommand.UsageError(description: "no password given for the room \(address); type it when asked, or set \(passwordVariable)")
            }
            password = typed
        }
        return Participant(address: address, name: name,
                           credentials: RoomCredentials(username: RoomCredentials.participantUser, password: password))
    }

    /// The presenter's seat for `tour present --room`: the leader's password from the environment, else the one
    /// `saved` finds (`tour room` leaves it in tour's state folder).
    public static func leader(_ address: RoomAddress, environment: [String: String],
                              saved: (RoomAddress) -> String?) throws(TourCommand.UsageError) -> Leader {
        guard let password = environment[passwordVariable] ?? saved(address) else {
            throw TourCommand.UsageError(description: "asking the room \(address) takes the leader's password: set \(passwordVariable) to it, "
                                         + "or run tour room on this machine, which saves it for tour present")
        }
        return Leader(address: address, credentials: RoomCredentials(username: RoomCredentials.leaderUser, password: password))
    }

    /// `TOUR_ROOM`'s address, or what is wrong with it, named as the variable.
    private static func environmentAddress(_ text: String) throws(TourCommand.UsageError) -> RoomAddress {
        switch RoomAddress.parse(text) {
        case .success(let address): return address
        case .failure(let problem): throw TourCommand.UsageError(description: "\(roomVariable) \(problem.description)")
        }
    }
}
