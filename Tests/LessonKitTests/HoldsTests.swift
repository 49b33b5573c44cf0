import Foundation
import Testing
@testable import LessonKit
import TourTestSupport

/// LessonKit's holds and meters for pages 9 to 11: a gate orders tasks by what happened, never by timing; the meter
/// counts what ran at once and where; the sanitizer's annotations do nothing in a build without it. (`HandOffs` sends
/// trace events, which starts LessonKit's session and its argument check, so page 10's tests cover it.)
@Suite("Holds and meters", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
struct HoldsTests {
    @Test func aGateHoldsEveryTaskUntilItOpensAndLetsLateOnesStraightThrough() async {
        let gate = Gate()
        let arrived = Gate()
        let passed = OverlapMeter()
        let waiting = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 1...3 {
                    group.addTask {
                        await gate.wait()
                        passed.measure {}
                    }
                }
                group.addTask { arrived.open() }
            }
        }
        await arrived.wait()
        // Nothing has passed a gate that was never opened, however long the tasks had.
        await Task.yield()
        #expect(passed.threads.isEmpty)
        gate.open()
        await waiting.value
        #expect(!passed.threads.isEmpty)
        await gate.wait()   // open already: returns at once
    }

    /// A gate that never announced would hold `reached.wait()` for ever: the suite's time limit fails it then.
    @Test func aGateAnnouncesEachTaskThatReachesIt() async {
        let reached = Gate()
        let gate = Gate(announcing: reached)
        let passed = OverlapMeter()
        let task = Task {
            await gate.wait()
            passed.measure {}
        }
        // Returns only once the task has reached the gate, which holds it there until it opens.
        await reached.wait()
        await Task.yield()
        #expect(passed.threads.isEmpty, "the task went past a gate that was never opened")
        gate.open()
        await task.value
        #expect(passed.threadCount == 1)

        // A task that arrives once the gate is open is announced too, and passes at once.
        let reachedLate = Gate()
        let open = Gate(announcing: reachedLate)
        open.open()
        await open.wait()
        await reachedLate.wait()
    }

    @Test func theMeterCountsTheMostAtOnceAndTheThreads() async {
        let meter = OverlapMeter()
        let bothIn = Gate()
        let first = Gate(announcing: bothIn)
        meter.measure {}
        #expect(meter.mostAtOnce == 1 && meter.threadCount == 1)
        // Two jobs held open together by a gate: the meter saw two at once.
        let second = Gate()
        async let one: Void = meter.measure { await first.wait() }
        await bothIn.wait()
        async let two: Void = meter.measure { second.open(); await first.wait() }
        await second.wait()
        first.open()
        _ = await (one, two)
        #expect(meter.mostAtOnce == 2)
    }

    @Test func withoutThreadSanitizerItsAnnotationsDoNothing() {
        #expect(!ThreadSanitizer.isActive)
        let owner = NSObject()
        #expect(ThreadSanitizer.criticalSection(of: owner) { 42 } == 42)
    }
}
