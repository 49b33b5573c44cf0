@preconcurrency import Glibc
import Foundation
import TourCore

/// An MQTT 3.1.1 client over TCP: the socket shell around `MQTTSession`.
///
/// Everything it does happens on one serial queue, where the handler is called too. Each connection has a thread of
/// its own that connects (with a timeout), then reads and decodes packets and hands them to the queue, waiting until
/// they are handled, so a broker that sends faster than the handler reads is slowed by TCP rather than growing a
/// queue. A lost connection is tried again after a delay that doubles up to a cap; a CONNACK that refuses the client
/// (a wrong password) is reported and not tried again.
///
/// Only the reading thread closes its socket, once it has stopped reading: everyone else shuts the socket down, which
/// ends the read, so a descriptor is never closed while in use or used after its number was given to another file.
public final class MQTTClient: @unchecked Sendable {
    public struct Timing: Sendable {
        /// Seconds to wait for a TCP connection, for the CONNACK after it, and for a write to be taken.
        public var connectTimeout: Double
        /// Nanoseconds before the first retry; each retry doubles it, up to `longestRetry`.
        public var firstRetry: UInt64
        public var longestRetry: UInt64

        public init(connectTimeout: Double = 5, firstRetry: UInt64 = 250_000_000, longestRetry: UInt64 = 5_000_000_000) {
            self.connectTimeout = connectTimeout
            self.firstRetry = firstRetry
            self.longestRetry = longestRetry
        }
    }

    public enum Event: Equatable, Sendable {
        case connected
        /// A connection was lost or could not be made; the client tries again.
        case connectionLost(problem: String)
        /// The broker refused the client (mosquitto says `notAuthorized` for a wrong password); it does not try again.
        case refused(ConnectReturnCode)
        case message(MQTTMessage)
    }

    /// One TCP connection, from its reading thread's start to its end.
    private final class Connection: @unchecked Sendable {
        let descriptor: Int32
        let generation: Int
        /// Why the client ended it, when it did; read and written on the client's queue.
        var problem: String?

        init(descriptor: Int32, generation: Int) {
            self.descriptor = descriptor
            self.generation = generation
        }
    }

    public let host: String
    public let port: UInt16
    private let timing: Timing
    private let maximumPacketSize: Int
    private let clock: any HostClock
    private let handler: @Sendable (Event) -> Void
    private let queue: DispatchQueue
    private let onQueue = DispatchSpecificKey<Bool>()

    // Touched only on `queue`.
    private var session: MQTTSession
    private var connection: Connection?
    /// Counts connection attempts; a thread of an earlier one finds itself superseded.
    private var generation = 0
    private var stopped = false
    private var retryDelays: RetryDelays
    private var retryWake: ClockWake?
    private var keepAliveWake: ClockWake?
    private var acknowledgementWake: ClockWake?

    /// `handler` is called on the client's queue; it must not block for long.
    public init(host: String, port: UInt16, session: MQTTSession.Configuration, timing: Timing = Timing(),
                maximumPacketSize: Int = 1 << 20, clock: any HostClock = SystemClock(),
                handler: @escaping @Sendable (Event) -> Void) {
        self.host = host
        self.port = port
        self.session = MQTTSession(session)
        self.timing = timing
        self.maximumPacketSize = maximumPacketSize
        self.clock = clock
        self.handler = handler
        retryDelays = RetryDelays(first: timing.firstRetry, longest: timing.longestRetry)
        queue = DispatchQueue(label: "mqtt-client")
        queue.setSpecific(key: onQueue, value: true)
    }

    /// Connects, in the background; the handler hears `.connected` or why not.
    public func start() {
        queue.async { self.attempt() }
    }

    /// Sends `message`: at once when connected; at QoS 1 also later, on the next connection, until acknowledged.
    public func publish(_ message: MQTTMessage) {
        queue.async {
            let outputs = self.session.publish(message, now: self.clock.now)
            if let connection = self.connection { self.perform(outputs, on: connection) }
        }
    }

    /// Ends the session cleanly with a DISCONNECT (so the broker does not publish the will), after everything
    /// published before this call was handed to the socket, and never connects again. Returns once that is done.
    public func disconnect() {
        onClientQueue {
            stopped = true
            retryWake?.cancel()
            guard let connection else { return }
            for case .send(let packet) in session.disconnect(now: clock.now) {
                _ = TCPSocket.write(connection.descriptor, packet.encoded())
            }
            drop(connection, problem: "disconnected")
        }
    }

    /// Runs `body` on the client's queue, after everything asked of the client before.
    public func onClientQueue<T>(_ body: () -> T) -> T {
        DispatchQueue.getSpecific(key: onQueue) == true ? body() : queue.sync(execute: body)
    }

    // MARK: On the queue

