import Testing
import TourCore
import TourTestSupport

/// Page 1 proves what it teaches from its own trace: each test reads the events of a real run.
@Suite("Page 1: Operation")
struct OperationPageTests {
    /// One run at a high speed factor serves the claims that do not need a knob.
    static let run = recordRun(product: "Lesson01Operation", speed: 10)

    @Test func endsNormallyAsItSays() {
        #expect(Self.run.ending == .exited(code: 0))
        #expect(Self.run.endedAsExpected)
        #expect(Self.run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func directStartRunsOnTheCallingThread() throws {
        let span = try #require(Self.run.spans(named: "tilt-shift in a block operation").first)
        #expect(span.thread == Self.run.pid, "start() called from main ran the block on the main thread")
    }

    @Test func extraExecutionBlocksRunOneAfterAnotherOnOneThread() throws {
        let blocks = (1...3).compactMap { Self.run.spans(named: "execution block \($0)").first }
        try #require(blocks.count == 3)
        #expect(Set(blocks.map(\.thread)).count == 1)
        for (earlier, later) in zip(blocks, blocks.dropFirst()) {
            let earlierEnd = try #require(earlier.end)
            #expect(earlierEnd <= later.start, "block \(later.name) began before the previous one ended")
        }
    }

    @Test func completionBlockRunsAfterTheOperationFinished() throws {
        let operation = try #require(Self.run.operations.first { $0.name == "filter coffee" })
        let finished = try #require(operation.firstTime(of: "finished"))
        let completion = try #require(Self.run.marks.first { $0.name == "completion block" })
        #expect(completion.time >= finished)
        #expect(completion.thread != Self.run.pid, "Foundation runs completion blocks on a worker thread")
    }

    @Test func operationReportsEveryStateInOrder() throws {
        let operation = try #require(Self.run.operations.first { $0.name == "filter coffee" })
        let states = operation.changes.map(\.state)
        #expect(Array(states.prefix(3)) == ["ready", "executing", "finished"])
    }

    @Test func operationCancelledBeforeStartNeverRunsItsBody() throws {
        let operation = try #require(Self.run.operations.first { $0.name == "cancelled before start" })
        #expect(operation.changes.map(\.state).contains("cancelled"))
        #expect(!operation.changes.map(\.state).contains("executing"))
        let bodies = Self.run.spans(named: "tilt-shift body")
        #expect(bodies.count == 1, "only the operation that was not cancelled ran its body")
    }

    @Test func operationCancelledWhileRunningStopsAtItsNextCheck() throws {
        let operation = try #require(Self.run.operations.first { $0.name == "cancelled while running" })
        let cancelled = try #require(operation.firstTime(of: "cancelled"))
        let executing = try #require(operation.firstTime(of: "executing"))
        #expect(executing <= cancelled)
        let bands = Self.run.spans.filter { $0.name.hasPrefix("band ") }
        #expect(bands.count < 8, "the cancelled operation skipped the bands after its check")
        #expect(Self.run.outputText.contains { $0.hasPrefix("Saw the cancellation before band") })
    }

    @Test func finishedOperationDoesNotRunAgainOnStart() throws {
        let operation = try #require(Self.run.operations.first { $0.name == "filter coffee" })
        #expect(operation.changes.filter { $0.state == "executing" }.count == 1)
    }

    @Test func resultsAppearBesideTheirLines() {
        let kinds = Set(Self.run.results.map(\.kind))
        #expect(kinds == ["duration", "peek"])
        #expect(Self.run.results.allSatisfy { $0.file == "main.swift" && $0.line > 0 })
    }

    @Test(arguments: [1, 5])
    func executionBlocksKnobSetsTheNumberOfBlocks(count: Int) {
        let run = recordRun(product: "Lesson01Operation", knobs: [("executionBlocks", "\(count)")], speed: 10)
        #expect(run.spans.filter { $0.name.hasPrefix("execution block ") }.count == count)
        #expect(run.knobs.first { $0.name == "executionBlocks" }?.value == "\(count)")
    }

    @Test func reAddingAFinishedOperationCrashesAsExplained() throws {
        let run = recordRun(product: "Lesson01Operation", knobs: [("reAddFinishedOperation", "true")], speed: 10)
        guard case .fatalError(let message, _) = run.ending else {
            Issue.record("expected a fatal error, got \(String(describing: run.ending))")
            return
        }
        #expect(message.contains("cannot be enqueued"))
        #expect(run.expectation?.ending == "crash")
        #expect(run.endedAsExpected)
        #expect(run.ending?.explanation.contains("runs once") == true)
    }
}
