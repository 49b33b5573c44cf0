/// Bytes that are not the MQTT 3.1.1 a broker may send: the connection they came on cannot be trusted further.
public struct MQTTDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Reads packets out of a byte stream as it arrives, in pieces of any size.
///
/// It never holds more than one packet of at most `maximumPacketSize` bytes and the piece last appended: a packet
/// announcing a larger size is refused as soon as its length is read, before its body arrives.
public struct MQTTPacketDecoder: Sendable {
    /// The largest packet read, fixed header included.
    public let maximumPacketSize: Int
    private var buffer: [UInt8] = []
    /// Where the next packet starts in `buffer`; bytes before it are read and dropped in batches.
    private var start = 0

    public init(maximumPacketSize: Int) {
        self.maximumPacketSize = maximumPacketSize
    }

    /// Bytes held that are not yet a whole packet.
    public var bufferedCount: Int { buffer.count - start }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole packet, nil when more bytes are needed, or an error for bytes that are not MQTT.
    public mutating func next() throws(MQTTDecodingError) -> MQTTPacket? {
        guard start < buffer.count else { return nil }
        var length = 0
        var multiplier = 1
        var index = start + 1
        while true {
            guard index < buffer.count else { return nil }
            let digit = buffer[index]
            length += Int(digit & 0x7F) * multiplier
            index += 1
            if digit & 0x80 == 0 { break }
            multiplier *= 128
            guard index - start <= 4 else { throw MQTTDecodingError("a packet's remaining length runs past four bytes") }
        }
        let headerSize = index - start
        guard headerSize + length <= maximumPacketSize else {
            throw MQTTDecodingError("a packet of \(headerSize + length) bytes is larger than the \(maximumPacketSize) this client reads")
        }
        guard buffer.count - index >= length else { return nil }
        let first = buffer[start]
        let packet = try Self.decode(kind: first >> 4, flags: first & 0x0F, body: buffer[index..<index + length])
        start = index + length
        return packet
    }

