import Foundation
import RoomProtocol
import Synchronization
import Testing
@testable import TourCommandLine
import TourCore
import TourInterface
import TourTestSupport

/// `tour room`'s options, and `--json` over a fake room: the snapshot once the link has caught up, and a broker that
/// refuses or never answers said in words.
@Suite("tour room", .bodiesBelowTheRunner)
struct RoomCommandTests {
    /// A leader's link that does nothing: the fake room speaks through `hear` alone.
    final class SilentLink: LeaderLinking {
        func ask(_ poll: RoomPoll) {}
        func closePoll() {}
        func leave() {}
    }

    /// A room that, when opened, says `feed` at once, in order; it counts how often it was closed.
    final class ScriptedRoom: RoomHosting {
        let feed: [RoomFeed]
        let closes = Atomic<Int>(0)
        let requests = Mutex<[RoomRequest]>([])

        init(_ feed: [RoomFeed]) { self.feed = feed }

        func open(_ request: RoomRequest, hear: @escaping @Sendable (RoomFeed) -> Void) throws(RoomInputError) -> OpenedRoom {
            requests.withLock { $0.append(request) }
            feed.forEach(hear)
            return OpenedRoom(address: RoomAddress(host: "10.0.0.5", port: 41883), password: "pw", link: SilentLink()) { [self] in
                self.closes.add(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    struct Unstartable: RoomHosting {
        func open(_ request: RoomRequest, hear: @escaping @Sendable (RoomFeed) -> Void) throws(RoomInputError) -> OpenedRoom {
            throw RoomInputError("mosquitto is not installed: install it with apt-get install mosquitto")
        }
    }

    static func options(_ arguments: [String]) throws -> TourCommand.RoomOptions {
        guard case .room(let options) = try TourCommand.parse(["room"] + arguments) else {
            throw TourCommand.UsageError(description: "tour room \(arguments) did not parse as room")
        }
        return options
    }

    static func board() throws -> RoomBoard { RoomCommand.board(catalog: try PageCatalog.load(), now: Date()) }

    @Test func theOptionsParse() throws {
        #expect(try Self.options([]).request == .start(port: nil))
        #expect(try Self.options(["--port", "41883"]).request == .start(port: 41883))
        #expect(try Self.options(["--broker", "[fe80::1]:1883"]).request == .use(RoomAddress(host: "fe80::1", port: 1883)))
        #expect(try Self.options(["--plain"]).plain)
        #expect(try Self.options(["--json", "--broker", "room.local:1883"]) == .init(broker: RoomAddress(host: "room.local", port: 1883), json: true))
        #expect(try TourCommand.parse(["room", "--help"]) == .commandHelp(.room))
        let refused = try #require(throws: TourCommand.UsageError.self) { try Self.options(["--port", "1.5"]) }
        #expect(refused.description.contains("a whole number from 1 to 65535"))
    }

    @Test("--json waits for the room to catch up, prints one snapshot and leaves the room")
    func theSnapshotComesOnceCaughtUp() throws {
        let ana = try #require(ParticipantID("tour-a1"))
        var record = ProgressRecord()
        record.apply(.opened(page: "queue"), at: Date())
        let room = ScriptedRoom([.status(.connected), .event(.presence(ana, .online)),
                                 .event(.state(ana, ParticipantProgress(participant: "ana", tourVersion: "t", writtenAt: Date(), progress: record))),
                                 .caughtUp])
        let outcome = RoomCommand.snapshot(.start(port: nil), hosting: room, board: try Self.board(), patience: 600)
        #expect(outcome.status == .endedAsExpected && outcome.messages.isEmpty, "\(outcome.messages)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let snapshot = try decoder.decode(RoomSnapshot.self, from: Data(try #require(outcome.lines.first).utf8))
        #expect(snapshot.room == "10.0.0.5:41883")
        #expect(snapshot.participants.map(\.name) == ["ana"] && snapshot.participants.first?.page == "queue")
        #expect(room.closes.load(ordering: .sequentiallyConsistent) == 1, "the room is left (and a broker it started stopped)")
    }

    @Test("--json says a refused link, a room that cannot open, and one that never caught up")
    func aSnapshotThatCannotBeTakenIsSaid() throws {
        let refused = ScriptedRoom([.status(.refused(problem: "not authorised"))])
        let outcome = RoomCommand.snapshot(.use(RoomAddress(host: "10.0.0.5", port: 1883)), hosting: refused, board: try Self.board(), patience: 600)
        #expect(outcome.status == .couldNotStart && outcome.lines.isEmpty)
        #expect(outcome.messages == ["the broker at 10.0.0.5:41883 refused the leader's link: not authorised"])
        #expect(refused.closes.load(ordering: .sequentiallyConsistent) == 1)

        let unstartable = RoomCommand.snapshot(.start(port: 41883), hosting: Unstartable(), board: try Self.board(), patience: 600)
        #expect(unstartable.status == .couldNotStart)
        #expect(unstartable.messages == ["mosquitto is not installed: install it with apt-get install mosquitto"])

        // No patience at all: what a room that never says it caught up ends as, without waiting for it.
        let silent = RoomCommand.snapshot(.start(port: nil), hosting: ScriptedRoom([.status(.connected)]), board: try Self.board(), patience: 0)
        #expect(silent.status == .endedOtherwise && silent.lines.count == 1)
        #expect(silent.messages.first?.hasPrefix("the room's states were not all confirmed") == true)
        let unreachable = RoomCommand.snapshot(.start(port: nil), hosting: ScriptedRoom([.status(.reconnecting(problem: "connection refused"))]),
                                               board: try Self.board(), patience: 0)
        #expect(unreachable.status == .couldNotStart && unreachable.lines.isEmpty)
        #expect(unreachable.messages == ["could not reach the broker at 10.0.0.5:41883 within 0 s (reconnecting (connection refused))"])
    }
}
