import Testing
import TourCore
import TourTestSupport

/// Page 1 proves what it teaches from its own trace: each test reads the events of a real run.
@Suite("Page 1: Operation", .bodiesBelowTheRunner)
struct OperationPageTests {
    /// One run at a high speed factor serves the claims that do not need a knob.
    static let run = Task { await sharedRun(product: "Lesson01Operation", speed: 10) }

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func directStartRunsOnTheCallingThread() async throws {
        let run = await Self.run.value
        let span = try #require(run.spans(named: "tilt-shift in a block operation").first)
        #expect(span.thread == run.pid, "start() called from main ran the block on the main thread")
    }

    /// Each execution block waits this long at 1× (`Simulated.wait(0.04)` on the page).
    static let blockWait = 0.04

    /// The blocks run end to end on one thread, so together they take at least `count` waits at the run's speed.
    static func expectBlocksRunOneAfterAnother(in run: RunRecord, count: Int, speed: Double) throws {
        let blocks = (1...count).compactMap { run.spans(named: "execution block \($0)").first }
        try #require(blocks.count == count)
        #expect(run.spans.filter { $0.name.hasPrefix("execution block ") }.count == count)
        #expect(Set(blocks.map(\.thread)).count == 1)
        for (earlier, later) in zip(blocks, blocks.dropFirst()) {
            let earlierEnd = try #require(earlier.end)
            #expect(earlierEnd <= later.start, "block \(later.name) began before the previous one ended")
        }
        let first = try #require(blocks.first?.start)
        let last = try #require(blocks.last?.end)
        let together = Double(last - first) / 1e9
        #expect(together >= Double(count) * blockWait / speed * 0.99, "\(count) blocks took \(together) s")
    }

    @Test func extraExecutionBlocksRunOneAfterAnotherOnOneThread() async throws {
        let run = await Self.run.value
        try Self.expectBlocksRunOneAfterAnother(in: run, count: 3, speed: 10)
    }

    @Test func completionBlockRunsAfterTheOperationFinished() async throws {
        let run = await Self.run.value
        let operation = try #require(run.operations.first { $0.name == "filter coffee" })
        let finished = try #require(operation.firstTime(of: .finished))
        let completion = try #require(run.marks.first { $0.name == "completion block" })
        #expect(completion.time >= finished)
        #expect(completion.thread != run.pid, "Foundation runs completion blocks on a worker thread")
    }

