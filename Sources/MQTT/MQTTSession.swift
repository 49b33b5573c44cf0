/// What a client must remember across its packets, as pure code: the connection's state, packet ids, the QoS 1
/// messages not yet acknowledged, and when the keep-alive falls due. Time comes in as nanoseconds on a monotonic
/// clock the caller reads; every change returns what the connection must do (`Output`), which the socket shell
/// (`MQTTClient`) performs.
public struct MQTTSession: Sendable {
    public struct Configuration: Sendable {
        public var clientID: String
        public var username: String?
        public var password: String?
        /// What the broker publishes for this client when its connection is lost without a DISCONNECT.
        public var will: MQTTMessage?
        /// Seconds between packets, at most, before a PINGREQ is sent; a PINGRESP not back within as long again means
        /// the connection is dead.
        public var keepAlive: UInt16
        /// Made again on every connect: a clean session keeps nothing on the broker.
        public var subscriptions: [MQTTPacket.Subscription]
        /// The most QoS 1 messages kept until acknowledged; past it the oldest is dropped, so a broker that never
        /// acknowledges cannot grow the client without bound.
        public var maximumInFlight: Int

        public init(clientID: String, username: String? = nil, password: String? = nil, will: MQTTMessage? = nil,
                    keepAlive: UInt16 = 30, subscriptions: [MQTTPacket.Subscription] = [], maximumInFlight: Int = 100) {
            self.clientID = clientID
            self.username = username
            self.password = password
            self.will = will
            self.keepAlive = keepAlive
            self.subscriptions = subscriptions
            self.maximumInFlight = maximumInFlight
        }
    }

    public enum State: Equatable, Sendable {
        case disconnected
        /// CONNECT sent, CONNACK not yet back.
        case connecting
        case connected
    }

    /// What the connection must do, in order.
    public enum Output: Equatable, Sendable {
        case send(MQTTPacket)
        /// A message from the broker for the client's user.
        case deliver(MQTTMessage)
        /// CONNACK accepted the connection.
        case connected
        /// CONNACK refused it: the client should not try again with the same credentials.
        case refused(ConnectReturnCode)
        /// The connection must be closed, for the reason given.
        case drop(problem: String)
    }

    public let configuration: Configuration
    public private(set) var state = State.disconnected
    /// QoS 1 messages sent or waiting to be, oldest first, with their packet ids.
    public private(set) var inFlight: [(packetID: UInt16, message: MQTTMessage, sent: Bool)] = []
    /// The number of in-flight messages dropped because `maximumInFlight` was reached.
    public private(set) var droppedInFlight = 0
    private var lastPacketID: UInt16 = 0
    private var subscribePacketID: UInt16?
    private var lastSentAt: UInt64 = 0
    private var pingSentAt: UInt64?

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    private var keepAliveNanoseconds: UInt64 { UInt64(configuration.keepAlive) * 1_000_000_000 }

    /// When `keepAliveTick` must next run; nil while not connected or with the keep-alive off.
    public var keepAliveDue: UInt64? {
        guard state == .connected, configuration.keepAlive > 0 else { return nil }
        return (pingSentAt ?? lastSentAt) + keepAliveNanoseconds
    }

    /// A connection to the broker was opened: CONNECT goes first.
    public mutating func opened(now: UInt64) -> [Output] {
        state = .connecting
        pingSentAt = nil
        return [send(.connect(MQTTPacket.Connect(clientID: configuration.clientID, keepAlive: configuration.keepAlive,
                                                 username: configuration.username, password: configuration.password,
                                                 will: configuration.will)), now: now)]
    }

    /// The connection is gone. In-flight messages stay, to be sent again (with DUP) on the next connection.
    public mutating func closed() {
        state = .disconnected
        pingSentAt = nil
        subscribePacketID = nil
    }

