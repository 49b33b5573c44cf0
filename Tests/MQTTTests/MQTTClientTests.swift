@preconcurrency import Glibc
import Foundation
import MQTT
import RoomLink
import Testing
import TourCore
import TourTestSupport

/// The socket shell against the real mosquitto (`TestBroker`), and against a peer that speaks no MQTT.
@Suite(.bodiesBelowTheRunner) struct MQTTClientTests {
    /// Retries after a few milliseconds, so a test's reconnects take no longer than the broker's restart.
    static let quickRetries = MQTTClient.Timing(connectTimeout: 10, firstRetry: 20_000_000, longestRetry: 200_000_000)

    func client(_ broker: MosquittoBroker, id: String, password: String? = nil, subscriptions: [String] = [],
                clock: any HostClock = SystemClock(), heard: HeardEvents<MQTTClient.Event>) -> MQTTClient {
        MQTTClient(host: "127.0.0.1", port: broker.port,
                   session: MQTTSession.Configuration(clientID: id, username: "leader", password: password ?? broker.passwords.leader,
                                                      subscriptions: subscriptions.map { MQTTPacket.Subscription(filter: $0, qos: .atLeastOnce) }),
                   timing: Self.quickRetries, clock: clock) { heard.record($0) }
    }

    @Test func publishesAndHearsItsOwnRetainedMessageAtQoS1() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let heard = HeardEvents<MQTTClient.Event>()
        let client = client(broker, id: "echo", subscriptions: ["concurrency-tour/#"], heard: heard)
        defer { client.disconnect() }
        client.start()
        #expect(await heard.wait { $0.contains(.connected) })
        let message = MQTTMessage(topic: "concurrency-tour/poll", payload: Array("hello".utf8), qos: .atLeastOnce, retain: false)
        client.publish(message)
        #expect(await heard.wait { $0.contains(.message(message)) })

