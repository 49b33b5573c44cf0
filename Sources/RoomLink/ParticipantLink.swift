import Foundation
import MQTT
import RoomProtocol
import Synchronization
import TourCore

/// What a link reports to the code that made it: its connection's state, and what it heard.
public enum RoomLinkUpdate: Sendable, Equatable {
    case status(RoomLinkStatus)
    case event(RoomEvent)
    /// The leader's link has heard every message the broker retained when it subscribed (see `LeaderLink`).
    case caughtUp
}

/// A participant's link to the room over MQTT (`docs/room-format.md`).
///
/// Its MQTT client id is the participant's id, so the broker's access list keeps it to its own topics. Its last will
/// is `offline`, retained on its presence topic. On every connect it publishes `online` (retained), then its latest
/// state (retained, QoS 1), and subscribes to the poll. While disconnected it keeps only the latest state, never a
/// queue of them: the progress file is the truth, and the latest state is all the room needs.
public final class ParticipantLink: ParticipantLinking {
    private struct Shared {
        var latestState: MQTTMessage?
        var connected = false
    }

    public let participant: ParticipantID
    private let client: MQTTClient
    private let shared = Locked(Shared())
    /// The client, for its own handler; emptied on leaving, which ends the cycle between the two.
    private let clientForHandler = Locked<MQTTClient?>(nil)

    /// Connects at once, in the background. `handler` hears the link's status and the polls asked
    /// (`RoomEvent.poll`, `.pollClosed`), on the link's own queue.
    public init(address: RoomAddress, password: String, participant: ParticipantID, clock: any HostClock = SystemClock(),
                timing: MQTTClient.Timing = MQTTClient.Timing(), handler: @escaping @Sendable (RoomLinkUpdate) -> Void) {
        self.participant = participant
        let presence = RoomTopic.presence(participant).name
        let session = MQTTSession.Configuration(
            clientID: participant.value, username: RoomCredentials.participantUser, password: password,
            will: MQTTMessage(topic: presence, payload: RoomMessages.payload(Presence.offline), qos: .atLeastOnce, retain: true),
            subscriptions: [MQTTPacket.Subscription(filter: RoomTopic.poll.name, qos: .atLeastOnce)])
        let shared = shared
        // The client calls back on its queue, after this init: the box hands it the client once made.
        let box = clientForHandler
        client = MQTTClient(host: address.host, port: address.port, session: session, timing: timing, clock: clock) { event in
            switch event {
            case .connected:
                let state = shared.withLock { shared in
                    shared.connected = true
                    return shared.latestState
                }
                box.withLock { $0 }?.publish(MQTTMessage(topic: presence, payload: RoomMessages.payload(Presence.online), qos: .atLeastOnce, retain: true))
                if let state { box.withLock { $0 }?.publish(state) }
                handler(.status(.connected))
            case .connectionLost(let problem):
                shared.withLock { $0.connected = false }
                handler(.status(.reconnecting(problem: problem)))
            case .refused(let code):
                shared.withLock { $0.connected = false }
                handler(.status(.refused(problem: RoomCredentials.refusal(code, of: "room password"))))
            case .message(let message):
                switch RoomMessages.event(topic: message.topic, payload: message.payload) {
                case .poll(let poll)?: handler(.event(.poll(poll)))
                case .pollClosed?: handler(.event(.pollClosed))
                default: break
                }
            }
        }
        box.withLock { $0 = client }
        handler(.status(.connecting))
        client.start()
    }

    public func publish(_ progress: ParticipantProgress) {
        guard let payload = try? RoomMessages.payload(progress) else { return }
        let message = MQTTMessage(topic: RoomTopic.state(participant).name, payload: payload, qos: .atLeastOnce, retain: true)
        let connected = shared.withLock { shared in
            shared.latestState = message
            return shared.connected
        }
        if connected { client.publish(message) }
    }

    /// Retained, so a presenter who connects after the answer still counts it; the poll's id keeps an answer to an
    /// earlier asking out of a later count.
    public func answer(_ answer: PollAnswer) {
        guard let payload = try? RoomMessages.payload(answer) else { return }
        client.publish(MQTTMessage(topic: RoomTopic.answer(participant).name, payload: payload, qos: .atLeastOnce, retain: true))
    }

    /// Publishes `offline` and disconnects cleanly; returns once both were handed to the socket. A clean disconnect
    /// discards the will, hence the explicit `offline`.
    public func leave() {
        client.publish(MQTTMessage(topic: RoomTopic.presence(participant).name, payload: RoomMessages.payload(Presence.offline),
                                   qos: .atLeastOnce, retain: true))
        client.disconnect()
        clientForHandler.withLock { $0 = nil }
    }
}

extension RoomCredentials {
    /// Why a broker refused a link, in the room's words: a room's broker refuses a wrong password as not authorised.
    static func refusal(_ code: ConnectReturnCode, of password: String) -> String {
        switch code {
        case .badUsernameOrPassword, .notAuthorized: "wrong \(password): check it and join again"
        default: code.description
        }
    }
}

/// A value shared between a link's callers and its client's queue, behind a lock (a class, so closures can share it).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout sending Value) -> sending Result) -> Result {
        mutex.withLock(body)
    }
}