    /// Sends `message` now if connected; at QoS 1 it is kept until acknowledged (and, while disconnected, until the
    /// next connection). A QoS 0 message while disconnected is dropped, as at most once allows.
    public mutating func publish(_ message: MQTTMessage, now: UInt64) -> [Output] {
        guard message.qos == .atLeastOnce else {
            return state == .connected ? [send(.publish(MQTTPacket.Publish(message: message)), now: now)] : []
        }
        let packetID = nextPacketID()
        if inFlight.count >= configuration.maximumInFlight {
            inFlight.removeFirst()
            droppedInFlight += 1
        }
        let sending = state == .connected
        inFlight.append((packetID, message, sending))
        return sending ? [send(.publish(MQTTPacket.Publish(message: message, packetID: packetID)), now: now)] : []
    }

    /// A clean end: DISCONNECT, which tells the broker to discard the will.
    public mutating func disconnect(now: UInt64) -> [Output] {
        guard state != .disconnected else { return [] }
        state = .disconnected
        return [send(.disconnect, now: now)]
    }

    /// What a packet from the broker calls for.
    public mutating func received(_ packet: MQTTPacket, now: UInt64) -> [Output] {
        switch (state, packet) {
        case (.connecting, .connectAcknowledgement(_, let returnCode)):
            guard returnCode == .accepted else {
                state = .disconnected
                return [.refused(returnCode)]
            }
            state = .connected
            var outputs: [Output] = []
            if !configuration.subscriptions.isEmpty {
                let packetID = nextPacketID()
                subscribePacketID = packetID
                outputs.append(send(.subscribe(packetID: packetID, subscriptions: configuration.subscriptions), now: now))
            }
            for index in inFlight.indices {
                let entry = inFlight[index]
                outputs.append(send(.publish(MQTTPacket.Publish(message: entry.message, packetID: entry.packetID,
                                                                duplicate: entry.sent)), now: now))
                inFlight[index].sent = true
            }
            return outputs + [.connected]
        case (.connected, .publish(let publish)):
            var outputs: [Output] = []
            if let packetID = publish.packetID { outputs.append(send(.publishAcknowledgement(packetID: packetID), now: now)) }
            return outputs + [.deliver(publish.message)]
        case (.connected, .publishAcknowledgement(let packetID)):
            inFlight.removeAll { $0.packetID == packetID }
            return []
        case (.connected, .subscribeAcknowledgement(let packetID, let returnCodes)) where packetID == subscribePacketID:
            subscribePacketID = nil
            let refused = zip(configuration.subscriptions, returnCodes).filter { $0.1 == 0x80 }.map(\.0.filter)
            return refused.isEmpty ? [] : [.drop(problem: "the broker refused the subscription to \(refused.joined(separator: ", "))")]
        case (.connected, .pingResponse):
            pingSentAt = nil
            return []
        default:
            state = .disconnected
            return [.drop(problem: "the broker sent \(packet.name) out of turn")]
        }
    }

    /// Called when `keepAliveDue` comes: a PINGREQ when nothing was sent for a keep-alive, or the connection dropped
    /// when the last PINGREQ went unanswered as long.
    public mutating func keepAliveTick(now: UInt64) -> [Output] {
        guard let due = keepAliveDue, now >= due else { return [] }
        if pingSentAt != nil {
            state = .disconnected
            return [.drop(problem: "the broker did not answer for \(configuration.keepAlive) s")]
        }
        pingSentAt = now
        return [send(.pingRequest, now: now)]
    }

    private mutating func send(_ packet: MQTTPacket, now: UInt64) -> Output {
        lastSentAt = now
        return .send(packet)
    }

    /// The next packet id from 1 to 65,535 that no in-flight message holds.
    private mutating func nextPacketID() -> UInt16 {
        repeat {
            lastPacketID = lastPacketID == UInt16.max ? 1 : lastPacketID + 1
        } while inFlight.contains { $0.packetID == lastPacketID } || lastPacketID == subscribePacketID
        return lastPacketID
    }
}

extension MQTTPacket {
    /// The packet's name in the standard, for messages.
    var name: String {
        switch self {
        case .connect: "CONNECT"
        case .connectAcknowledgement: "CONNACK"
        case .publish: "PUBLISH"
        case .publishAcknowledgement: "PUBACK"
        case .subscribe: "SUBSCRIBE"
        case .subscribeAcknowledgement: "SUBACK"
        case .pingRequest: "PINGREQ"
        case .pingResponse: "PINGRESP"
        case .disconnect: "DISCONNECT"
        }
    }
}
