import Testing
import TourCore
import TourInterface
import TourTestSupport
@testable import TourTerminal

/// The effect loop itself, driven as `tour` drives it but without a terminal: a key goes in, the loop carries out the
/// effects the model returns, and the test reads the frame the screen was given. Time moves only when a test moves
/// it (`TestClock`), so the frame pacing is tested at machine speed; no test waits for real time or blocks a thread.
@Suite("The effect loop without a terminal", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
struct TourLoopTests {
    @Test("The first frame shows the first page, and → shows the next one")
    func navigationKeyShowsTheNextPage() async throws {
        let harness = try LoopHarness()
        await harness.start()
        #expect(harness.screen.frames.count == 1)
        #expect(harness.screenText.contains("One unit of work"))
        #expect(!harness.screenText.contains("Runs operations"))

        await harness.type(.key(.right))
        #expect(harness.screen.frames.count == 2, "a key draws at once, without waiting for the clock")
        #expect(harness.screenText.contains("Runs operations"))
        #expect(!harness.screenText.contains("One unit of work"))
        #expect(harness.runs.isEmpty)
    }

    @Test("B on a page with a level lends the terminal to its game, then draws the tutorial again as it was")
    func levelKeyPlaysTheLevelAndComesBackAsItWas() async throws {
        let harness = try LoopHarness(levels: [("lost-update", 1)])
        await harness.start()
        await harness.type(.key(.down))
        let before = harness.screenText
        #expect(before.contains("(B plays level lost-update)"), "the page says it has a level")
        let frames = harness.screen.frames.count
        await harness.type(.key(.character("B")))
        #expect(harness.plays == ["lost-update"])
        #expect(harness.screen.frames.count > frames, "drawn again whole: the game had the terminal")
        #expect(harness.screenText == before)
    }

    @Test("A level's game that cannot start is said in the status line")
    func aLevelThatCannotBePlayedIsSaid() async throws {
        let harness = try LoopHarness(levels: [("lost-update", 1)], playProblem: "tour play lost-update could not start.")
        await harness.start()
        await harness.type(.key(.character("B")))
        #expect(harness.screenText.contains("tour play lost-update could not start."))
    }

    @Test("r starts the page's program, and its first line of output is drawn at once")
    func runKeyStartsTheRunAndItsOutputIsDrawn() async throws {
        let harness = try LoopHarness()
        let run = try await harness.startRunning()
        #expect(run.request.executable.hasSuffix("/Lesson01Operation"))
        #expect(run.request.sendsCommands, "the page must not read the keys meant for the interface")

        let framesBefore = harness.screen.frames.count
        await harness.emit(.started(pid: 4242, time: harness.clock.now), from: run)
        await harness.emit(harness.output("hello from page one"), from: run)
        #expect(harness.screen.frames.count > framesBefore)
        #expect(harness.screenText.contains("hello from page one"))
    }

    @Test("q quits: the workers are stopped and the process is left, once")
    func quitStopsTheWorkersAndLeaves() async throws {
        let harness = try LoopHarness()
        await harness.start()
        #expect(harness.leaveCount == 0)
        await harness.type(.key(.character("q")))
        #expect(harness.leaveCount == 1)
        #expect(harness.workshop.stopAllCount == 2, "the rebuilds and the exercise checks")
    }

    @Test("A terminal that hangs up ends the tutorial without asking, stopping the page that runs")
    func hangUpQuitsAtOnce() async throws {
        let harness = try LoopHarness()
        let run = try await harness.startRunning()
        await harness.type(.hungUp)
        #expect(harness.leaveCount == 1)
        #expect(run.stopCount >= 1)
    }

    @Test("q while a page runs asks first; y stops the run and quits")
    func quitWhileRunningAsksAndStopsTheRun() async throws {
        let harness = try LoopHarness()
        let run = try await harness.startRunning()
        await harness.emit(.started(pid: 4242, time: harness.clock.now), from: run)
        await harness.type(.key(.character("q")))
        #expect(harness.leaveCount == 0)
        #expect(run.stopCount == 0)
        await harness.type(.key(.character("y")))
        #expect(harness.leaveCount == 1)
        #expect(run.stopCount >= 1)
    }

    @Test("A resize draws the next frame whole, at the terminal's new size")
    func resizeRedrawsAtTheNewSize() async throws {
        let harness = try LoopHarness()
        await harness.start()
        await harness.type(.key(.right))
        #expect(harness.screen.lastDiff?.clearsFirst == false)
        harness.screen.resizeTerminal(to: Size(width: 80, height: 24))
        await harness.type(.resized)
        let frame = try #require(harness.screen.frames.last)
        #expect(frame.size == Size(width: 80, height: 24))
        #expect(harness.screen.lastDiff?.clearsFirst == true)
        #expect(harness.screenText.contains("Runs operations"))
    }

    @Test("Output that streams is drawn at most once a frame interval: a burst waits for the next frame's turn")
    func aBurstOfOutputWaitsForTheFramesTurn() async throws {
        let harness = try LoopHarness()
        let run = try await harness.startRunning(printing: "first line")
        let afterFirstLine = harness.screen.frames.count
        for index in 1...50 { run.emit(harness.output("line \(index)")) }
        await harness.loop.settled()
        #expect(harness.screen.frames.count == afterFirstLine, "the clock has not moved: no frame yet")

        await harness.clock.advance(by: TourLoop.frameInterval - 1_000_000)
        #expect(harness.screen.frames.count == afterFirstLine)
        await harness.clock.advance(by: 1_000_000)
        #expect(harness.screen.frames.count == afterFirstLine + 1, "one frame for the whole burst")
        #expect(harness.screenText.contains("line 50"))
    }

    @Test("A page that streams for half a second gets a frame each interval, never two closer together")
    func streamingKeepsFramesAtThePacingRate() async throws {
        let harness = try LoopHarness()
        let run = try await harness.startRunning(printing: "first line")
        let streamStart = harness.clock.now
        let framesBefore = harness.screen.frames.count
        // An event every 5 ms for 500 ms.
        for index in 1...100 {
            await harness.emit(harness.output("line \(index)"), from: run)
            await harness.clock.advance(by: 5_000_000)
        }
        let times = harness.screen.drawnAt.filter { $0 > streamStart }
        let streamed = harness.screen.frames.count - framesBefore
        #expect(times.count == streamed)
        #expect(streamed == Int(500_000_000 / TourLoop.frameInterval), "one frame each 33 ms of 500")
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= TourLoop.frameInterval }, "gaps \(gaps)")
    }

    @Test("Once the run ends nothing is left on the clock: the loop sleeps until something happens")
    func nothingTicksOnceTheRunEnds() async throws {
        let harness = try LoopHarness()
        await harness.start()
        #expect(harness.clock.pendingWakes == 0)
        await harness.type(.key(.character("r")))
        let run = try #require(harness.runs.first)
        #expect(harness.clock.pendingWakes >= 1, "the clock ticks while the page runs")
        let ticksBefore = harness.screen.frames.count
        await harness.clock.advance(by: TourLoop.tickInterval * 3)
        #expect(harness.screen.frames.count >= ticksBefore + 3, "each tick moves the run's clock on screen")

        await harness.emit(.ended(.exited(code: 0), time: harness.clock.now), from: run)
        await harness.clock.advance(by: TourLoop.frameInterval)
        #expect(harness.clock.pendingWakes == 0)
        let framesWhenIdle = harness.screen.frames.count
        await harness.clock.advance(by: 10_000_000_000)
        #expect(harness.screen.frames.count == framesWhenIdle)
    }
}