    private static func decode(kind rawKind: UInt8, flags: UInt8, body: ArraySlice<UInt8>) throws(MQTTDecodingError) -> MQTTPacket {
        guard let kind = MQTTPacket.Kind(rawValue: rawKind) else {
            throw MQTTDecodingError("packet type \(rawKind) does not exist in MQTT 3.1.1")
        }
        let expectedFlags: UInt8 = switch kind {
        case .publish: flags
        case .publishRelease, .subscribe, .unsubscribe: 0x02
        default: 0
        }
        guard flags == expectedFlags else { throw MQTTDecodingError("packet type \(rawKind) has reserved flags \(flags)") }
        var reader = PacketReader(bytes: body)
        let packet: MQTTPacket
        switch kind {
        case .connect:
            guard try reader.string() == "MQTT", try reader.byte() == 4 else {
                throw MQTTDecodingError("a CONNECT that is not MQTT 3.1.1")
            }
            let connectFlags = try reader.byte()
            let keepAlive = try reader.uint16()
            let clientID = try reader.string()
            var will: MQTTMessage?
            if connectFlags & 0x04 != 0 {
                guard let qos = MQTTQoS(rawValue: connectFlags >> 3 & 0x03) else {
                    throw MQTTDecodingError("a CONNECT whose will asks for QoS \(connectFlags >> 3 & 0x03)")
                }
                will = MQTTMessage(topic: try reader.string(), payload: try reader.binary(), qos: qos,
                                   retain: connectFlags & 0x20 != 0)
            }
            let username = connectFlags & 0x80 != 0 ? try reader.string() : nil
            let password = connectFlags & 0x40 != 0 ? String(decoding: try reader.binary(), as: UTF8.self) : nil
            packet = .connect(MQTTPacket.Connect(clientID: clientID, cleanSession: connectFlags & 0x02 != 0, keepAlive: keepAlive,
                                                 username: username, password: password, will: will))
        case .connectAcknowledgement:
            let acknowledgeFlags = try reader.byte()
            let code = try reader.byte()
            guard acknowledgeFlags & 0xFE == 0, let returnCode = ConnectReturnCode(rawValue: code) else {
                throw MQTTDecodingError("a CONNACK with flags \(acknowledgeFlags) and return code \(code)")
            }
            packet = .connectAcknowledgement(sessionPresent: acknowledgeFlags == 1, returnCode: returnCode)
        case .publish:
            guard let qos = MQTTQoS(rawValue: flags >> 1 & 0x03) else {
                throw MQTTDecodingError("a PUBLISH at QoS \(flags >> 1 & 0x03), which this client never asks for")
            }
            let topic = try reader.string()
            guard !topic.isEmpty, !topic.contains(where: { $0 == "+" || $0 == "#" }) else {
                throw MQTTDecodingError("a PUBLISH on '\(topic)', which is not a topic name")
            }
            let packetID = qos == .atLeastOnce ? try reader.nonzeroPacketID() : nil
            let message = MQTTMessage(topic: topic, payload: reader.rest(), qos: qos, retain: flags & 0x01 != 0)
            packet = .publish(MQTTPacket.Publish(message: message, packetID: packetID, duplicate: flags & 0x08 != 0))
        case .publishAcknowledgement:
            packet = .publishAcknowledgement(packetID: try reader.nonzeroPacketID())
        case .subscribe:
            let packetID = try reader.nonzeroPacketID()
            var subscriptions: [MQTTPacket.Subscription] = []
            repeat {
                let filter = try reader.string()
                guard let qos = MQTTQoS(rawValue: try reader.byte()) else {
                    throw MQTTDecodingError("a SUBSCRIBE asking for a QoS this client does not speak")
                }
                subscriptions.append(MQTTPacket.Subscription(filter: filter, qos: qos))
            } while !reader.isAtEnd
            packet = .subscribe(packetID: packetID, subscriptions: subscriptions)
        case .subscribeAcknowledgement:
            let packetID = try reader.nonzeroPacketID()
            let codes = reader.rest()
            guard !codes.isEmpty, codes.allSatisfy({ $0 <= 2 || $0 == 0x80 }) else {
                throw MQTTDecodingError("a SUBACK whose return codes are not QoS levels or 0x80")
            }
            packet = .subscribeAcknowledgement(packetID: packetID, returnCodes: codes)
        case .pingRequest: packet = .pingRequest
        case .pingResponse: packet = .pingResponse
        case .disconnect: packet = .disconnect
        case .publishReceived, .publishRelease, .publishComplete, .unsubscribe, .unsubscribeAcknowledgement:
            throw MQTTDecodingError("a packet of type \(rawKind), for QoS 2 or unsubscribing, which this client never asks for")
        }
        guard reader.isAtEnd else { throw MQTTDecodingError("packet type \(rawKind) has bytes after its fields") }
        return packet
    }
}

/// Reads a packet's fields in order, refusing one that runs past the packet's end.
private struct PacketReader {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var isAtEnd: Bool { index == bytes.endIndex }

    mutating func byte() throws(MQTTDecodingError) -> UInt8 {
        guard index < bytes.endIndex else { throw MQTTDecodingError("a packet ends in the middle of a field") }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func uint16() throws(MQTTDecodingError) -> UInt16 {
        UInt16(try byte()) << 8 | UInt16(try byte())
    }

    mutating func nonzeroPacketID() throws(MQTTDecodingError) -> UInt16 {
        let id = try uint16()
        guard id != 0 else { throw MQTTDecodingError("a packet with packet id 0, which MQTT does not allow") }
        return id
    }

    mutating func binary() throws(MQTTDecodingError) -> [UInt8] {
        let count = Int(try uint16())
        guard bytes.endIndex - index >= count else { throw MQTTDecodingError("a packet ends in the middle of a field") }
        defer { index += count }
        return Array(bytes[index..<index + count])
    }

    /// A UTF-8 string field; one that is not UTF-8, or holds U+0000, is malformed (1.5.3).
    mutating func string() throws(MQTTDecodingError) -> String {
        let field = try binary()
        guard let text = String(validating: field, as: UTF8.self), !text.unicodeScalars.contains("\0") else {
            throw MQTTDecodingError("a string field that is not UTF-8")
        }
        return text
    }

    mutating func rest() -> [UInt8] {
        defer { index = bytes.endIndex }
        return Array(bytes[index...])
    }
}
