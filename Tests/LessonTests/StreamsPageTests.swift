import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 13 proves what it teaches about streams and cancellation from its own trace: each test reads a real run.
@Suite("Page 13: Streams and cancellation", .bodiesBelowTheRunner)
struct StreamsPageTests {
    static let product = "Lesson13Streams"
    static let speed = 2.0
    /// One run with the default knobs serves every claim but the knobs' own.
    static let run = Task { await sharedRun(product: product, speed: speed) }
    static let unbounded = Task { await recordRun(product: product, knobs: [("buffering", "unbounded")], speed: speed) }
    static let oldest = Task { await recordRun(product: product, knobs: [("buffering", "bufferingOldest")], speed: speed) }
    static let fiveKept = Task { await recordRun(product: product, knobs: [("bufferSize", "5")], speed: speed) }
    /// Stuck on purpose: its reader waits through the watchdog's patience, asleep, so it takes a slot beside the
    /// counted ones.
    static let unfinished = Task { await recordRun(product: product, knobs: [("finishStream", "false")], speed: speed, asleep: true) }
    static let uncancelled = Task { await recordRun(product: product, knobs: [("cancelAlbum", "false")], speed: speed) }

    static let tickCount = 20

    /// One `yield` of a timer, as its mark names it: the tick, and the tick it dropped, if any.
    struct Yield {
        var tick: Int
        var dropped: Int?
        var mark: Mark
    }

    /// The yields of the timer called `timer`, in the order they came.
    static func yields(of timer: String, in run: RunRecord) -> [Yield] {
        run.marks.filter { $0.name.hasPrefix("\(timer): yield ") }.sorted { $0.time < $1.time }.compactMap { mark in
            let words = mark.name.dropFirst("\(timer): yield ".count).components(separatedBy: ": ")
            guard words.count == 2, let tick = Int(words[0]) else { return nil }
            let dropped = words[1].hasPrefix("dropped ") ? Int(words[1].dropFirst("dropped ".count)) : nil
            return Yield(tick: tick, dropped: dropped, mark: mark)
        }
    }

    /// The reader's `read tick N` spans, in the order they began.
    static func reads(in run: RunRecord) -> [(tick: Int, span: Span)] {
        run.spans.filter { $0.name.hasPrefix("read tick ") }.sorted { $0.start < $1.start }.compactMap { span in
            Int(span.name.dropFirst("read tick ".count)).map { ($0, span) }
        }
    }

    static func mark(_ name: String, in run: RunRecord) throws -> Mark {
        try #require(run.marks.first { $0.name == name }, "no mark named \(name)")
    }

