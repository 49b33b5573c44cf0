import LessonKit
import MQTT
import Testing
import TourTestSupport

@Suite(.bodiesBelowTheRunner) struct MQTTPacketTests {
    static let packets: [MQTTPacket] = [
        .connect(MQTTPacket.Connect(clientID: "tour-0123", keepAlive: 30)),
        .connect(MQTTPacket.Connect(clientID: "tour-0123", keepAlive: 60, username: "participant", password: "pässword",
                                    will: MQTTMessage(topic: "a/b", payload: Array("offline".utf8), qos: .atLeastOnce, retain: true))),
        .connectAcknowledgement(sessionPresent: false, returnCode: .accepted),
        .connectAcknowledgement(sessionPresent: true, returnCode: .badUsernameOrPassword),
        .publish(MQTTPacket.Publish(message: MQTTMessage(topic: "a/b", payload: []))),
        .publish(MQTTPacket.Publish(message: MQTTMessage(topic: "a/ü", payload: Array(repeating: 7, count: 300), qos: .atLeastOnce,
                                                         retain: true), packetID: 65535, duplicate: true)),
        .publishAcknowledgement(packetID: 1),
        .subscribe(packetID: 9, subscriptions: [MQTTPacket.Subscription(filter: "a/+/b", qos: .atLeastOnce),
                                                MQTTPacket.Subscription(filter: "#", qos: .atMostOnce)]),
        .subscribeAcknowledgement(packetID: 9, returnCodes: [1, 0x80]),
        .pingRequest, .pingResponse, .disconnect,
    ]

    @Test func everyPacketReadsBackAsItself() throws {
        for packet in Self.packets {
            var decoder = MQTTPacketDecoder(maximumPacketSize: 1 << 20)
            decoder.append(packet.encoded())
            #expect(try decoder.next() == packet)
            #expect(try decoder.next() == nil)
            #expect(decoder.bufferedCount == 0)
        }
    }

    /// As a socket hands them over: every packet one after the other, cut into pieces of every size from 1 to 17 bytes.
    @Test func packetsArrivingInPiecesReadBackInOrder() throws {
        let stream = Self.packets.flatMap { $0.encoded() }
        for pieceSize in 1...17 {
            var decoder = MQTTPacketDecoder(maximumPacketSize: 1 << 20)
            var read: [MQTTPacket] = []
            var offset = 0
            while offset < stream.count {
                decoder.append(stream[offset..<min(offset + pieceSize, stream.count)])
                offset += pieceSize
                while let packet = try decoder.next() { read.append(packet) }
            }
            #expect(read == Self.packets, "in pieces of \(pieceSize)")
        }
    }

    /// The bytes of the standard's own examples: a PINGREQ, and a CONNACK.
    @Test func encodesAsTheStandardSays() {
        #expect(MQTTPacket.pingRequest.encoded() == [0xC0, 0x00])
        #expect(MQTTPacket.connectAcknowledgement(sessionPresent: false, returnCode: .accepted).encoded() == [0x20, 0x02, 0x00, 0x00])
        let connect = MQTTPacket.connect(MQTTPacket.Connect(clientID: "c", keepAlive: 10)).encoded()
        #expect(connect == [0x10, 13, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 10, 0, 1, 0x63])
        // 321 bytes of remaining length take two bytes: 321 = 65 + 2 × 128.
        let publish = MQTTPacket.publish(MQTTPacket.Publish(message: MQTTMessage(topic: "t", payload: Array(repeating: 0, count: 318))))
        #expect(Array(publish.encoded().prefix(3)) == [0x30, 0xC1, 0x02])
    }

    @Test(arguments: [
        ([0xF0, 0x00], "packet type 15 does not exist"),
        ([0x00, 0x00], "packet type 0 does not exist"),
        ([0xC1, 0x00], "reserved flags"),
        ([0x36, 0x03, 0x00, 0x01, 0x61], "QoS 3"),
        ([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], "runs past four bytes"),
        ([0x30, 0x80, 0x80, 0x80, 0x01], "larger than the 1024"),
        ([0x20, 0x02, 0x00, 0x09], "return code 9"),
        ([0x30, 0x03, 0x00, 0x05, 0x61], "ends in the middle of a field"),
        ([0x30, 0x04, 0x00, 0x02, 0xC3, 0x28], "not UTF-8"),
        ([0x30, 0x04, 0x00, 0x02, 0x61, 0x23], "not a topic name"),
        ([0x32, 0x05, 0x00, 0x01, 0x61, 0x00, 0x00], "packet id 0"),
        ([0x40, 0x03, 0x00, 0x01, 0x00], "bytes after its fields"),
        ([0x50, 0x02, 0x00, 0x01], "QoS 2"),
        ([0x90, 0x03, 0x00, 0x01, 0x05], "not QoS levels"),
    ] as [([UInt8], String)])
    func garbageIsAnErrorNamingWhatIsWrong(bytes: [UInt8], problem: String) throws {
        var decoder = MQTTPacketDecoder(maximumPacketSize: 1024)
        decoder.append(bytes)
        let error = try #require(throws: MQTTDecodingError.self) { _ = try decoder.next() }
        #expect(error.description.contains(problem), "\(error.description)")
    }

    /// A packet announcing more than the maximum is refused on its length alone, before its body is held.
    @Test func anOversizedPacketIsRefusedBeforeItsBodyArrives() throws {
        var decoder = MQTTPacketDecoder(maximumPacketSize: 64 * 1024)
        let huge = MQTTPacket.publish(MQTTPacket.Publish(message: MQTTMessage(topic: "t", payload: Array(repeating: 1, count: 100_000))))
        decoder.append(huge.encoded().prefix(5))
        #expect(throws: MQTTDecodingError.self) { _ = try decoder.next() }
        #expect(decoder.bufferedCount == 5)
    }

    /// Random bytes, as a hostile or broken peer might send: each is a packet, an error, or a wait for more; the
    /// decoder never holds more than it was given and never traps.
    @Test func randomBytesNeverTrapOrGrowTheDecoder() throws {
        // Seeded, so a failure repeats.
        var generator = PageRandom(stream: "mqtt-garbage", seed: 35)
        for _ in 0..<2000 {
            var decoder = MQTTPacketDecoder(maximumPacketSize: 256)
            let bytes = (0..<Int(generator.next() % 40)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            decoder.append(bytes)
            while (try? decoder.next()) != nil {}
            #expect(decoder.bufferedCount <= bytes.count)
        }
    }
}
