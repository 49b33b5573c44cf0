@preconcurrency import Glibc
import Foundation
import RoomProtocol
import TourTerminal

/// The tutorial's and the presenter's seats in a room, from what `RoomJoin` read and the links `rooms` opens; a
/// mistake ends `tour` with its message before the full screen starts.
extension CommandDispatch {
    /// The participant's seat for `tour [--room HOST:PORT] [--name N]`, or nil with no room given.
    static func participantSeat(_ options: TourCommand.InteractiveOptions) -> RoomSeat? {
        let environment = ProcessInfo.processInfo.environment
        let join: RoomJoin.Participant
        do {
            guard let given = try RoomJoin.participant(options, environment: environment, onTerminal: isatty(STDIN_FILENO) == 1,
                                                       ask: PasswordPrompt.ask) else { return nil }
            join = given
        } catch {
            fail(error.description)
        }
        let participant: ParticipantID
        switch rooms.participantID(environment: environment) {
        case .success(let id): participant = id
        case .failure(let problem): fail("cannot join the room \(join.address): \(problem.description)", status: .couldNotStart)
        }
        return .participant(name: join.name) { status, heard in
            rooms.openParticipantLink(address: join.address, credentials: join.credentials, participant: participant,
                                      status: status, heard: heard)
        }
    }

    /// The presenter's seat for `tour present --room HOST:PORT`, or nil with no room given.
    static func leaderSeat(_ options: TourCommand.PresentOptions) -> RoomSeat? {
        guard let address = options.room else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let join: RoomJoin.Leader
        do {
            join = try RoomJoin.leader(address, environment: environment) { rooms.savedLeaderPassword(for: $0, environment: environment) }
        } catch {
            fail(error.description)
        }
        // The process and the moment it started: no other presenter's polls, nor this one's earlier sessions', share it.
        let session = "\(getpid())-\(Int(Date().timeIntervalSince1970))"
        return .leader(session: session) { status, heard in
            rooms.openLeaderLink(address: join.address, credentials: join.credentials, status: status, heard: heard)
        }
    }
}
