import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 13's challenge, judged from real runs of its programs, and its prediction, graded from fixture records and from
/// a real run of the page.
@Suite("Exercises of page 13: Streams and cancellation", .bodiesBelowTheRunner)
struct StreamsExerciseTests {
    static let challenge = PageExercises.streams.challenge

    /// A run of `product` as `tour check 13` makes it, and its verdict.
    static func check(_ product: String) async -> (record: RunRecord, verdict: CheckVerdict) {
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                     speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return (record, CheckVerdict(of: record, for: challenge))
    }

    static let wristBandWaits = "the wrist band's reader still waited for a reading after the battery ran out at "

    @Test func theUntouchedExerciseLeavesTheSensorRunningAndItsReaderWaiting() async throws {
        let (record, verdict) = await Self.check(Self.challenge.product)
        #expect(record.ending?.stall != nil, "the wrist band's reader waits for good: \(String(describing: record.ending))")
        let failures = verdict.failures.map(\.text)
        #expect(failures.count == 3, "\(failures)")
        #expect(failures.first?.hasPrefix("the program got stuck") == true, "\(failures)")
        let kept = try #require(failures.first { $0.hasPrefix("the chest strap went on reading after its reader was cancelled at ") })
        #expect(kept.contains(" readings came that nobody read, until the check switched it off at ")
                && kept.hasSuffix("; stop the sensor in the continuation's onTermination"), "\(kept)")
        let waits = try #require(failures.first { $0.hasPrefix(Self.wristBandWaits) })
        #expect(waits.hasSuffix(": finish the stream in the sensor's onEnd"))
    }

    @Test func theReferenceSolutionPasses() async {
        let (record, verdict) = await Self.check(Self.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        #expect(record.marks.filter { $0.name.hasPrefix("reader got wrist band ") }.count == 4)
    }

    @Test func theEmptiedExerciseFails() async {
        let (record, verdict) = await Self.check("ExerciseVariant13StreamsEmptied")
        #expect(record.ending?.stall != nil)
        #expect(verdict.failures.map(\.text).last == "no reading of the chest strap reached its reader: start the sensor in the "
                + "stream's closure and yield each reading onReading hands you into the continuation")
    }

    @Test func theFakedSolutionFailsThoughItPrintsWhatTheSolutionPrints() async {
        let (record, verdict) = await Self.check("ExerciseVariant13StreamsFaked")
        #expect(record.outputText.contains("Read the chest strap until it was cancelled, and the wrist band until its battery ran out"))
        #expect(record.ending == .exited(code: 0))
        #expect(verdict.failures.map(\.text) == [
            "no reading of the chest strap reached its reader: start the sensor in the stream's closure and yield each reading "
                + "onReading hands you into the continuation",
        ])
    }

    /// Only the first step: the sensor stopped on termination, and nothing ends the stream when the battery runs out.
    @Test func stoppingTheSensorAloneLeavesTheWristBandsReaderWaiting() async throws {
        let (record, verdict) = await Self.check("ExerciseVariant13StreamsFirstStep")
        #expect(record.ending?.stall != nil)
        #expect(verdict.findings.contains { $0.holds && $0.text.hasPrefix("the chest strap was stopped at ") })
        let failures = verdict.failures.map(\.text)
        #expect(failures.count == 2 && failures.first?.hasPrefix("the program got stuck") == true, "\(failures)")
        #expect(failures.last?.hasPrefix(Self.wristBandWaits) == true, "\(failures)")
    }

    // MARK: The judge on runs that went wrong in other ways

    /// Five chest strap readings read, the cancel at 200 ms, the strap stopped at `stoppedAt` ms, and the wrist band's
    /// battery empty at 400 ms and its reader's loop ended at 401 ms.
    static func sensorRun(stoppedAt: Int) throws -> RunRecord {
        var lines = (1...5).map { TraceFixture.mark("reader got chest strap 7\($0)", at: $0 * 30) }
        lines.append(TraceFixture.mark("the check cancels the chest strap reader", at: 200))
        lines.append(TraceFixture.mark("chest strap stopped", at: stoppedAt))
        lines.append(TraceFixture.mark("wrist band battery empty", at: 400))
        lines.append(TraceFixture.mark("wrist band reader's loop ends", at: 401))
        return try TraceFixture.record(lines, ending: .exited(code: 0))
    }

    @Test func aSensorStoppedOnTerminationPasses() throws {
        let findings = Self.challenge.judge(try Self.sensorRun(stoppedAt: 200))
        #expect(findings.filter { !$0.holds }.isEmpty, "\(findings)")
        #expect(findings.contains(CheckFinding(holds: true, "the chest strap was stopped at 0.20 s, when its reader was cancelled at 0.20 s")))
    }

    @Test func aSensorStoppedBeforeItsReaderWasCancelledIsCaught() throws {
        let findings = Self.challenge.judge(try Self.sensorRun(stoppedAt: 160))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "the chest strap was stopped at 0.16 s, before its reader was cancelled at 0.20 s: stop it when the stream ends, not before",
        ])
    }

    // MARK: The prediction

    static let prediction = PageExercises.streams.prediction

    /// Ticks 1…6 yielded 40 ms apart, with `drops` (tick → the tick it dropped), and a read of each tick in `read`.
    static func tickRun(drops: [Int: Int], read: [Int]) throws -> RunRecord {
        var lines = (1...6).map { tick in
            TraceFixture.mark("tick timer: yield \(tick): " + (drops[tick].map { "dropped \($0)" } ?? "enqueued, room for 0"),
                              at: tick * 40, thread: 5_000, queue: "tick timer")
        }
        for (index, tick) in read.enumerated() {
            lines += TraceFixture.span(index + 1, "read tick \(tick)", from: 40 + index * 120, to: 160 + index * 120, thread: 5_001, queue: "")
        }
        return try TraceFixture.record(lines, ending: .exited(code: 0))
    }

    @Test func predictionIsRightForEveryTickWhenNoneWasDropped() throws {
        let observation = Self.prediction.observe(try Self.tickRun(drops: [:], read: Array(1...6)))
        #expect(observation.rightChoice == "a")
        #expect(observation.happened == "the timer yielded 6 ticks and none was dropped; the reader saw 6: 1, 2, 3, 4, 5, 6")
    }

    @Test func predictionIsRightForTheNewestWhenDropsPushedOutTheTickWaiting() throws {
        let observation = Self.prediction.observe(try Self.tickRun(drops: [3: 2, 4: 3, 6: 5], read: [1, 4, 6]))
        #expect(observation.rightChoice == "b")
        #expect(observation.happened == "the timer yielded 6 ticks, 3 of its yields dropped the tick waiting to make room, "
                + "and the reader saw 3: 1, 4, 6")
    }

    @Test func predictionIsRightForStaleTicksWhenTheNewOnesWereThrownAway() throws {
        let observation = Self.prediction.observe(try Self.tickRun(drops: [3: 3, 4: 4, 6: 6], read: [1, 2, 5]))
        #expect(observation.rightChoice == "c")
        #expect(observation.happened == "the timer yielded 6 ticks, 3 of them were thrown away as they came, and the reader saw 3: 1, 2, 5")
    }

    @Test func aRunWithNoTicksCannotTell() throws {
        let observation = Self.prediction.observe(try TraceFixture.record([TraceFixture.mark("nothing", at: 1)], ending: .exited(code: 0)))
        #expect(observation == .init(rightChoice: nil, happened: "this run's timer yielded no tick, so it cannot tell"))
        #expect(Self.prediction.choices.map(\.key) == ["a", "b", "c"])
    }

    /// The page at its defaults, bufferingNewest(1), bears out the choice its prose claims.
    @Test func thePagesOwnRunBearsOutTheNewest() async {
        let record = await sharedRun(product: "Lesson13Streams", speed: 2)
        #expect(Self.prediction.observe(record).rightChoice == "b", "\(Self.prediction.observe(record).happened)")
    }
}
