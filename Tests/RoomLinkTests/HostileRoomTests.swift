import Dispatch
import Foundation
import MQTT
@testable import RoomLink
import RoomProtocol
import Testing
import TourCore
import TourTestSupport

/// Someone in the room with its password and a client of their own: what they send never crashes the leader, grows it
/// without bound, reaches the terminal raw, or changes another participant's state.
@Suite(.bodiesBelowTheRunner) struct HostileRoomTests {
    let victim = participantID(0)

    /// A room with a leader, a victim whose state the leader has heard, and an observer with the leader's password
    /// that hears every message the broker passes on, in the order each sender sent them.
    final class Room: Sendable {
        let room: TestRoom
        let observed = HeardEvents<MQTTClient.Event>()
        let observer: MQTTClient

        var broker: MosquittoBroker { room.broker }
        var heard: HeardEvents<RoomLinkUpdate> { room.heard }

        init() async throws {
            room = try await TestRoom(participants: 1)
            observer = rawClient(room.broker, id: "observer", asLeader: true, subscriptions: ["\(RoomTopic.root)/#"], heard: observed)
            observer.start()
            room.participants[0].publish(progress("victim", page: "05-InPractice"))
            let victim = room.ids[0]
            #expect(await observed.wait { $0.contains(.connected) })
            #expect(await room.heard.wait { RoomView($0).page(of: victim) == "05-InPractice" })
        }

        func leave() {
            observer.disconnect()
            room.leave()
        }

        /// Whether the observer heard a message on `topic` whose payload `matches`.
        func observedMessage(on topic: String, where matches: ([UInt8]) -> Bool = { _ in true }) -> Bool {
            observed.all.contains { if case .message(let message) = $0 { message.topic == topic && matches(message.payload) } else { false } }
        }
    }

    func room() async throws -> Room {
        try await Room()
    }

    /// A hostile client, connected.
    func hostile(_ room: Room, id: String) async throws -> (MQTTClient, HeardEvents<MQTTClient.Event>) {
        let heard = HeardEvents<MQTTClient.Event>()
        let client = rawClient(room.broker, id: id, heard: heard)
        client.start()
        #expect(await heard.wait { $0.contains(.connected) })
        return (client, heard)
    }

    @Test func garbageJSONIsUnreadableAndNamesItsSender() async throws {
        let room = try await room()
        defer { room.leave() }
        let id = participantID(66)
        let (client, _) = try await hostile(room, id: id.value)
        defer { client.disconnect() }
        client.publish(MQTTMessage(topic: RoomTopic.state(id).name, payload: Array("{\"format\": [1,".utf8), qos: .atLeastOnce, retain: true))
        #expect(await room.heard.wait { !RoomView($0).unreadable.isEmpty })
        let unreadable = try #require(RoomView(room.heard.all).unreadable.first)
        #expect(unreadable.0 == id)
        #expect(unreadable.1 == "sent a state that is not valid JSON")
    }

    @Test func escapeSequencesInANameNeverReachTheLeaderRaw() async throws {
        let room = try await room()
        defer { room.leave() }
        let id = participantID(66)
        let (client, _) = try await hostile(room, id: id.value)
        defer { client.disconnect() }
        let payload = try RoomMessages.payload(progress("\u{1B}[2J\u{1B}]0;owned\u{07}eve\r\n\u{9B}31m", page: "01-Operation"))
        client.publish(MQTTMessage(topic: RoomTopic.state(id).name, payload: payload, qos: .atLeastOnce, retain: true))
        #expect(await room.heard.wait { RoomView($0).states[id] != nil })
        let name = try #require(RoomView(room.heard.all).states[id]?.participant)
        #expect(name.contains("eve"))
        #expect(!name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(name.debugDescription)")
    }

