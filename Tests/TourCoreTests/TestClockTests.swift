import Dispatch
import Synchronization
import Testing
import TourCore
import TourTestSupport

/// The clock the loop's and the watchdog's tests move by hand: what it runs, when, and in what order.
@Suite("Test clock", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
struct TestClockTests {
    /// A clock, a queue to wake on, and a log of what ran, as "name@milliseconds since the start".
    private final class Log: Sendable {
        let clock = TestClock()
        let queue = DispatchQueue(label: "test-clock")
        let start: UInt64
        private let entries = Mutex<[String]>([])

        init() { start = clock.now }

        func note(_ name: String) {
            let at = (clock.now - start) / 1_000_000
            entries.withLock { $0.append("\(name)@\(at)") }
        }

        var all: [String] { entries.withLock { $0 } }
    }

    @Test("Wakes run in the order of their deadlines, each with the clock at its deadline; a repeating one again each interval")
    func wakesRunInOrderAtTheirDeadlines() async {
        let log = Log()
        let (clock, start, queue) = (log.clock, log.start, log.queue)
        clock.wake(at: start + 50_000_000, on: queue) { log.note("late") }
        clock.wake(at: start + 10_000_000, on: queue) { log.note("early") }
        let ticker = clock.repeating(every: 20_000_000, on: queue) { log.note("tick") }
        let cancelled = clock.wake(at: start + 30_000_000, on: queue) { log.note("cancelled") }
        cancelled.cancel()

        await clock.advance(by: 45_000_000)
        #expect(log.all == ["early@10", "tick@20", "tick@40"])
        #expect(clock.now == start + 45_000_000)

        ticker.cancel()
        await clock.advance(by: 100_000_000)
        #expect(log.all == ["early@10", "tick@20", "tick@40", "late@50"])
        #expect(clock.pendingWakes == 0)
    }

    @Test("A wake scheduled by a wake, within the span advanced, runs in the same advance")
    func wakesScheduledOnTheWayRun() async {
        let log = Log()
        let (clock, start, queue) = (log.clock, log.start, log.queue)
        clock.wake(at: start + 10_000_000, on: queue) {
            log.note("first")
            clock.wake(at: clock.now + 10_000_000, on: queue) { log.note("second") }
        }
        await clock.advance(by: 25_000_000)
        #expect(log.all == ["first@10", "second@20"])
    }
}
