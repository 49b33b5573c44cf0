import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 3 proves what it teaches from its own trace: each test reads the events of a real run.
@Suite("Page 3: Async", .bodiesBelowTheRunner)
struct AsyncPageTests {
    /// The speed of both runs: fast, and not 1, so that every printed wait must name its real length too.
    static let speed = 4.0
    /// The page with its default knobs.
    static let run = Task { await sharedRun(product: "Lesson03Async", speed: speed) }
    /// A missing photo for the result-typed fetch, a loader that claims to be asynchronous, and the loader that forgets
    /// to finish, which ends the run; before it, a second run-loop wait inside each of the last two waits.
    static let turned = Task { await recordRun(product: "Lesson03Async", knobs: [
        ("requestedPhoto", "unicorn"), ("claimAsynchronous", "true"), ("forgetToFinish", "true"), ("nestedWaits", "true"),
    ], speed: speed, stuckAfter: 1) } // Above the page's longest silence at 4×, the 250 ms blocking wait, with room for a loaded machine.

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func returningFromMainIsNotFinishing() async throws {
        let run = await Self.run.value
        let operation = try #require(run.operations.first { $0.name == "too-early load coffee" })
        let finished = try #require(operation.firstTime(of: .finished))
        let download = try #require(run.spans(named: "network load coffee").first)
        #expect(finished < download.start, "the queue called it finished before the download had even begun")
        #expect(run.results.contains { $0.text == "no image yet" })
        #expect(run.results.contains { $0.text.hasSuffix(", too late") })
    }

    /// The experiment: overriding `isAsynchronous` is seen (the page prints it) and changes nothing else.
    @Test func claimingToBeAsynchronousChangesNothing() async throws {
        let turned = await Self.turned.value
        #expect((await Self.run.value).outputText.contains("The too-early loader's isAsynchronous: false"))
        #expect(turned.outputText.contains("The too-early loader's isAsynchronous: true"))
        var behaviours: [[String]] = []
        for run in [(await Self.run.value), turned] {
            let queued = try #require(run.operations.first { $0.name == "too-early load coffee" })
            let byHand = try #require(run.operations.first { $0.name == "too-early load coffee, started by hand" })
            let downloads = run.spans(named: "network load coffee")
            try #require(downloads.count == 2)
            #expect(try #require(queued.firstTime(of: .finished)) < downloads[0].start, "the queue calls it finished first")
            let startCall = try #require(run.spans(named: "start() called directly").first)
            #expect(try #require(startCall.end) < downloads[1].start, "a direct start() returns before the download begins")
            #expect(try #require(byHand.firstTime(of: .finished)) < downloads[1].start)
            #expect(run.results.contains { $0.text == "no image yet" })
            #expect(run.results.contains { $0.text == "finished, no image yet" })
            behaviours.append(queued.changes.map(\.state.rawValue) + ["/"] + byHand.changes.map(\.state.rawValue))
        }
        #expect(behaviours[0] == behaviours[1], "the same state changes whatever isAsynchronous says")
    }

    @Test func anAsynchronousOperationFinishesWhenItsCallbackSaysSo() async throws {
        let run = await Self.run.value
        let operation = try #require(run.operations.first { $0.name == "load astronaut" })
        #expect(operation.changes.map(\.state) == [.executing, .finished])
        let finished = try #require(operation.firstTime(of: .finished))
        let download = try #require(run.spans(named: "network load astronaut").first?.end)
        #expect(download <= finished, "finish() is called from the download's callback")
        // The page's second wait for a queue is the one for this operation.
        let waits = run.spans(named: "waitUntilAllOperationsAreFinished")
        try #require(waits.count >= 2)
        #expect(try #require(waits[1].end) >= finished, "the queue waited for the operation to say it had finished")
    }

    @Test func aResultTypedOperationDeliversAValueOrATypedError() async {
        let run = await Self.run.value
        let turned = await Self.turned.value
        #expect(run.outputText.contains { $0.wholeMatch(of: /fetched rocket: \d+×\d+/) != nil })
        #expect(turned.outputText.contains("fetching unicorn failed: notFound(\"unicorn\")"))
    }