    /// The broker's access list keeps each participant to its own topics (and the poll to the leader), whatever client
    /// id it takes: its own, or one made to match another's topic through the list's patterns (`tour-test-0/state`).
    /// Each attacker then writes a topic of its own, which the observer hears after anything the broker passed on
    /// before it.
    @Test(arguments: ["tour-mallory", "tour-test-0/state", "tour-test-0/answers"])
    func aParticipantCannotWriteAnothersState(attacker: String) async throws {
        let room = try await room()
        defer { room.leave() }
        let (client, _) = try await hostile(room, id: attacker)
        defer { client.disconnect() }
        let forged = try RoomMessages.payload(progress("forged", page: "14-Starvation"))
        for topic in [RoomTopic.state(victim), .presence(victim), .answer(victim), .poll] {
            client.publish(MQTTMessage(topic: topic.name, payload: forged, qos: .atLeastOnce, retain: true))
        }
        let marker = "\(RoomTopic.root)/participants/\(attacker)/presence"
        client.publish(MQTTMessage(topic: marker, payload: Array("online".utf8), qos: .atLeastOnce))
        #expect(await room.observed.wait { _ in room.observedMessage(on: marker) })
        for topic in [RoomTopic.state(victim), .presence(victim), .answer(victim), .poll] {
            #expect(!room.observedMessage(on: topic.name) { $0 == forged }, "\(attacker) wrote \(topic.name)")
        }
        #expect(RoomView(room.heard.all).page(of: victim) == "05-InPractice")
    }

    /// A payload over `RoomMessages.maximumPayload`: the broker refuses it (and drops the connection that sent it);
    /// nothing of it reaches the leader.
    @Test func aPayloadOverTheLimitNeverReachesTheLeader() async throws {
        let room = try await room()
        defer { room.leave() }
        let id = participantID(66)
        let (client, heard) = try await hostile(room, id: id.value)
        defer { client.disconnect() }
        let huge = Array(repeating: UInt8(ascii: " "), count: RoomMessages.maximumPayload + 10_000)
        // At QoS 0, so that it is not sent again on reconnecting; the marker after it is, if the broker dropped the
        // connection before taking it.
        client.publish(MQTTMessage(topic: RoomTopic.state(id).name, payload: huge, qos: .atMostOnce, retain: true))
        let marker = RoomTopic.presence(id).name
        client.publish(MQTTMessage(topic: marker, payload: Array("online".utf8), qos: .atLeastOnce))
        #expect(await room.observed.wait { _ in room.observedMessage(on: marker) })
        #expect(heard.all.contains { $0.isConnectionLost }, "the broker kept the connection that sent \(huge.count) bytes")
        #expect(!room.observedMessage(on: RoomTopic.state(id).name))
        #expect(RoomView(room.heard.all).states[id] == nil)
    }

    /// A thousand states from one participant as fast as it can send them, while the leader's handler is busy: what
    /// waits for the handler stays one event for that participant's state topic, and the handler ends on the latest.
    @Test func aFloodKeepsTheLeaderBoundedAndEndsOnTheLatest() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let id = participantID(66)
        let heard = HeardEvents<RoomLinkUpdate>()
        let busy = DispatchSemaphore(value: 0)
        let firstFlood = HeardEvents<Bool>()
        let leader = LeaderLink(address: broker.localAddress, password: broker.passwords.leader, timing: quickRetries) { update in
            heard.record(update)
            if case .event(.state(id, _)) = update, firstFlood.all.isEmpty {
                firstFlood.record(true)
                // The handler is busy: everything heard meanwhile waits in the link.
                busy.wait()
            }
        }
        defer { leader.leave() }
        var released = false
        defer { if !released { busy.signal() } }
        #expect(await heard.wait { $0.contains(.status(.connected)) })

        let flooder = HeardEvents<MQTTClient.Event>()
        let client = rawClient(broker, id: id.value, heard: flooder)
        defer { client.disconnect() }
        client.start()
        #expect(await flooder.wait { $0.contains(.connected) })
        let states = try (1...1000).map { try RoomMessages.payload(progress("flood \($0)", page: "01-Operation")) }
        for payload in states {
            client.publish(MQTTMessage(topic: RoomTopic.state(id).name, payload: payload, qos: .atLeastOnce, retain: true))
        }
        #expect(await firstFlood.wait { !$0.isEmpty })
        var mostWaiting = 0
        let latestWaits = await eventually(timeout: 60) {
            let waiting = leader.waitingEvents
            mostWaiting = max(mostWaiting, waiting.count)
            return waiting.contains { if case .state(id, let state) = $0 { state.participant == "flood 1000" } else { false } }
        }
        #expect(latestWaits)
        #expect(mostWaiting == 1)
        busy.signal()
        released = true
        #expect(await heard.wait { updates in RoomView(updates).states[id]?.participant == "flood 1000" })
        let delivered = heard.all.filter { if case .event(.state(id, _)) = $0 { true } else { false } }
        #expect(delivered.count <= 3, "the handler was handed \(delivered.count) of the 1000 states")
    }
}