    private func attempt() {
        guard !stopped else { return }
        generation += 1
        let generation = generation
        let thread = Thread { [self] in connectAndRead(generation: generation) }
        thread.name = "mqtt-read"
        thread.start()
    }

    private func opened(_ opened: Connection) -> Bool {
        guard !stopped, opened.generation == generation else { return false }
        connection = opened
        acknowledgementWake = clock.wake(at: clock.now + UInt64(timing.connectTimeout * 1e9), on: queue) { [self] in
            if connection === opened && session.state == .connecting {
                drop(opened, problem: "the broker did not answer CONNECT within \(timing.connectTimeout) s")
            }
        }
        perform(session.opened(now: clock.now), on: opened)
        return true
    }

    private func received(_ packets: [MQTTPacket], on current: Connection) {
        for packet in packets where connection === current && current.problem == nil {
            perform(session.received(packet, now: clock.now), on: current)
        }
    }

    private func perform(_ outputs: [MQTTSession.Output], on current: Connection) {
        for output in outputs {
            guard current.problem == nil else { return }
            switch output {
            case .send(let packet):
                if let problem = TCPSocket.write(current.descriptor, packet.encoded()) { drop(current, problem: problem.description) }
            case .deliver(let message):
                handler(.message(message))
            case .connected:
                acknowledgementWake?.cancel()
                retryDelays.reset()
                handler(.connected)
            case .refused(let code) where code == .serverUnavailable:
                drop(current, problem: code.description)
            case .refused(let code):
                stopped = true
                handler(.refused(code))
                drop(current, problem: code.description)
            case .drop(let problem):
                drop(current, problem: problem)
            }
        }
        scheduleKeepAlive(on: current)
    }

    private func scheduleKeepAlive(on current: Connection) {
        guard keepAliveWake == nil, current.problem == nil, let due = session.keepAliveDue else { return }
        keepAliveWake = clock.wake(at: due, on: queue) { [self] in
            keepAliveWake = nil
            guard connection === current else { return }
            perform(session.keepAliveTick(now: clock.now), on: current)
        }
    }

    /// Ends `current`: its reading thread sees the end and reports it (`lost`).
    private func drop(_ current: Connection, problem: String) {
        guard current.problem == nil else { return }
        current.problem = problem
        shutdown(current.descriptor, Int32(SHUT_RDWR))
    }

    private func lost(_ ended: Connection, readProblem: String) {
        close(ended.descriptor)
        guard connection === ended else { return }
        connection = nil
        session.closed()
        keepAliveWake?.cancel()
        keepAliveWake = nil
        acknowledgementWake?.cancel()
        guard !stopped else { return }
        handler(.connectionLost(problem: ended.problem ?? readProblem))
        scheduleRetry()
    }

    private func attemptFailed(generation failed: Int, problem: String) {
        guard failed == generation, !stopped else { return }
        handler(.connectionLost(problem: problem))
        scheduleRetry()
    }

    private func scheduleRetry() {
        retryWake = clock.wake(at: clock.now + retryDelays.next(), on: queue) { [self] in attempt() }
    }

    // MARK: On a connection's thread

    private func connectAndRead(generation: Int) {
        let descriptor: Int32
        switch TCPSocket.connect(host: host, port: port, timeout: timing.connectTimeout) {
        case .failure(let problem):
            queue.async { self.attemptFailed(generation: generation, problem: problem.description) }
            return
        case .success(let connected):
            descriptor = connected
        }
        let current = Connection(descriptor: descriptor, generation: generation)
        guard queue.sync(execute: { opened(current) }) else {
            close(descriptor)
            return
        }
        var decoder = MQTTPacketDecoder(maximumPacketSize: maximumPacketSize)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var problem = "the broker closed the connection"
        reading: while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if count < 0 { problem = "the connection failed: \(String(cString: strerror(errno)))" }
                break
            }
            decoder.append(chunk[..<count])
            var packets: [MQTTPacket] = []
            do {
                while let packet = try decoder.next() { packets.append(packet) }
            } catch {
                problem = "the broker sent something that is not MQTT: \(error.description)"
                queue.sync { received(packets, on: current) }
                break reading
            }
            queue.sync { received(packets, on: current) }
        }
        queue.sync { lost(current, readProblem: problem) }
    }
}

/// The waits before each retry: `first`, then twice the last, never more than `longest`, until a connection succeeds.
public struct RetryDelays: Sendable {
    public let first: UInt64
    public let longest: UInt64
    private var upcoming: UInt64

    public init(first: UInt64, longest: UInt64) {
        self.first = first
        self.longest = longest
        upcoming = min(first, longest)
    }

    public mutating func next() -> UInt64 {
        defer { upcoming = min(upcoming * 2, longest) }
        return upcoming
    }

    public mutating func reset() {
        upcoming = min(first, longest)
    }
}
