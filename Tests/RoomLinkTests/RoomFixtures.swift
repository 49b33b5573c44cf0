import Foundation
import MQTT
import RoomLink
import RoomProtocol
import TourCore
import TourTestSupport

/// Retries after a few milliseconds, so a link reconnects as soon as a restarted broker listens.
let quickRetries = MQTTClient.Timing(connectTimeout: 10, firstRetry: 20_000_000, longestRetry: 200_000_000)

/// A participant's progress with `lastPage` set, enough to tell one state from another.
func progress(_ name: String, page: String) -> ParticipantProgress {
    var record = ProgressRecord()
    record.lastPage = page
    return ParticipantProgress(participant: name, tourVersion: "test", writtenAt: Date(timeIntervalSince1970: 0), progress: record)
}

func participantID(_ number: Int) -> ParticipantID {
    ParticipantID("tour-test-\(number)")!
}

/// What the leader heard, folded as a dashboard folds it: each participant's latest state and presence.
struct RoomView {
    var states: [ParticipantID: ParticipantProgress] = [:]
    var presence: [ParticipantID: Presence] = [:]
    var answers: [ParticipantID: PollAnswer] = [:]
    var unreadable: [(ParticipantID?, String)] = []
    var statuses: [RoomLinkStatus] = []
    var caughtUp = 0

    init(_ updates: [RoomLinkUpdate]) {
        for update in updates {
            switch update {
            case .status(let status): statuses.append(status)
            case .event(.state(let id, let progress)): states[id] = progress
            case .event(.presence(let id, let present)): presence[id] = present
            case .event(.answer(let id, let answer)): answers[id] = answer
            case .event(.unreadable(let id, let problem)): unreadable.append((id, problem))
            case .event(.poll), .event(.pollClosed): break
            case .caughtUp: caughtUp += 1
            }
        }
    }

    func page(of id: ParticipantID) -> String? { states[id]?.progress.lastPage }
}

/// A leader's link on `broker` that records what it hears.
func leaderLink(_ broker: MosquittoBroker, heard: HeardEvents<RoomLinkUpdate>) -> LeaderLink {
    LeaderLink(address: broker.localAddress, password: broker.passwords.leader, timing: quickRetries) { heard.record($0) }
}

func participantLink(_ broker: MosquittoBroker, _ id: ParticipantID, password: String? = nil,
                     heard: HeardEvents<RoomLinkUpdate> = HeardEvents()) -> ParticipantLink {
    ParticipantLink(address: broker.localAddress, password: password ?? broker.passwords.room, participant: id,
                    timing: quickRetries) { heard.record($0) }
}

/// A client that speaks MQTT with no link's manners: a participant's password and any client id, or the leader's.
func rawClient(_ broker: MosquittoBroker, id: String, asLeader: Bool = false, subscriptions: [String] = [],
               heard: HeardEvents<MQTTClient.Event>) -> MQTTClient {
    let session = MQTTSession.Configuration(
        clientID: id, username: asLeader ? RoomCredentials.leaderUser : RoomCredentials.participantUser,
        password: asLeader ? broker.passwords.leader : broker.passwords.room,
        subscriptions: subscriptions.map { MQTTPacket.Subscription(filter: $0, qos: .atLeastOnce) }, maximumInFlight: 2000)
    return MQTTClient(host: "127.0.0.1", port: broker.port, session: session, timing: quickRetries) { heard.record($0) }
}

extension MQTTClient.Event {
    var isConnectionLost: Bool {
        if case .connectionLost = self { true } else { false }
    }
}

/// A fresh folder for one test's files, in the tests' scratch space.
func scratchFolder() throws -> URL {
    let folder = ScratchSpace.folder.appendingPathComponent("room-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

/// A room for one test: a broker, a leader's link that records what it hears, and `count` participants' links
/// (`participantID(0)`…) that each record theirs.
final class TestRoom: Sendable {
    let broker: MosquittoBroker
    let heard = HeardEvents<RoomLinkUpdate>()
    let leader: LeaderLink
    let ids: [ParticipantID]
    let participantHeard: [HeardEvents<RoomLinkUpdate>]
    let participants: [ParticipantLink]

    init(participants count: Int) async throws {
        let broker = try await TestBroker.start()
        self.broker = broker
        leader = leaderLink(broker, heard: heard)
        ids = (0..<count).map(participantID)
        let participantHeard = ids.map { _ in HeardEvents<RoomLinkUpdate>() }
        self.participantHeard = participantHeard
        participants = zip(ids, participantHeard).map { participantLink(broker, $0, heard: $1) }
    }

    /// What the leader heard, folded.
    var view: RoomView { RoomView(heard.all) }

    func leave() {
        participants.forEach { $0.leave() }
        leader.leave()
        broker.stop()
    }
}

/// The pid of a process that has ended (and was reaped), as a crashed tour's would be.
func endedProcess() async throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    await awaitBlocking { process.waitUntilExit() }
    return process.processIdentifier
}