    /// The talk's `cancel()` override: cancelling the operation stops its download, which then finishes it.
    @Test func cancellationReachesTheDownload() async throws {
        let run = (await Self.run.value)
        let operation = try #require(run.operations.first { $0.name == "fetch hubble" })
        #expect(operation.changes.map(\.state) == [.executing, .cancelled, .finished])
        let download = try #require(run.spans(named: "network load hubble").first)
        let downloadEnd = try #require(download.end)
        let rocketFetched = try #require(run.operations.first { $0.name == "fetch rocket" }?.firstTime(of: .finished))
        #expect(rocketFetched <= downloadEnd, "the page cancels once the other fetch is in, and the download ran until then")
        let cancelled = try #require(operation.firstTime(of: .cancelled))
        #expect(cancelled <= downloadEnd, "the operation was cancelled while its download waited")
        // The download marks itself cancelled only when cancel() woke its wait before the wait's time was up: a
        // download that ran its whole 4 s (at 1×) would not, however long a loaded machine made either.
        let cancelledMark = try #require(run.marks.first { $0.name == "hubble download cancelled" })
        #expect(cancelledMark.thread == download.thread && cancelledMark.time >= downloadEnd)
        #expect(try #require(operation.firstTime(of: .finished)) >= downloadEnd, "its stopped download finished it")
        #expect(run.outputText.filter { $0.contains("hubble") && $0.contains("fetch") } == ["fetching hubble failed: cancelled"])
        // The page prints how long the download lasted, timed from just before its span to just after it: no less
        // than the span, and no more than from the operation's start to the printed line (printed to 0.1 ms).
        let stopped = try #require(run.output.first { $0.text.hasPrefix("The hubble download stopped after ") })
        #expect(stopped.text.hasSuffix(" of its 4 s at 1×, 1 s at 4×"))
        let printed = try #require(Self.seconds(in: stopped.text))
        let executing = try #require(operation.firstTime(of: .executing))
        let lasted = try #require(download.duration)
        #expect(printed >= lasted - 0.0001, "\(stopped.text): the span lasted \(lasted) s")
        #expect(printed <= Double(stopped.time - executing) / 1e9 + 0.0001, "\(stopped.text): longer than the operation had run")
    }

    /// At 4× every wait the page prints names its real length, and the trace measures that length.
    @Test func printedWaitsAreTheWaitsMeasuredAtTheRunsSpeed() async throws {
        let run = (await Self.run.value)
        #expect(run.outputText.contains("Fetching rocket (0.5 s at 1×, 125 ms at 4×) and a large hubble (4 s at 1×, 1 s at 4×)"))
        #expect(run.outputText.contains("The timer ticks every 100 ms at 1×, 25 ms at 4×; each download below takes 1 s at 1×, 250 ms at 4×"))
        #expect(run.outputText.contains("The rocket wait gave up after 200 ms at 1×, 50 ms at 4×; the download itself carries on"))
        try Self.expect(run.spans(named: "network load rocket").first, lasts: 0.125)
        let chelseaDownloads = run.spans(named: "network load chelsea")
        try #require(chelseaDownloads.count == 2)
        for download in chelseaDownloads {
            try Self.expect(download, lasts: 0.25)
        }
        try Self.expect(run.spans(named: "waitWhileRunLoopTurns timeout").first, lasts: 0.05)
        let turning = try #require(run.spans(named: "waitWhileRunLoopTurns").first)
        let ticks = run.marks.filter { $0.name == "tick" && turning.contains($0.time) }.map(\.time)
        try #require(ticks.count >= 3, "the timer ticked during the run-loop wait")
        let meanGap = Double(ticks[ticks.count - 1] - ticks[0]) / 1e9 / Double(ticks.count - 1)
        // A timer never fires early; a loaded machine can fire it late, or skip ticks it missed, so the mean gap is bounded
        // above only by what tells 4× from 1×: under the 100 ms a tick takes at 1×.
        #expect(meanGap >= 0.025 * 0.9 && meanGap < 0.1, "ticks \(meanGap) s apart")
    }

