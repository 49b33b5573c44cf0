import Testing
@testable import TourCore
import TourTestSupport
import PageProtocol

/// The runner's watchdog on a clock the test moves (`TestClock`): a real page process, silent for ever, and the
/// watchdog's verdict at the exact time its rule gives, with no waiting for that time to pass. The rules on the record
/// alone (open spans, operations, cycles) are `WatchdogTests`'.
@Suite("The watchdog on a test clock", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
struct WatchdogClockTests {
    @Test("A page silent with nothing open is called hung when the clock reaches its silent limit, and not before")
    func silentPageIsHungAtItsSilentLimit() async throws {
        let clock = TestClock()
        let (endings, ended) = AsyncStream<RunEnding>.makeStream()
        // stuckAfter is long: only the silent limit can end this run.
        let request = RunRequest(executable: BuildProducts.executable(named: "RunnerFixture"), stuckAfter: 300, silentLimit: 15,
                                 extraEnvironment: ["FIXTURE": "silent-forever"], samplesThreads: false, clock: clock)
        let run = PageRun.start(request) { event in
            if case .ended(let ending, _) = event {
                ended.yield(ending)
                ended.finish()
            }
        }
        // Silent for ever: ended however the test ends, since only the watchdog on this clock would end it.
        defer { run.stop() }
        #expect(run.startTime == clock.now)
        // The watchdog asks every quarter second of the clock's time; the last time before the limit it says nothing.
        await clock.advance(by: 14_750_000_000)
        #expect(run.ending == nil)
        await clock.advance(by: 250_000_000)
        // Called hung at 15 s, the page is sent SIGTERM, and its end comes when the process is reaped.
        var iterator = endings.makeAsyncIterator()
        let ending = try #require(await iterator.next())
        let stall = try #require(ending.stall, "ended \(ending), not stuck")
        #expect(stall.silentSeconds == 15)
        #expect(stall.openSpans == [])
        #expect(stall.unfinishedOperations == [])
        #expect(stall.dependencyCycle == [])
    }

    @Test("A page slowed down for a talk gets patience in proportion: at half speed, twice the silent limit")
    func slowedPageGetsMorePatience() async throws {
        let clock = TestClock()
        let (endings, ended) = AsyncStream<RunEnding>.makeStream()
        let request = RunRequest(executable: BuildProducts.executable(named: "RunnerFixture"), speed: 0.5, stuckAfter: 300,
                                 silentLimit: 2, extraEnvironment: ["FIXTURE": "silent-forever"], samplesThreads: false,
                                 clock: clock)
        let run = PageRun.start(request) { event in
            if case .ended(let ending, _) = event {
                ended.yield(ending)
                ended.finish()
            }
        }
        defer { run.stop() }
        await clock.advance(by: 3_750_000_000)
        #expect(run.ending == nil)
        await clock.advance(by: 250_000_000)
        var iterator = endings.makeAsyncIterator()
        let ending = try #require(await iterator.next())
        #expect(ending.stall?.silentSeconds == 4)
    }
}
