import Dispatch
import MQTT
import RoomProtocol
import Synchronization
import TourCore

/// The leader's link to the room over MQTT: what the dashboard and the presenter hear and say.
///
/// It subscribes to every participant's state and presence, to the answers and to the poll; every message is read by
/// `RoomMessages.event` alone. A room can be hostile: one participant may send a thousand messages a second. What is
/// heard is coalesced per topic, keeping the latest, and handed to the handler on one serial queue whenever it is
/// free, so a handler slower than the room sees fewer, newer events rather than a queue that grows.
public final class LeaderLink: LeaderLinking {
    /// The most topics waiting to be handed over at once; past it, events on new topics wait for the next message on
    /// them. Each participant has three room topics, so this is thousands of participants.
    public static let maximumPendingTopics = 10_000

    private struct Pending {
        /// Topics in the order their first waiting event arrived.
        var order: [String] = []
        var latest: [String: RoomEvent] = [:]
        var deliveryScheduled = false
    }

    private let client: MQTTClient
    private let pending = Locked(Pending())
    private let delivery = DispatchQueue(label: "room-leader-delivery")
    /// The client, for its own handler; emptied on leaving, which ends the cycle between the two.
    private let clientForHandler = Locked<MQTTClient?>(nil)

    /// Connects at once, in the background, as `leader` with the leader's password. `clientID` must differ from
    /// every other client's: the dashboard's and the presenter's each make their own.
    public init(address: RoomAddress, password: String, clientID: String = LeaderLink.freshClientID(),
                clock: any HostClock = SystemClock(), timing: MQTTClient.Timing = MQTTClient.Timing(),
                handler: @escaping @Sendable (RoomLinkUpdate) -> Void) {
        // The broker sends a subscription's retained messages before anything published after it on the same
        // connection, so hearing back a message of its own, published once subscribed, tells the link it has heard
        // every state the room held when it connected.
        let caughtUpTopic = "\(RoomTopic.root)/leaders/\(clientID)/caught-up"
        let session = MQTTSession.Configuration(
            clientID: clientID, username: RoomCredentials.leaderUser, password: password,
            subscriptions: [RoomTopic.participantsFilter, RoomTopic.answersFilter, RoomTopic.poll.name, caughtUpTopic].map {
                MQTTPacket.Subscription(filter: $0, qos: .atLeastOnce)
            })
        let pending = pending
        let delivery = delivery
        /// Hands every waiting event over, each topic's latest once, in the order the topics first arrived.
        @Sendable func deliverPending() {
            let waiting = pending.withLock { pending in
                defer { pending = Pending() }
                return pending.order.compactMap { pending.latest[$0] }
            }
            for event in waiting { handler(.event(event)) }
        }
        let echo = MQTTMessage(topic: caughtUpTopic, payload: [], qos: .atLeastOnce)
        // The client calls back on its queue, after this init: the box hands it the client once made.
        let box = clientForHandler
        client = MQTTClient(host: address.host, port: address.port, session: session, timing: timing, clock: clock) { event in
            switch event {
            case .connected:
                delivery.async { handler(.status(.connected)) }
                box.withLock { $0 }?.publish(echo)
            case .message(let message) where message.topic == caughtUpTopic:
                delivery.async {
                    deliverPending()
                    handler(.caughtUp)
                }
            case .connectionLost(let problem):
                delivery.async { handler(.status(.reconnecting(problem: problem))) }
            case .refused(let code):
                delivery.async { handler(.status(.refused(problem: RoomCredentials.refusal(code, of: "leader password")))) }
            case .message(let message):
                guard let roomEvent = RoomMessages.event(topic: message.topic, payload: message.payload) else { return }
                let schedule = pending.withLock { pending -> Bool in
                    if pending.latest[message.topic] == nil {
                        guard pending.order.count < Self.maximumPendingTopics else { return false }
                        pending.order.append(message.topic)
                    }
                    pending.latest[message.topic] = roomEvent
                    defer { pending.deliveryScheduled = true }
                    return !pending.deliveryScheduled
                }
                if schedule { delivery.async(execute: deliverPending) }
            }
        }
        box.withLock { $0 = client }
        delivery.async { handler(.status(.connecting)) }
        client.start()
    }

    /// The events waiting for the handler, each topic's latest: what a flood can grow, for the tests to see bounded.
    var waitingEvents: [RoomEvent] {
        pending.withLock { pending in pending.order.compactMap { pending.latest[$0] } }
    }

    /// `tour-leader-` and 8 random hex digits.
    public static func freshClientID() -> String {
        "tour-leader-" + String(UInt32.random(in: .min ... .max), radix: 16)
    }

    public func ask(_ poll: RoomPoll) {
        guard let payload = try? RoomMessages.payload(poll) else { return }
        client.publish(MQTTMessage(topic: RoomTopic.poll.name, payload: payload, qos: .atLeastOnce, retain: true))
    }

    /// An empty retained message: the broker forgets the poll, and every subscriber hears `pollClosed`.
    public func closePoll() {
        client.publish(MQTTMessage(topic: RoomTopic.poll.name, payload: [], qos: .atLeastOnce, retain: true))
    }

    public func leave() {
        client.disconnect()
        clientForHandler.withLock { $0 = nil }
    }
}