    /// The prose above the block leaves the thread to the prediction; the run answers it, in its own output.
    @Test func theCompletionBlockSaysWhereItRanAndWhy() async throws {
        let run = await Self.run.value
        let line = try #require(run.outputText.first { $0.hasPrefix("Completion block: the operation is finished. It runs on thread ") })
        #expect(line.contains("(the main thread: false), queue com.apple.root."), "\(line)")
        #expect(line.hasSuffix(": once the operation was finished, Foundation handed the block to a global queue, so a worker thread ran it, "
                               + "not the thread that called start()"), "\(line)")
    }

    @Test func operationReportsEveryStateInOrder() async throws {
        let run = await Self.run.value
        let operation = try #require(run.operations.first { $0.name == "filter coffee" })
        #expect(operation.changes.map(\.state) == [.ready, .executing, .finished])
    }

    /// The state lines come from Foundation's own `start()`: `executing` as it calls `main()`, `finished` as it returns,
    /// each on the thread that called `start()`, with the body between them.
    @Test func stateLinesAreFoundationsOwnChanges() async throws {
        let run = await Self.run.value
        let operation = try #require(run.operations.first { $0.name == "filter coffee" })
        let body = try #require(run.spans(named: "tilt-shift body").first)
        let executing = try #require(operation.firstTime(of: .executing))
        let finished = try #require(operation.firstTime(of: .finished))
        #expect(executing <= body.start)
        let bodyEnd = try #require(body.end)
        #expect(bodyEnd <= finished)
        #expect(operation.changes.allSatisfy { $0.thread == run.pid }, "start() was called on main, and Foundation's start() ran there")
        let span = try #require(run.spans(named: "filter coffee").first)
        let spanEnd = try #require(span.end)
        #expect(span.start >= executing && spanEnd <= finished)
    }

    @Test func operationCancelledBeforeStartNeverRunsItsBody() async throws {
        let run = await Self.run.value
        let operation = try #require(run.operations.first { $0.name == "cancelled before start" })
        // Foundation's cancel() re-reads isReady; its start() then goes from the cancelled flag straight to finished.
        #expect(operation.changes.map(\.state) == [.ready, .cancelled, .finished])
        let bodies = run.spans(named: "tilt-shift body")
        #expect(bodies.count == 1, "only the operation that was not cancelled ran its body")
        #expect(run.spans(named: "cancelled before start").isEmpty, "no executing line, so no span named after it")
    }

    /// Foundation's `cancel()` drops an unstarted operation's wait for its dependencies: it is ready, and `start()` does
    /// not trap, although its dependency never ran.
    @Test func cancellingBeforeStartMakesAnOperationReadyWithoutItsDependency() async throws {
        let run = await Self.run.value
        let dependency = try #require(run.dependencies.first { $0.operationName == "cancelled before start" })
        #expect(dependency.dependencyName == "dependency never started")
        #expect(!run.operations.contains { $0.name == "dependency never started" }, "the dependency never ran")
        let operation = try #require(run.operations.first { $0.name == "cancelled before start" })
        let ready = try #require(operation.firstTime(of: .ready))
        #expect(dependency.time < ready, "isReady answered false while the dependency held it, true after cancel()")
        #expect(run.ending == .exited(code: 0))
    }

    @Test func operationCancelledWhileRunningStopsAtItsNextCheck() async throws {
        let run = await Self.run.value
        let operation = try #require(run.operations.first { $0.name == "cancelled while running" })
        let cancelled = try #require(operation.firstTime(of: .cancelled))
        let executing = try #require(operation.firstTime(of: .executing))
        #expect(executing <= cancelled)
        // Band 1 holds until the page has cancelled, so the cancel always lands during it, however loaded the machine.
        let bands = run.spans.filter { $0.name.hasPrefix("band ") }
        #expect(bands.map(\.name) == ["band 1"], "the cancelled operation skipped the bands after its check")
        let bandEnd = try #require(bands.first?.end)
        #expect(cancelled < bandEnd, "band 1 went on working after the cancel")
        #expect(run.outputText.contains("Saw the cancellation before band 2 of 8: the rest never runs"))
        #expect(run.results.contains { $0.kind == .peek && $0.line > 0 && $0.text == "1" }, "bandsDone is 1")
    }

    @Test func waitUntilFinishedReturnsOnceTheOperationHasFinished() async throws {
        let run = await Self.run.value
        let operation = try #require(run.operations.first { $0.name == "cancelled while running" })
        let finished = try #require(operation.firstTime(of: .finished))
        let executing = try #require(operation.firstTime(of: .executing))
        let wait = try #require(run.spans(named: "waitUntilFinished").first)
        #expect(wait.thread == run.pid)
        #expect(operation.changes.first { $0.state == .executing }?.thread != run.pid, "the queue ran it on a worker")
        let waitEnd = try #require(wait.end)
        #expect(executing <= finished && wait.start <= finished && finished <= waitEnd)
    }

    /// Foundation's `start()` returns at once on a finished operation: the trace shows nothing between the call and the mark.
    @Test func finishedOperationDoesNotRunAgainOnStart() async throws {
        let run = await Self.run.value
        let operation = try #require(run.operations.first { $0.name == "filter coffee" })
        #expect(operation.changes.map(\.state) == [.ready, .executing, .finished])
        let returned = try #require(run.marks.first { $0.name == "second start() returned" })
        #expect(operation.changes.allSatisfy { $0.time < returned.time })
        #expect(run.spans(named: "filter coffee").count == 1)
        #expect(run.spans(named: "tilt-shift body").count == 1)
    }

    @Test func startingAnOperationThatIsNotReadyTrapsInFoundation() async throws {
        let run = await recordRun(product: "Lesson01Operation", knobs: [("startBeforeReady", "true")], speed: 10)
        let ending = try #require(run.ending)
        let (message, location) = try #require(Self.fatalError(in: ending), "expected Foundation's fatal error, got \(ending)")
        #expect(message.hasSuffix("receiver is not yet ready to execute"))
        #expect(location?.hasPrefix("Foundation/Operation.swift:") == true, "raised in Foundation's start(), at \(String(describing: location))")
        #expect(run.expectation?.ending == .crash)
        #expect(run.endedAsExpected)
        #expect(ending.explanation.contains("dependenc"))
        #expect(!run.operations.contains { $0.name == "started before ready" }, "Foundation read isReady, got false, and no state ever changed")
        #expect(run.dependencies.contains { $0.operationName == "started before ready" && $0.dependencyName == "dependency that never runs" })
        // Foundation asked twice, once in addDependency and once in start(), and both times the answer was no.
        let answers = run.marks.filter { $0.name.hasPrefix("isReady: ") }
        #expect(answers.map(\.name) == ["isReady: false", "isReady: false"])
        let addDependency = try #require(run.spans(named: "addDependency").first)
        let start = try #require(run.spans(named: "start()").first)
        let addDependencyEnd = try #require(addDependency.end)
        try #require(answers.count == 2)
        #expect(addDependency.start <= answers[0].time && answers[0].time <= addDependencyEnd, "the first answer came inside addDependency")
        #expect(start.start <= answers[1].time, "the second answer came inside start()")
    }

    @Test func resultsAppearBesideTheirLines() async {
        let run = await Self.run.value
        let kinds = Set(run.results.map(\.kind))
        #expect(kinds == [.duration, .peek])
        #expect(run.results.allSatisfy { $0.file == "main.swift" && $0.line > 0 })
    }

    @Test(arguments: [1, 6])
    func executionBlocksKnobGrowsTheTotalWithTheCount(count: Int) async throws {
        let run = await recordRun(product: "Lesson01Operation", knobs: [("executionBlocks", "\(count)")], speed: 10)
        try Self.expectBlocksRunOneAfterAnother(in: run, count: count, speed: 10)
        #expect(run.knobs.first { $0.name == "executionBlocks" }?.value == "\(count)")
        #expect(run.outputText.contains { $0.hasPrefix("\(count) execution blocks, each waiting 40 ms at 1×, 4 ms at 10×, took ") })
    }

    /// At `--speed 4` the page states the wait each block really makes, and the blocks' spans last at least that.
    @Test func atSpeedFourThePrintedWaitIsTheRealOne() async throws {
        let run = await recordRun(product: "Lesson01Operation", speed: 4)
        #expect(run.ending == .exited(code: 0))
        #expect(run.outputText.contains { $0.hasPrefix("3 execution blocks, each waiting 40 ms at 1×, 10 ms at 4×, took ") })
        for number in 1...3 {
            let block = try #require(run.spans(named: "execution block \(number)").first)
            let end = try #require(block.end)
            #expect(Double(end - block.start) / 1e9 >= 0.010 * 0.99)
        }
        try Self.expectBlocksRunOneAfterAnother(in: run, count: 3, speed: 4)
    }

    /// Three times as wide and tall, nine times the pixels: the size line and the filtered image say so, and the first
    /// filter takes longer than the default run's, however the load on the machine differs between the two runs.
    @Test func thePhotoScaleKnobEnlargesWhatEveryFilterWorksOn() async throws {
        let run = await recordRun(product: "Lesson01Operation", knobs: [("photoScale", "3")], speed: 10)
        let standard = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.outputText.contains("Loaded coffee: 400×300 pixels, enlarged to 1200×900"))
        #expect(standard.outputText.contains("Loaded coffee: 400×300 pixels"))
        #expect(run.results.contains { $0.kind == .peek && $0.text == "1200×900 filtered" })
        #expect(standard.results.contains { $0.kind == .peek && $0.text == "400×300 filtered" })
        #expect(run.knobs.first { $0.name == "photoScale" }?.value == "3")
        let enlargedTime = try #require(run.results.first { $0.kind == .duration }?.seconds)
        let standardTime = try #require(standard.results.first { $0.kind == .duration }?.seconds)
        #expect(enlargedTime > standardTime, "nine times the pixels took \(enlargedTime) s against \(standardTime) s")
    }

    @Test func reAddingAFinishedOperationCrashesAsExplained() async throws {
        let run = await recordRun(product: "Lesson01Operation", knobs: [("reAddFinishedOperation", "true")], speed: 10)
        let (message, _) = try #require(run.ending.flatMap(Self.fatalError), "expected a fatal error, got \(String(describing: run.ending))")
        #expect(message.contains("cannot be enqueued"))
        #expect(run.expectation?.ending == .crash)
        #expect(run.endedAsExpected)
        #expect(run.ending?.explanation.contains("runs once") == true)
    }

    /// The message and site of a Swift runtime trap, or nil for any other ending.
    static func fatalError(in ending: RunEnding) -> (message: String, location: String?)? {
        if case .fatalError(let message, let location) = ending { (message, location) } else { nil }
    }
}
