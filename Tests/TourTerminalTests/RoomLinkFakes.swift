import RoomProtocol
import Synchronization
import TourCore
@testable import TourTerminal

/// A participant's link that no broker backs: it notes what the loop gives it, lets the test report as the link
/// would (a status, a poll heard), and hands each publication to whoever awaits it.
final class FakeParticipantLink: ParticipantLinking, @unchecked Sendable {
    struct Noted {
        var published: [ParticipantProgress] = []
        var answers: [PollAnswer] = []
        var leaves = 0
        var status: RoomSeat.StatusHandler?
        var heard: RoomSeat.HeardHandler?
    }

    let noted = Mutex(Noted())
    /// Every progress published, as it is.
    let publications: AsyncStream<ParticipantProgress>
    private let publication: AsyncStream<ParticipantProgress>.Continuation

    init() {
        (publications, publication) = AsyncStream.makeStream()
    }

    /// The seat the loop opens this link through, as ana.
    var seat: RoomSeat {
        .participant(name: "ana") { [self] status, heard in
            noted.withLock {
                $0.status = status
                $0.heard = heard
            }
            return self
        }
    }

    func publish(_ progress: ParticipantProgress) {
        noted.withLock { $0.published.append(progress) }
        publication.yield(progress)
    }

    func answer(_ answer: PollAnswer) { noted.withLock { $0.answers.append(answer) } }
    func leave() { noted.withLock { $0.leaves += 1 } }

    /// Reports as the link does, from a thread of its own.
    func report(_ status: RoomLinkStatus) { noted.withLock { $0.status }?(status) }
    func hear(_ event: RoomEvent) { noted.withLock { $0.heard }?(event) }

    /// The next progress published, waiting for it.
    func nextPublication(_ iterator: inout AsyncStream<ParticipantProgress>.Iterator) async throws -> ParticipantProgress {
        guard let progress = await iterator.next() else { throw StreamEnded() }
        return progress
    }

    struct StreamEnded: Error {}
}

/// The leader's link the presenter would use, noting what it is asked to do.
final class FakeLeaderLink: LeaderLinking, @unchecked Sendable {
    enum Call: Equatable {
        case ask(RoomPoll)
        case closePoll
        case leave
    }

    let calls = Mutex<[Call]>([])
    let heard = Mutex<RoomSeat.HeardHandler?>(nil)

    var seat: RoomSeat {
        .leader(session: "4242-1") { [self] _, heard in
            self.heard.withLock { $0 = heard }
            return self
        }
    }

    func ask(_ poll: RoomPoll) { calls.withLock { $0.append(.ask(poll)) } }
    func closePoll() { calls.withLock { $0.append(.closePoll) } }
    func leave() { calls.withLock { $0.append(.leave) } }
    func hear(_ event: RoomEvent) { heard.withLock { $0 }?(event) }
}
