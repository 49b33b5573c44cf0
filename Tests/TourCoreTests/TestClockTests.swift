import Dispatch
import Synchronization
import Testing
import TourCore
import TourTestSupport

/// The clock the loop's and the watchdog's tests move by hand: what it runs, when, and in what order.
@Suite("Test clock", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
struct TestClockTests {
    /// What ran, as "name@milliseconds since the start".
    private final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func note(_ name: String, _ clock: TestClock, from start: UInt64) {
            let at = (clock.now - start) / 1_000_000
            entries.withLock { $0.append("\(name)@\(at)") }
        }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test("Wakes run in the order of their deadlines, each with the clock at its deadline; a repeating one again each interval")
    func wakesRunInOrderAtTheirDeadlines() async {
        let clock = TestClock()
        let start = clock.now
        let log = Log()
        let queue = DispatchQueue(label: "test-clock")
        clock.wake(at: start + 50_000_000, on: queue) { log.note("late", clock, from: start) }
        clock.wake(at: start + 10_000_000, on: queue) { log.note("early", clock, from: start) }
        let ticker = clock.repeating(every: 20_000_000, on: queue) { log.note("tick", clock, from: start) }
        let cancelled = clock.wake(at: start + 30_000_000, on: queue) { log.note("cancelled", clock, from: start) }
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
        let clock = TestClock()
        let start = clock.now
        let log = Log()
        let queue = DispatchQueue(label: "test-clock")
        clock.wake(at: start + 10_000_000, on: queue) {
            log.note("first", clock, from: start)
            clock.wake(at: clock.now + 10_000_000, on: queue) { log.note("second", clock, from: start) }
        }
        await clock.advance(by: 25_000_000)
        #expect(log.all == ["first@10", "second@20"])
    }
}