    static func span(_ name: String, in run: RunRecord) throws -> (span: Span, end: UInt64) {
        let span = try #require(run.spans(named: name).first, "no span named \(name)")
        return (span, try #require(span.end, "\(name) never ended"))
    }

    /// No tick of `timer` was yielded after `time`. A yield's mark comes after the yield returns, so a tick a reader
    /// got just before its stream ended may be marked after `onTermination`, but never after the timer's `stopped`:
    /// Dispatch runs a source's cancel handler after the event handler that is running.
    static func noYield(of timer: String, after time: UInt64, in run: RunRecord) -> Bool {
        !yields(of: timer, in: run).contains { $0.mark.time > time }
    }

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    // MARK: - A timer as a stream

    /// Every tick is counted once, enqueued or dropped; each drop pushed out an older tick; the reader saw exactly
    /// the ticks never dropped, fewer than half of them, the last among them; the printed counts are the marks'.
    @Test func bufferingNewestDropsTheTickWaitingAndTheCountsAddUp() async throws {
        let run = await Self.run.value
        let yields = Self.yields(of: "tick timer", in: run)
        #expect(yields.map(\.tick) == Array(1...Self.tickCount))
        let drops = yields.compactMap { yield in yield.dropped.map { (yield.tick, $0) } }
        #expect(!drops.isEmpty, "a reader three times slower than the timer makes drops")
        for (tick, dropped) in drops {
            #expect(dropped < tick, "yield \(tick) dropped \(dropped), not an older tick")
        }
        let read = Self.reads(in: run).map(\.tick)
        let droppedTicks = Set(drops.map { $0.1 })
        #expect(read == (1...Self.tickCount).filter { !droppedTicks.contains($0) })
        #expect(read.last == Self.tickCount)
        #expect(read.count < Self.tickCount / 2, "about one tick in three: \(read)")
        let enqueued = Self.tickCount - drops.count
        #expect(run.outputText.contains("With bufferingNewest(1), the timer yielded \(Self.tickCount) ticks: \(enqueued) enqueued, "
                                        + "\(drops.count) dropped. The reader saw \(read.count): \(read.map(String.init).joined(separator: ", "))"),
                "\(run.outputText)")
    }

    @Test func finishRunsOnTerminationOnTheProducersThreadAndStopsTheTimer() async throws {
        let run = await Self.run.value
        let (finish, finishEnd) = try Self.span("tick timer: finish()", in: run)
        let termination = try Self.mark("tick timer: onTermination(.finished)", in: run)
        #expect(termination.thread == finish.thread && termination.time >= finish.start && termination.time <= finishEnd,
                "finish() calls the handler itself, on the producer's thread")
        #expect(finish.queue == "tick timer")
        let stopped = try Self.mark("tick timer stopped", in: run)
        #expect(stopped.time >= termination.time)
        #expect(Self.noYield(of: "tick timer", after: stopped.time, in: run))
        let (_, readingEnd) = try Self.span("for await tick in ticks", in: run)
        #expect(readingEnd > finishEnd, "the reader reads what was buffered, then its loop ends")
    }

    // MARK: - onTermination

    /// The reader was busy when it was cancelled: the handler ran at its next request for a tick, on its thread.
    @Test func aBusyReadersCancellationEndsTheStreamWhenItNextAsks() async throws {
        let run = await Self.run.value
        let (_, cancelEnd) = try Self.span("cancelledReader.cancel()", in: run)
        let termination = try Self.mark("cancel timer: onTermination(.cancelled)", in: run)
        #expect(termination.time > cancelEnd, "nothing was waiting in next() to hear the cancel")
        let asks = try Self.mark("cancelled reader asks for the next tick", in: run)
        #expect(termination.thread == asks.thread && termination.time >= asks.time)
        let stopped = try Self.mark("cancel timer stopped", in: run)
        #expect(stopped.time >= termination.time)
        #expect(Self.noYield(of: "cancel timer", after: stopped.time, in: run))
        let ended = try Self.mark("cancelled reader's loop ends", in: run)
        #expect(ended.time >= termination.time)
        let line = try #require(run.outputText.first { $0.hasPrefix("The cancelled reader read ") })
        #expect(line == "The cancelled reader read 3 ticks before its for await ended"
                || line == "The cancelled reader read 4 ticks before its for await ended", "\(line)")
    }

    @Test func aDroppedStreamEndsOnTheThreadThatLetGoOfIt() async throws {
        let run = await Self.run.value
        let left = try Self.mark("break after tick 3", in: run)
        let termination = try Self.mark("dropped timer: onTermination(.cancelled)", in: run)
        #expect(termination.thread == left.thread && termination.time >= left.time)
        let stopped = try Self.mark("dropped timer stopped", in: run)
        #expect(stopped.time >= termination.time)
        #expect(Self.noYield(of: "dropped timer", after: stopped.time, in: run))
        #expect(Self.yields(of: "dropped timer", in: run).count >= 3)
    }

    // MARK: - withTaskCancellationHandler

    /// Cancelling the album cancels its two children inside the same call: both handlers run on the cancelling
    /// thread before cancel() returns; each download stops at its next chunk and resumes its continuation once.
    @Test func cancellingTheParentRunsEachChildsHandlerOnTheCancellingThread() async throws {
        let run = await Self.run.value
        let (cancel, cancelEnd) = try Self.span("album.cancel()", in: run)
        for photo in ["coffee", "chelsea"] {
            let handler = try Self.mark("\(photo): onCancel", in: run)
            #expect(handler.thread == cancel.thread && handler.time >= cancel.start && handler.time <= cancelEnd,
                    "\(photo)'s onCancel ran outside album.cancel()")
            #expect(run.marks.filter { $0.name == "\(photo): continuation resumed" }.count == 1)
            let chunks = run.spans.filter { $0.name.hasPrefix("\(photo) chunk ") }
            #expect(chunks.count < 10, "\(photo) ran all its chunks")
            #expect(run.marks.contains { $0.name == "\(photo) stops before chunk \(chunks.count + 1)" })
            let task = try #require(run.tasks.first { $0.name == "download \(photo)" })
            #expect(task.kind == .child && task.parent == run.tasks.first { $0.name == "album" }?.number)
        }
        #expect(run.spans.filter { $0.name.hasPrefix("coffee chunk ") }.count == 3, "the page cancels while coffee's chunk 3 runs")
        #expect(run.outputText.contains("The album ended with CancellationError()"))
    }

    @Test func aTaskCancelledBeforeItStartsRunsTheHandlerFirstAndDownloadsNothing() async throws {
        let run = await Self.run.value
        let handler = try Self.mark("rocket: onCancel", in: run)
        let operation = try Self.mark("rocket: operation starts", in: run)
        #expect(handler.time <= operation.time && handler.thread == operation.thread)
        #expect(!run.spans.contains { $0.name.hasPrefix("rocket chunk ") })
        #expect(run.marks.filter { $0.name == "rocket: continuation resumed" }.count == 1)
        #expect(run.outputText.contains("The download cancelled before it started: CancellationError, with no chunk downloaded"))
    }

    // MARK: - The knobs

    @Test func unboundedDropsNothingAndReadsMostTicksAfterTheTimerStopped() async throws {
        let run = await Self.unbounded.value
        #expect(run.ending == .exited(code: 0))
        #expect(!Self.yields(of: "tick timer", in: run).contains { $0.dropped != nil })
        let reads = Self.reads(in: run)
        #expect(reads.map(\.tick) == Array(1...Self.tickCount))
        let stopped = try Self.mark("tick timer stopped", in: run)
        #expect(reads.filter { $0.span.start > stopped.time }.count > Self.tickCount / 2)
    }

    @Test func bufferingOldestDropsTheNewTick() async throws {
        let run = await Self.oldest.value
        let drops = Self.yields(of: "tick timer", in: run).filter { $0.dropped != nil }
        #expect(!drops.isEmpty)
        #expect(drops.allSatisfy { $0.dropped == $0.tick }, "\(drops.map(\.mark.name))")
        #expect(Self.reads(in: run).first?.tick == 1)
    }

    @Test func aBufferOfFiveDropsFewerAndKeepsTheLastFive() async throws {
        let run = await Self.run.value
        let fiveKept = await Self.fiveKept.value
        let dropsOfOne = Self.yields(of: "tick timer", in: run).filter { $0.dropped != nil }.count
        let dropsOfFive = Self.yields(of: "tick timer", in: fiveKept).filter { $0.dropped != nil }
        #expect(!dropsOfFive.isEmpty && dropsOfFive.count < dropsOfOne)
        #expect(Self.reads(in: fiveKept).suffix(5).map(\.tick) == Array(16...20))
    }

    @Test func anUnfinishedStreamKeepsItsReaderWaitingAndTheWatchdogSaysSo() async throws {
        let run = await Self.unfinished.value
        let stall = try #require(run.ending?.stall, "expected the run to be stuck, got \(String(describing: run.ending))")
        #expect(stall.openSpans.contains { $0.hasPrefix("for await tick in ticks") }, "\(stall.openSpans)")
        #expect(run.expectation?.ending == .stuck)
        #expect(run.endedAsExpected)
        #expect(run.spans(named: "tick timer: finish()").isEmpty)
        #expect(run.marks.contains { $0.name == "tick timer stopped" })
        #expect(!run.marks.contains { $0.name.hasPrefix("tick timer: onTermination") })
    }

    @Test func anUncancelledAlbumRunsNoHandlerAndEveryChunk() async {
        let run = await Self.uncancelled.value
        #expect(run.ending == .exited(code: 0))
        for photo in ["coffee", "chelsea"] {
            #expect(!run.marks.contains { $0.name == "\(photo): onCancel" })
            #expect(run.spans.filter { $0.name.hasPrefix("\(photo) chunk ") }.count == 10)
        }
        #expect(run.outputText.contains("The album downloaded both photos: 400 kB and 400 kB"))
    }
}
