/// The MQTT 3.1.1 control packets a client sends and receives at QoS 0 and 1, as the OASIS standard of 29 October
/// 2014 has them (section 3). QoS 2's packets and UNSUBSCRIBE are not used: a client that never asks for QoS 2 is
/// never sent it, and its subscriptions last as long as its connection.
public enum MQTTPacket: Equatable, Sendable {
    case connect(Connect)
    case connectAcknowledgement(sessionPresent: Bool, returnCode: ConnectReturnCode)
    case publish(Publish)
    case publishAcknowledgement(packetID: UInt16)
    case subscribe(packetID: UInt16, subscriptions: [Subscription])
    /// One return code for each subscription asked for: the QoS granted (0–2), or 0x80 for a refused one.
    case subscribeAcknowledgement(packetID: UInt16, returnCodes: [UInt8])
    case pingRequest
    case pingResponse
    case disconnect

    /// CONNECT's fields (3.1): a clean session every time, since a client's subscriptions are made again on connecting.
    public struct Connect: Equatable, Sendable {
        public var clientID: String
        public var cleanSession: Bool
        /// Seconds; 0 turns the broker's keep-alive off.
        public var keepAlive: UInt16
        public var username: String?
        public var password: String?
        public var will: MQTTMessage?

        public init(clientID: String, cleanSession: Bool = true, keepAlive: UInt16, username: String? = nil,
                    password: String? = nil, will: MQTTMessage? = nil) {
            self.clientID = clientID
            self.cleanSession = cleanSession
            self.keepAlive = keepAlive
            self.username = username
            self.password = password
            self.will = will
        }
    }

    /// A PUBLISH (3.3): the message, its packet id at QoS 1, and DUP when it is sent again.
    public struct Publish: Equatable, Sendable {
        public var message: MQTTMessage
        /// Present exactly when the QoS is 1.
        public var packetID: UInt16?
        public var duplicate: Bool

        public init(message: MQTTMessage, packetID: UInt16? = nil, duplicate: Bool = false) {
            self.message = message
            self.packetID = packetID
            self.duplicate = duplicate
        }
    }

    /// A topic filter and the highest QoS the client wants on it.
    public struct Subscription: Equatable, Sendable {
        public var filter: String
        public var qos: MQTTQoS

        public init(filter: String, qos: MQTTQoS) {
            self.filter = filter
            self.qos = qos
        }
    }
}

/// The delivery guarantees this client offers: at most once, or at least once (acknowledged, resent until it is).
public enum MQTTQoS: UInt8, Equatable, Sendable {
    case atMostOnce = 0
    case atLeastOnce = 1
}

/// A message on a topic: what a PUBLISH and a CONNECT's will carry.
public struct MQTTMessage: Equatable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    /// Kept by the broker as the topic's latest message, for whoever subscribes later; an empty retained payload
    /// removes the one kept.
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}

/// CONNACK's return codes (3.2.2.3).
public enum ConnectReturnCode: UInt8, Equatable, Sendable, CustomStringConvertible {
    case accepted = 0
    case unacceptableProtocolVersion = 1
    case identifierRejected = 2
    case serverUnavailable = 3
    case badUsernameOrPassword = 4
    case notAuthorized = 5

    public var description: String {
        switch self {
        case .accepted: "connection accepted"
        case .unacceptableProtocolVersion: "the broker does not speak MQTT 3.1.1"
        case .identifierRejected: "the broker rejected the client id"
        case .serverUnavailable: "the broker is unavailable"
        case .badUsernameOrPassword: "the broker refused the user name or password"
        case .notAuthorized: "the broker did not authorize this client"
        }
    }
}

extension MQTTPacket {
    /// The packet's type, the high four bits of its first byte.
    enum Kind: UInt8 {
        case connect = 1, connectAcknowledgement, publish, publishAcknowledgement, publishReceived, publishRelease,
             publishComplete, subscribe, subscribeAcknowledgement, unsubscribe, unsubscribeAcknowledgement,
             pingRequest, pingResponse, disconnect
    }

    /// The packet as bytes on the wire.
    public func encoded() -> [UInt8] {
        var body = PacketWriter()
        let kind: Kind
        var flags: UInt8 = 0
        switch self {
        case .connect(let connect):
            kind = .connect
            body.string("MQTT")
            body.byte(4)
            var connectFlags: UInt8 = connect.cleanSession ? 0x02 : 0
            if let will = connect.will {
                connectFlags |= 0x04 | will.qos.rawValue << 3 | (will.retain ? 0x20 : 0)
            }
            if connect.password != nil { connectFlags |= 0x40 }
            if connect.username != nil { connectFlags |= 0x80 }
            body.byte(connectFlags)
            body.uint16(connect.keepAlive)
            body.string(connect.clientID)
            if let will = connect.will {
                body.string(will.topic)
                body.binary(will.payload)
            }
            if let username = connect.username { body.string(username) }
            if let password = connect.password { body.binary(Array(password.utf8)) }
        case .connectAcknowledgement(let sessionPresent, let returnCode):
            kind = .connectAcknowledgement
            body.byte(sessionPresent ? 1 : 0)
            body.byte(returnCode.rawValue)
        case .publish(let publish):
            kind = .publish
            flags = (publish.duplicate ? 0x08 : 0) | publish.message.qos.rawValue << 1 | (publish.message.retain ? 0x01 : 0)
            body.string(publish.message.topic)
            if let packetID = publish.packetID { body.uint16(packetID) }
            body.bytes.append(contentsOf: publish.message.payload)
        case .publishAcknowledgement(let packetID):
            kind = .publishAcknowledgement
            body.uint16(packetID)
        case .subscribe(let packetID, let subscriptions):
            kind = .subscribe
            flags = 0x02
            body.uint16(packetID)
            for subscription in subscriptions {
                body.string(subscription.filter)
                body.byte(subscription.qos.rawValue)
            }
        case .subscribeAcknowledgement(let packetID, let returnCodes):
            kind = .subscribeAcknowledgement
            body.uint16(packetID)
            body.bytes.append(contentsOf: returnCodes)
        case .pingRequest: kind = .pingRequest
        case .pingResponse: kind = .pingResponse
        case .disconnect: kind = .disconnect
        }
        var packet: [UInt8] = [kind.rawValue << 4 | flags]
        var remaining = body.bytes.count
        repeat {
            var digit = UInt8(remaining % 128)
            remaining /= 128
            if remaining > 0 { digit |= 0x80 }
            packet.append(digit)
        } while remaining > 0
        return packet + body.bytes
    }
}

/// A packet's bytes after its fixed header, as they are built.
private struct PacketWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }

    /// A UTF-8 string or binary field: two bytes of length, then the bytes (at most 65,535: longer ones are cut).
    mutating func binary(_ value: [UInt8]) {
        let field = value.prefix(Int(UInt16.max))
        uint16(UInt16(field.count))
        bytes.append(contentsOf: field)
    }

    mutating func string(_ value: String) { binary(Array(value.utf8)) }
}
