@preconcurrency import Glibc
import Foundation
import RoomLink
import Synchronization

/// A mosquitto broker for one test, started as `tour room` starts one (`MosquittoBroker`), on loopback and a free port.
/// It dies with the test process (the broker's parent-death signal), so a crashed test leaves none behind; a test
/// still stops it at its end.
public enum TestBroker {
    /// Starts a broker and returns once it accepts connections, without blocking a test thread meanwhile.
    public static func start() async throws -> MosquittoBroker {
        try await awaitBlocking("test-broker-start") { try MosquittoBroker.start(listenHost: "127.0.0.1") }
    }
}

extension MosquittoBroker {
    /// `restart()` without blocking a test thread.
    public func restarted() async throws {
        try await awaitBlocking("test-broker-restart") { try self.restart() }
    }

    /// `kill(with:)` without blocking a test thread.
    public func killed(with signal: Int32 = SIGKILL) async {
        await awaitBlocking("test-broker-kill") { self.kill(with: signal) }
    }

    /// `stop()` without blocking a test thread.
    public func stopped() async {
        await awaitBlocking("test-broker-stop") { self.stop() }
    }
}

/// Everything a handler heard, in order, which a test awaits a condition on: each event wakes the waiting test,
/// which checks its condition again.
public final class HeardEvents<Event: Sendable>: Sendable {
    private let events = Mutex<[Event]>([])
    private let arrivals = Occurrences()

    public init() {}

    public func record(_ event: Event) {
        events.withLock { $0.append(event) }
        arrivals.signal()
    }

    public var all: [Event] { events.withLock { $0 } }

    /// Waits until `condition` holds for the events heard so far; false if it still does not after `timeout` seconds
    /// without a new event, a bound that only turns a hang into a failure.
    public func wait(timeout: Double = 30, until condition: ([Event]) -> Bool) async -> Bool {
        while !condition(all) {
            guard await arrivals.next(timeout: timeout) else { return condition(all) }
        }
        return true
    }
}
