import MQTT
import Testing
import TourTestSupport

@Suite(.bodiesBelowTheRunner) struct MQTTSessionTests {
    static let second: UInt64 = 1_000_000_000
    let will = MQTTMessage(topic: "room/me/presence", payload: Array("offline".utf8), qos: .atLeastOnce, retain: true)
    let poll = MQTTPacket.Subscription(filter: "room/poll", qos: .atLeastOnce)

    func session(keepAlive: UInt16 = 10, maximumInFlight: Int = 100) -> MQTTSession {
        MQTTSession(MQTTSession.Configuration(clientID: "me", username: "participant", password: "secret", will: will,
                                              keepAlive: keepAlive, subscriptions: [poll], maximumInFlight: maximumInFlight))
    }

    func state(_ number: Int) -> MQTTMessage {
        MQTTMessage(topic: "room/me/state", payload: Array("\(number)".utf8), qos: .atLeastOnce, retain: true)
    }

    /// Opened, CONNACK accepted, the subscription acknowledged: a session ready to publish.
    func connected(_ session: inout MQTTSession, at now: UInt64 = 0) {
        _ = session.opened(now: now)
        _ = session.received(.connectAcknowledgement(sessionPresent: false, returnCode: .accepted), now: now)
    }

    @Test func connectCarriesTheCredentialsWillAndACleanSession() {
        var session = session()
        #expect(session.opened(now: 0) == [.send(.connect(MQTTPacket.Connect(
            clientID: "me", cleanSession: true, keepAlive: 10, username: "participant", password: "secret", will: will)))])
        #expect(session.state == .connecting)
    }

    @Test func anAcceptedConnectionSubscribesAndSaysSo() {
        var session = session()
        _ = session.opened(now: 0)
        let outputs = session.received(.connectAcknowledgement(sessionPresent: false, returnCode: .accepted), now: 0)
        #expect(outputs == [.send(.subscribe(packetID: 1, subscriptions: [poll])), .connected])
        #expect(session.state == .connected)
        #expect(session.received(.subscribeAcknowledgement(packetID: 1, returnCodes: [1]), now: 0) == [])
    }

    @Test func aRefusedConnectionIsReportedWithItsCode() {
        var session = session()
        _ = session.opened(now: 0)
        #expect(session.received(.connectAcknowledgement(sessionPresent: false, returnCode: .badUsernameOrPassword), now: 0)
            == [.refused(.badUsernameOrPassword)])
        #expect(session.state == .disconnected)
    }

    @Test func aRefusedSubscriptionDropsTheConnection() {
        var session = session()
        connected(&session)
        #expect(session.received(.subscribeAcknowledgement(packetID: 1, returnCodes: [0x80]), now: 0)
            == [.drop(problem: "the broker refused the subscription to room/poll")])
    }

    @Test func aQoS1MessageStaysInFlightUntilAcknowledged() {
        var session = session()
        connected(&session)
        #expect(session.publish(state(1), now: 0) == [.send(.publish(MQTTPacket.Publish(message: state(1), packetID: 2)))])
        #expect(session.inFlight.map(\.packetID) == [2])
        #expect(session.received(.publishAcknowledgement(packetID: 2), now: 0) == [])
        #expect(session.inFlight.isEmpty)
    }

    /// Sent before the connection was lost and never acknowledged: sent again with DUP on the next connection, after
    /// the subscription; a message published while disconnected goes out then too, for the first time (no DUP).
    @Test func unacknowledgedMessagesAreSentAgainWithDUPAfterAReconnect() {
        var session = session()
        connected(&session)
        _ = session.publish(state(1), now: 0)
        session.closed()
        #expect(session.publish(state(2), now: 0) == [])
        _ = session.opened(now: 0)
        let outputs = session.received(.connectAcknowledgement(sessionPresent: false, returnCode: .accepted), now: 0)
        #expect(outputs == [
            .send(.subscribe(packetID: 4, subscriptions: [poll])),
            .send(.publish(MQTTPacket.Publish(message: state(1), packetID: 2, duplicate: true))),
            .send(.publish(MQTTPacket.Publish(message: state(2), packetID: 3, duplicate: false))),
            .connected,
        ])
    }

    @Test func aQoS0MessageWhileDisconnectedIsDropped() {
        var session = session()
        var message = state(1)
        message.qos = .atMostOnce
        #expect(session.publish(message, now: 0) == [])
        #expect(session.inFlight.isEmpty)
    }

    /// A broker that never acknowledges cannot grow the session: past the maximum, the oldest is dropped and counted.
    @Test func inFlightMessagesAreBounded() {
        var session = session(maximumInFlight: 3)
        for number in 1...10 { _ = session.publish(state(number), now: 0) }
        #expect(session.inFlight.map(\.message) == [state(8), state(9), state(10)])
        #expect(session.droppedInFlight == 7)
    }

    /// Ids count up to 65,535, then start again at 1, skipping the ones still in flight (here the first message's,
    /// never acknowledged) and the subscription's.
    @Test func packetIDsWrapAroundSkippingZeroAndTheOnesInFlight() throws {
        var session = session()
        connected(&session)
        let kept = try #require(sentPacketID(session.publish(state(0), now: 0)))
        var ids: [UInt16?] = []
        for number in 1...65_536 {
            let id = sentPacketID(session.publish(state(number), now: 0))
            ids.append(id)
            _ = session.received(.publishAcknowledgement(packetID: id ?? 0), now: 0)
        }
        #expect(kept == 2)
        #expect(!ids.contains(nil))
        #expect(ids.prefix(3) == [3, 4, 5])
        // After 65,535 the ids go on at 3: 0 is not an id, 1 is the unacknowledged subscription's, 2 is in flight.
        #expect(ids[65_532] == 65_535)
        #expect(ids[65_533] == 3)
        #expect(session.inFlight.map(\.packetID) == [2])
    }

    func sentPacketID(_ outputs: [MQTTSession.Output]) -> UInt16? {
        guard case .send(.publish(let publish))? = outputs.first else { return nil }
        return publish.packetID
    }

    @Test func anIncomingQoS1MessageIsAcknowledgedAndDelivered() {
        var session = session()
        connected(&session)
        let message = MQTTMessage(topic: "room/poll", payload: [1], qos: .atLeastOnce, retain: true)
        #expect(session.received(.publish(MQTTPacket.Publish(message: message, packetID: 77)), now: 0)
            == [.send(.publishAcknowledgement(packetID: 77)), .deliver(message)])
    }

    /// Nothing sent for a keep-alive: a PINGREQ; its PINGRESP clears it; a PINGREQ unanswered for as long again drops
    /// the connection. Each due time follows from the last packet sent.
    @Test func keepAliveFallsDueFromTheLastPacketSent() {
        var session = session(keepAlive: 10)
        #expect(session.keepAliveDue == nil)
        connected(&session, at: 0)
        #expect(session.keepAliveDue == 10 * Self.second)
        _ = session.publish(state(1), now: 4 * Self.second)
        #expect(session.keepAliveDue == 14 * Self.second)
        #expect(session.keepAliveTick(now: 13 * Self.second) == [])
        #expect(session.keepAliveTick(now: 14 * Self.second) == [.send(.pingRequest)])
        #expect(session.keepAliveDue == 24 * Self.second)
        #expect(session.received(.pingResponse, now: 15 * Self.second) == [])
        #expect(session.keepAliveDue == 24 * Self.second)
        #expect(session.keepAliveTick(now: 24 * Self.second) == [.send(.pingRequest)])
        #expect(session.keepAliveTick(now: 34 * Self.second) == [.drop(problem: "the broker did not answer for 10 s")])
        #expect(session.state == .disconnected)
    }

    @Test func aPacketOutOfTurnDropsTheConnection() {
        var session = session()
        _ = session.opened(now: 0)
        #expect(session.received(.pingResponse, now: 0) == [.drop(problem: "the broker sent PINGRESP out of turn")])
    }

    @Test func aCleanDisconnectSendsDISCONNECTOnce() {
        var session = session()
        connected(&session)
        #expect(session.disconnect(now: 0) == [.send(.disconnect)])
        #expect(session.disconnect(now: 0) == [])
    }
}