    @Test func aBlockingWaitStopsTheTimerAndARunLoopWaitKeepsItTicking() async throws {
        let run = (await Self.run.value)
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

    @Test func theSimplestFormRunsTheWorkElsewhereWhileTheTimerTicks() async throws {
        let run = await Self.run.value
        let filter = try #require(run.spans(named: "tilt-shift chelsea").first)
        #expect(filter.thread != run.pid, "the filter ran on a global queue's thread")
        #expect(run.marks.contains { $0.name == "tick" && filter.contains($0.time) }, "the main thread ticked meanwhile")
    }

    @Test func theUntilFormWaitsForItsCondition() async throws {
        let run = await Self.run.value
        let finished = try #require(run.operations.first { $0.name == "load retina" }?.firstTime(of: .finished))
        let wait = try #require(run.spans(named: "waitWhileRunLoopTurns until").first)
        #expect(wait.start < finished && finished <= (wait.end ?? 0))
        #expect(run.results.contains { $0.kind == .peek && $0.text == "true" })
    }

    @Test func aTimeoutGivesUpWhileTheWorkCarriesOn() async throws {
        let run = await Self.run.value
        let wait = try #require(run.spans(named: "waitWhileRunLoopTurns timeout").first)
        #expect(try #require(wait.duration) >= 0.2 / Self.speed, "it waited its whole timeout")
        let lastRocket = try #require(run.spans(named: "network load rocket").last)
        #expect(lastRocket.start >= (wait.end ?? .max), "the download went on after the wait gave up")
        #expect(lastRocket.end != nil, "and it ran to its end")
    }

    /// The library's advice for apps: the tap handler only sends the wait to the main queue and returns; the run loop
    /// runs the wait later, on the main thread.
    @Test func aWrappedWaitLetsTheTapHandlerReturnFirst() async throws {
        let run = await Self.run.value
        let returned = try #require(run.marks.first { $0.name == "tap handler returned" })
        let wait = try #require(run.spans(named: "wrapped wait").first)
        #expect(returned.thread == run.pid && wait.thread == run.pid)
        #expect(returned.time < wait.start, "the handler returned before the wait began")
        let handlerLine = try #require(run.outputText.firstIndex(of: "The tap handler returned before its wait began"))
        let waitLine = try #require(run.outputText.firstIndex(of: "The wrapped wait, run by the run loop, got 400×300"))
        #expect(handlerLine < waitLine)
    }

    /// Without the knob, each of the last two waits returns on its own: the first when its download lands, the second at
    /// its timeout. With it, a wait started inside each holds it until the inner one returns, about 1 s at 1×.
    @Test func nestedWaitsReturnOnlyWhenTheInnerWaitDoes() async throws {
        let run = await Self.run.value
        let turned = await Self.turned.value
        #expect(!run.spans.contains { $0.name.hasPrefix("inner wait") }, "without the knob nothing nests")
        let inner = 1 / Self.speed, timeout = 0.3 / Self.speed
        for (label, outerName) in [("the first wait", "first wait"), ("the second wait", "second wait")] {
            let outer = try #require(turned.spans(named: outerName).first)
            let nested = try #require(turned.spans(named: "inner wait during \(label)").first)
            let outerEnd = try #require(outer.end), nestedEnd = try #require(nested.end)
            #expect(outer.thread == turned.pid && nested.thread == turned.pid, "both loops turn on the main thread")
            #expect(outer.start <= nested.start && nestedEnd <= outerEnd, "the inner wait ran inside the outer one")
            #expect(Double(outerEnd - outer.start) / 1e9 >= inner * 0.98, "\(outerName) lasted as long as the inner wait")
        }
        // The first wait's own download landed long before it returned.
        let landed = try #require(turned.spans(named: "network load astronaut").last?.end)
        let innerEnd = try #require(turned.spans(named: "inner wait during the first wait").first?.end)
        #expect(landed < innerEnd)
        let (landedAfter, returnedAfter) = try Self.firstWaitTimes(in: turned)
        #expect(landedAfter < returnedAfter && returnedAfter >= inner * 0.98, "landed after \(landedAfter) s, returned after \(returnedAfter) s")
        let gaveUp = try Self.secondWaitGaveUp(in: turned)
        #expect(gaveUp >= inner * 0.98, "the timeout of \(timeout) s fired after \(gaveUp) s")
        // Without the knob the same lines print, each wait returning on its own: the first once its download landed,
        // the second at its own timeout, never early. (How much sooner is the load's to say; that nothing nests is
        // checked above.)
        let (landedAlone, returnedAlone) = try Self.firstWaitTimes(in: run)
        #expect(landedAlone <= returnedAlone, "landed after \(landedAlone) s, returned after \(returnedAlone) s")
        #expect(try Self.secondWaitGaveUp(in: run) >= timeout * 0.98)
    }

    /// "The first wait's download landed after 51.2 ms; the wait returned after 52.0 ms", in seconds.
    static func firstWaitTimes(in run: RunRecord) throws -> (landed: Double, returned: Double) {
        let line = try #require(run.outputText.first { $0.hasPrefix("The first wait's download landed after ") })
        let parts = line.components(separatedBy: "; the wait returned after ")
        try #require(parts.count == 2)
        return (try #require(seconds(in: parts[0])), try #require(seconds(in: parts[1])))
    }

    /// "The second wait was to give up after 300 ms at 1×, 75 ms at 4×, and gave up after 76.0 ms", in seconds.
    static func secondWaitGaveUp(in run: RunRecord) throws -> Double {
        let line = try #require(run.outputText.first { $0.hasPrefix("The second wait was to give up after ") })
        return try #require(line.components(separatedBy: ", and gave up after ").last.flatMap { seconds(in: $0) })
    }

    @Test func forgettingToFinishIsReportedStuckNamingTheOperation() async throws {
        let turned = await Self.turned.value
        let run = turned
        let stall = try #require(run.stall, "expected the run to be stuck, got \(String(describing: run.ending))")
        #expect(stall.unfinishedOperations == ["forgetful load hubble"])
        #expect(stall.openSpans.contains { $0.hasPrefix("waitUntilAllOperationsAreFinished") })
        #expect(run.expectation?.ending == .stuck)
        #expect(run.endedAsExpected)
        #expect(run.ending?.explanation.contains("forgetful load hubble") == true)
    }

    @Test func knobsAreAnnounced() async {
        let turned = await Self.turned.value
        #expect(turned.knobs.map(\.name) == ["requestedPhoto", "claimAsynchronous", "forgetToFinish", "nestedWaits"])
        #expect(turned.knobs.first { $0.name == "requestedPhoto" }?.choices == ["rocket", "coffee", "retina", "unicorn"])
    }

    /// Expects `span` to last `seconds` of real time at the run's speed: never less (a simulated wait does not end
    /// early), and less than the same wait at 1×, so the speed shortened it: a loaded machine may wake the waiting thread
    /// late, but not by three times the wait.
    static func expect(_ span: Span?, lasts seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let duration = try #require(span?.duration, sourceLocation: sourceLocation)
        #expect(duration >= seconds * 0.98 && duration < seconds * speed,
                "\(span?.name ?? "") lasted \(duration) s, not \(seconds) s", sourceLocation: sourceLocation)
    }

    /// The first time in `text` written as LessonKit's `formatSeconds` writes it ("504.0 ms", "1.250 s", "80 µs"), in seconds.
    static func seconds(in text: String) -> Double? {
        guard let match = text.firstMatch(of: /(\d+(?:\.\d+)?) (s|ms|µs)\b/), let value = Double(match.1) else { return nil }
        switch match.2 {
        case "ms": return value / 1e3
        case "µs": return value / 1e6
        default: return value
        }
    }
}

private extension Span {
    /// True if `time` falls between the span's start and end.
    func contains(_ time: UInt64) -> Bool {
        start <= time && time <= (end ?? .max)
    }
}

private extension RunRecord {
    /// What the watchdog found, when it ended the run as stuck.
    var stall: Stall? {
        if case .stuck(let stall) = ending { stall } else { nil }
    }
}