        // A second client subscribing later gets the message kept as retained.
        var retained = message
        retained.retain = true
        client.publish(retained)
        let later = HeardEvents<MQTTClient.Event>()
        let latecomer = self.client(broker, id: "late", subscriptions: ["concurrency-tour/poll"], heard: later)
        defer { latecomer.disconnect() }
        latecomer.start()
        #expect(await later.wait { $0.contains(.message(retained)) })
    }

    /// A wrong password is refused, said once, and not tried again: no retry is left scheduled on the client's clock.
    @Test func aWrongPasswordIsRefusedAndNotRetried() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let heard = HeardEvents<MQTTClient.Event>()
        let clock = TestClock()
        let client = client(broker, id: "guess", password: "not-the-password", clock: clock, heard: heard)
        client.start()
        #expect(await heard.wait { !$0.isEmpty })
        // mosquitto refuses a wrong password as not authorised.
        #expect(heard.all == [.refused(.notAuthorized)])
        #expect(await eventually(timeout: 30) { clock.pendingWakes == 0 })
        await clock.advance(by: 60_000_000_000)
        #expect(heard.all.count == 1)
    }

    /// The broker killed: the client says so and tries again on its clock until the broker is back, then subscribes
    /// again and hears what is published.
    @Test func reconnectsAfterTheBrokerIsKilledAndRestarted() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let heard = HeardEvents<MQTTClient.Event>()
        let client = client(broker, id: "survivor", subscriptions: ["concurrency-tour/poll"], heard: heard)
        defer { client.disconnect() }
        client.start()
        #expect(await heard.wait { $0.contains(.connected) })
        await broker.killed()
        #expect(await heard.wait { $0.contains { if case .connectionLost = $0 { true } else { false } } })
        try await broker.restarted()
        #expect(await heard.wait { $0.filter { $0 == .connected }.count == 2 })
        let message = MQTTMessage(topic: "concurrency-tour/poll", payload: [1], qos: .atLeastOnce)
        client.publish(message)
        #expect(await heard.wait { $0.contains(.message(message)) })
    }

    /// A peer that answers CONNECT with bytes that are not MQTT: the connection is dropped with why, never a crash.
    @Test func garbageFromThePeerDropsTheConnectionWithWhy() async throws {
        let peer = try ScriptedPeer(sending: [0x20, 0x02, 0x00, 0x00, 0xF0, 0x00])
        defer { peer.close() }
        let heard = HeardEvents<MQTTClient.Event>()
        let clock = TestClock()
        let client = MQTTClient(host: "127.0.0.1", port: peer.port, session: MQTTSession.Configuration(clientID: "c"),
                                clock: clock) { heard.record($0) }
        defer { client.disconnect() }
        client.start()
        #expect(await heard.wait { $0.count >= 2 })
        #expect(heard.all.first == .connected)
        let lost = try #require(heard.all.dropFirst().first)
        #expect(lost == .connectionLost(problem: "the broker sent something that is not MQTT: packet type 15 does not exist in MQTT 3.1.1"))
    }


    /// A peer that accepts CONNECT and then never answers: the first keep-alive sends a PINGREQ, and the next, a keep-alive
    /// later on the client's clock, finds it unanswered and drops the connection.
    @Test func anUnansweredPingDropsTheConnectionAKeepAliveLater() async throws {
        let peer = try ScriptedPeer(sending: MQTTPacket.connectAcknowledgement(sessionPresent: false, returnCode: .accepted).encoded())
        defer { peer.close() }
        let heard = HeardEvents<MQTTClient.Event>()
        let clock = TestClock()
        let client = MQTTClient(host: "127.0.0.1", port: peer.port, session: MQTTSession.Configuration(clientID: "c", keepAlive: 10),
                                clock: clock) { heard.record($0) }
        defer { client.disconnect() }
        client.start()
        #expect(await heard.wait { $0 == [.connected] })
        await clock.advance(by: 10_000_000_000)
        #expect(heard.all == [.connected])
        await clock.advance(by: 10_000_000_000)
        #expect(await heard.wait { $0.count == 2 })
        #expect(heard.all.last == .connectionLost(problem: "the broker did not answer for 10 s"))
    }

    /// A peer that accepts the TCP connection and never answers CONNECT: given up on after the connect timeout.
    @Test func aCONNECTLeftUnansweredIsGivenUpOn() async throws {
        let peer = try ScriptedPeer(sending: [])
        defer { peer.close() }
        let heard = HeardEvents<MQTTClient.Event>()
        let clock = TestClock()
        let client = MQTTClient(host: "127.0.0.1", port: peer.port, session: MQTTSession.Configuration(clientID: "c"),
                                timing: MQTTClient.Timing(connectTimeout: 5), clock: clock) { heard.record($0) }
        defer { client.disconnect() }
        client.start()
        // The CONNACK wait is scheduled once the connection is open; nothing else is.
        #expect(await eventually(timeout: 30) { clock.pendingWakes == 1 })
        await clock.advance(by: 5_000_000_000)
        #expect(await heard.wait { !$0.isEmpty })
        #expect(heard.all == [.connectionLost(problem: "the broker did not answer CONNECT within 5.0 s")])
    }

    @Test func retriesWaitTwiceAsLongEachTimeUpToTheLongest() {
        var delays = RetryDelays(first: 250, longest: 5000)
        #expect((0..<7).map { _ in delays.next() } == [250, 500, 1000, 2000, 4000, 5000, 5000])
        delays.reset()
        #expect(delays.next() == 250)
    }
}

/// A TCP listener on loopback that sends each connection `bytes` (garbage, or a CONNACK and then silence), and holds
/// it open until the client hangs up.
final class ScriptedPeer: Sendable {
    let port: UInt16
    private let listener: Int32

    init(sending bytes: [UInt8]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, size) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &size) == 0
            }
        }
        try #require(listening)
        port = UInt16(bigEndian: address.sin_port)
        // Every connection is served, each on a thread of its own, until the peer is closed: its port was free a
        // moment ago, so a client of another test, retrying a broker that had this port, may connect first, and the
        // test's own client must not be left waiting behind it (its clock is a test's, so no timeout would end that).
        let thread = Thread {
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return
                }
                let serving = Thread {
                    var sent = 0
                    while sent < bytes.count {
                        let result = bytes.withUnsafeBytes { send(connection, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                        if result < 0 && errno == EINTR { continue }
                        guard result > 0 else { break }
                        sent += result
                    }
                    // Held open until the client hangs up, so only the client can end the connection.
                    var byte: UInt8 = 0
                    while true {
                        let result = read(connection, &byte, 1)
                        if result < 0 && errno == EINTR { continue }
                        if result <= 0 { break }
                    }
                    Glibc.close(connection)
                }
                serving.start()
            }
        }
        thread.start()
    }

    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }
}
