import Testing
import TourCore
import TourTestSupport

/// Page 3 proves what it teaches from its own trace: each test reads the events of a real run.
@Suite("Page 3: Async")
struct AsyncPageTests {
    /// The page with its default knobs.
    static let run = recordRun(product: "Lesson03Async", speed: 10)
    /// A missing photo for the result-typed fetch, and the loader that forgets to finish, which ends the run.
    static let forgetful = recordRun(product: "Lesson03Async", knobs: [("requestedPhoto", "unicorn"), ("forgetToFinish", "true")],
                                     speed: 10, stuckAfter: 0.5)

    @Test func endsNormallyAsItSays() {
        #expect(Self.run.ending == .exited(code: 0))
        #expect(Self.run.endedAsExpected)
        #expect(Self.run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func returningFromMainIsNotFinishing() throws {
        let operation = try #require(Self.run.operations.first { $0.name == "too-early load coffee" })
        let finished = try #require(operation.firstTime(of: "finished"))
        let download = try #require(Self.run.spans(named: "network load coffee").first)
        #expect(finished < download.start, "the queue called it finished before the download had even begun")
        #expect(Self.run.results.contains { $0.text == "no image yet" })
        #expect(Self.run.results.contains { $0.text == "160×120, too late" })
    }

    @Test func anAsynchronousOperationFinishesWhenItsCallbackSaysSo() throws {
        let operation = try #require(Self.run.operations.first { $0.name == "load astronaut" })
        #expect(operation.changes.map(\.state) == ["executing", "finished"])
        let finished = try #require(operation.firstTime(of: "finished"))
        let download = try #require(Self.run.spans(named: "network load astronaut").first?.end)
        #expect(download <= finished, "finish() is called from the download's callback")
        // The page's second wait for a queue is the one for this operation.
        let waits = Self.run.spans(named: "waitUntilAllOperationsAreFinished")
        try #require(waits.count >= 2)
        #expect(try #require(waits[1].end) >= finished, "the queue waited for the operation to say it had finished")
    }

    @Test func aResultTypedOperationDeliversAValueOrATypedError() {
        #expect(Self.run.outputText.contains("fetched rocket: 160×120"))
        #expect(Self.forgetful.outputText.contains("fetching unicorn failed: notFound(\"unicorn\")"))
    }

    @Test func cancellingWithAReasonFinishesAtOnceAndIgnoresTheLateAnswer() throws {
        let operation = try #require(Self.run.operations.first { $0.name == "fetch hubble" })
        let states = operation.changes.map(\.state)
        #expect(states == ["executing", "cancelled", "finished"])
        let finished = try #require(operation.firstTime(of: "finished"))
        let download = try #require(Self.run.spans(named: "network load hubble").first)
        #expect(finished < download.start, "it finished without waiting for its download")
        #expect(Self.run.outputText.filter { $0.contains("hubble") && $0.contains("fetch") } == ["fetching hubble failed: cancelled"])
    }

    @Test func aBlockingWaitStopsTheTimerAndARunLoopWaitKeepsItTicking() throws {
        let run = Self.run
        let blocking = try #require(run.spans(named: "blocking wait").first)
        let turning = try #require(run.spans(named: "waitWhileRunLoopTurns").first)
        #expect(blocking.thread == run.pid && turning.thread == run.pid)
        let ticks = run.marks.filter { $0.name == "tick" }
        #expect(ticks.allSatisfy { $0.thread == run.pid }, "the timer fires on the main thread's run loop")
        #expect(ticks.filter { blocking.contains($0.time) }.isEmpty)
        #expect(!ticks.filter { turning.contains($0.time) }.isEmpty)
        #expect(run.outputText.contains("Timer ticks during the blocking wait: 0"))
        let mainQueueBlock = try #require(run.marks.first { $0.name == "main-queue block" })
        #expect(turning.contains(mainQueueBlock.time), "the main run loop served the main queue during the wait")
    }

    @Test func theUntilFormWaitsForItsCondition() throws {
        let finished = try #require(Self.run.operations.first { $0.name == "load retina" }?.firstTime(of: "finished"))
        let wait = try #require(Self.run.spans(named: "waitWhileRunLoopTurns until").first)
        #expect(wait.start < finished && finished <= (wait.end ?? 0))
        #expect(Self.run.results.contains { $0.kind == "peek" && $0.text == "true" })
    }

    @Test func aTimeoutGivesUpWhileTheWorkCarriesOn() throws {
        let wait = try #require(Self.run.spans(named: "waitWhileRunLoopTurns timeout").first)
        #expect(try #require(wait.duration) >= 0.2 / 10, "it waited its whole timeout")
        #expect(Self.run.outputText.contains { $0.hasPrefix("The rocket download: gave up waiting after 20.0 ms") })
        let lastRocket = try #require(Self.run.spans(named: "network load rocket").last)
        #expect(lastRocket.start >= (wait.end ?? .max), "the download went on after the wait gave up")
    }

    @Test func forgettingToFinishIsReportedStuckNamingTheOperation() throws {
        let run = Self.forgetful
        guard case .stuck(let stall) = run.ending else {
            Issue.record("expected the run to be stuck, got \(String(describing: run.ending))")
            return
        }
        #expect(stall.unfinishedOperations == ["forgetful load hubble"])
        #expect(stall.openSpans.contains { $0.hasPrefix("waitUntilAllOperationsAreFinished") })
        #expect(run.expectation?.ending == "stuck")
        #expect(run.endedAsExpected)
        #expect(run.ending?.explanation.contains("forgetful load hubble") == true)
    }

    @Test func knobsAreAnnounced() {
        #expect(Self.forgetful.knobs.map(\.name) == ["requestedPhoto", "forgetToFinish"])
        #expect(Self.forgetful.knobs.first { $0.name == "requestedPhoto" }?.choices == ["rocket", "coffee", "hubble", "unicorn"])
    }
}

private extension Span {
    /// True if `time` falls between the span's start and end.
    func contains(_ time: UInt64) -> Bool {
        start <= time && time <= (end ?? .max)
    }
}
