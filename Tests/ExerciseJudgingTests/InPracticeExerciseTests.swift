import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 5's exercises: the prediction graded from fixture records of every outcome, and the challenge judged from real
/// runs of the untouched exercise, the reference solution and the two variants that must fail.
@Suite("Exercises of page 5: In Practice", .bodiesBelowTheRunner)
struct InPracticeExerciseTests {
    static let exercises = PageExercises.inPractice

    @Test func theCatalogListsThePageAfterPage4() throws {
        let listed = try #require(ExerciseCatalog.exercises(forPage: "in-practice"))
        #expect(listed.challenge.product == "Exercise05InPractice")
        let pages = ExerciseCatalog.all.map(\.page)
        #expect(try #require(pages.firstIndex(of: "dependencies")) < (try #require(pages.firstIndex(of: "in-practice"))))
    }

    // MARK: The prediction

    /// A run of the page whose queue allowed `width`, with `work` as (name, thread, start, end) spans.
    static func listRun(width: Int = 3, _ work: [(String, Int32, Int, Int)]) throws -> RunRecord {
        let knob = #"{"e":"knob","t":1100,"tid":10,"q":"com.apple.main-thread","name":"maxConcurrentOperationCount","type":"int","value":"\#(width)","default":"3","min":1,"max":6}"#
        let spans = work.enumerated().flatMap { id, span in [
            #"{"e":"begin","t":\#(span.2),"tid":\#(span.1),"q":"image list","id":\#(id + 1),"name":"\#(span.0)"}"#,
            #"{"e":"end","t":\#(span.3),"tid":\#(span.1),"q":"image list","id":\#(id + 1),"name":"\#(span.0)"}"#,
        ] }
        return try recordFromTrace([knob] + spans)
    }

    @Test func workThatOnlyTakesTurnsIsChoiceA() throws {
        // The second download begins at the very instant the first ends: that is taking turns, not overlapping.
        let record = try Self.listRun(width: 1, [("network load coffee", 11, 1_000, 5_000), ("network load rocket", 11, 5_000, 9_000),
                                                 ("tilt-shift row 0", 11, 9_000, 9_500)])
        let seen = Self.exercises.prediction.observe(record)
        #expect(seen.rightChoice == "a")
        #expect(seen.happened == "at most 1 was at work at once, first at 0.00 s on T1, where the queue allowed 1; over the run the work ran on 1 thread")
    }

    @Test func twoAtOnceIsChoiceB() throws {
        let record = try Self.listRun([("network load coffee", 11, 1_000, 500_001_000), ("network load rocket", 12, 250_001_000, 900_000_000),
                                       ("tilt-shift row 0", 11, 600_000_000, 700_000_000)])
        let seen = Self.exercises.prediction.observe(record)
        #expect(seen.rightChoice == "b")
        #expect(seen.happened == "at most 2 were at work at once, first at 0.25 s on T1, T2, where the queue allowed 3; over the run the work ran on 2 threads")
    }

    @Test func threeAtOnceIsChoiceC() throws {
        let record = try Self.listRun([("network load coffee", 11, 1_000, 500_000_000), ("network load rocket", 12, 2_000, 500_000_000),
                                       ("tilt-shift row 1", 13, 3_000, 100_000_000), ("scroll +4", 10, 0, 600_000_000)])
        let seen = Self.exercises.prediction.observe(record)
        #expect(seen.rightChoice == "c", "the finger's scroll span is not work: three, not four")
        #expect(seen.happened.hasPrefix("at most 3 were at work at once"))
    }

    @Test func aRunWithNoFinishedWorkCannotTell() throws {
        let record = try Self.listRun([("scroll +4", 10, 1_000, 2_000)])
        let seen = Self.exercises.prediction.observe(record)
        #expect(seen.rightChoice == nil)
        #expect(seen.happened == "this run finished no download or tilt-shift, so it cannot tell")
    }

    /// The page's own run with a queue one wide: whatever the machine, its work takes turns.
    @Test func thePageWithAQueueOneWideBearsOutA() async {
        let run = await sharedRun(product: "Lesson05InPractice", knobs: [("maxConcurrentOperationCount", "1")], speed: 10)
        #expect(Self.exercises.prediction.observe(run).rightChoice == "a")
    }

    // MARK: The challenge

    static func verdict(of product: String) async -> CheckVerdict {
        let challenge = exercises.challenge
        let run = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                  speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return CheckVerdict(of: run, for: challenge)
    }

    /// Every row downloads its own photo and nothing is ever cancelled, so rows 3 and 4 download photo 4 each, row 2
    /// (twice) and row 5 photo 3, and the downloads of rows 0 and 1, which left in the tunnel, finish after it: the
    /// tunnel holds every download at its second part until the scrolling is over, so this holds under any load.
    @Test func theUntouchedExerciseDownloadsTwiceAndForRowsScrolledAway() async throws {
        let verdict = await Self.verdict(of: Self.exercises.challenge.product)
        #expect(!verdict.passed)
        #expect(verdict.findings.first == CheckFinding(holds: true, "the program ran to its end"))
        let failures = verdict.failures.map(\.text)
        try #require(failures.count == 4, "\(failures)")
        let time = #"\d+\.\d\d s"#, lane = "T\\d+"
        #expect(try wholeMatch(failures[0], "photo 3 was downloaded 3 times: at \(time) on \(lane), \(time) on \(lane) and \(time) on \(lane); "
            + "a row whose photo is here or on its way must take that one"), "\(failures)")
        #expect(try wholeMatch(failures[1], "photo 4 was downloaded twice: at \(time) on \(lane) and \(time) on \(lane); "
            + "a row whose photo is here or on its way must take that one"), "\(failures)")
        for (failure, row) in zip(failures[2...], [0, 1]) {
            #expect(try wholeMatch(failure, "row \(row) scrolled out at \(time) but its download of photo \(row + 1) ran to the end: "
                + "parts (1, 2, 3|2, 3|3) and 4 of 4 began after, the last at \(time); cancel it, and look at isCancelled before each part"),
                    "\(failures)")
        }
        #expect(verdict.findings.last == CheckFinding(holds: true, "rows 2, 3 and 4, in view at the end, each show their photo"))
    }

    @Test func theReferenceSolutionPasses() async {
        let verdict = await Self.verdict(of: Self.exercises.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        #expect(verdict.findings.map(\.text) == [
            "the program ran to its end",
            "no photo was downloaded twice: 2 photos, each downloaded to the end once",
            "every download stopped within one part once no row in view showed its photo (2 cancelled)",
            "rows 2, 3 and 4, in view at the end, each show their photo",
        ])
    }

    @Test func theEmptiedExerciseFails() async {
        let verdict = await Self.verdict(of: "ExerciseVariant05InPracticeEmptied")
        #expect(verdict.failures.map(\.text) == ["no row came into view: the screen never marked one, so the list never ran"])
    }

    /// It prints the solution's lines and makes the screen's marks, but no operation downloads anything.
    @Test func theFakedExerciseFailsThoughItPrintsAndMarksWhatTheSolutionDoes() async {
        let verdict = await Self.verdict(of: "ExerciseVariant05InPracticeFaked")
        #expect(verdict.failures.map(\.text) == ["no download operation ran: the photos must arrive through DownloadOperations on the queue"])
    }

    /// Only the first step: no photo downloads twice, but nothing is cancelled, so a download nobody wants runs on.
    @Test func neverDownloadingTwiceAloneFailsBecauseScrolledAwayDownloadsRunToTheEnd() async {
        let verdict = await Self.verdict(of: "ExerciseVariant05InPracticeFirstStep")
        #expect(verdict.findings.contains(CheckFinding(holds: true, "no photo was downloaded twice: 4 photos, each downloaded to the end once")))
        let failures = verdict.failures.map(\.text)
        let expected = #/row \d scrolled out at \d+\.\d\d s but its download of photo \d ran to the end: parts? [\d, and]+ of 4 began after, the last at \d+\.\d\d s; cancel it, and look at isCancelled before each part/#
        #expect(!failures.isEmpty && failures.allSatisfy { $0.wholeMatch(of: expected) != nil }, "\(failures)")
    }

    // MARK: The judge's margin

    /// Row 0 with photo 1 in view from 0.1 s and out at 0.3 s; a download of photo 1 on thread 11 whose parts begin
    /// at `partStarts` (seconds), each lasting 0.05 s.
    static func scrolledAwayRun(partStarts: [Double]) throws -> RunRecord {
        func at(_ seconds: Double) -> Int { 1_000 + Int(seconds * 1e9) }
        func op(_ state: String, _ seconds: Double) -> String {
            #"{"e":"op","t":\#(at(seconds)),"tid":11,"q":"downloads","op":"download photo 1","oid":1,"state":"\#(state)"}"#
        }
        let parts = partStarts.enumerated().flatMap { index, start in [
            #"{"e":"begin","t":\#(at(start)),"tid":11,"q":"downloads","id":\#(index + 1),"name":"photo 1, part \#(index + 1) of 4"}"#,
            #"{"e":"end","t":\#(at(start + 0.05)),"tid":11,"q":"downloads","id":\#(index + 1),"name":"photo 1, part \#(index + 1) of 4"}"#,
        ] }
        return try recordFromTrace([
            #"{"e":"mark","t":\#(at(0.1)),"tid":10,"q":"com.apple.main-thread","name":"row 0 in view, photo 1"}"#,
            op("executing", 0.15),
        ] + parts.prefix(4) + [
            op("cancelled", 0.29),
            #"{"e":"mark","t":\#(at(0.3)),"tid":10,"q":"com.apple.main-thread","name":"row 0 out of view"}"#,
        ] + parts.dropFirst(4) + [op("finished", 1)])
    }

    /// The part a download had already decided to fetch when it was cancelled may begin after the row left; a second
    /// may not.
    @Test func aDownloadMayBeginOneMorePartAfterItsRowLeftButNotTwo() throws {
        let judge = Self.exercises.challenge.judge
        let stopped = judge(try Self.scrolledAwayRun(partStarts: [0.2, 0.3]))
        #expect(stopped.contains(CheckFinding(holds: true, "every download stopped within one part once no row in view showed its photo (1 cancelled)")))
        let wentOn = judge(try Self.scrolledAwayRun(partStarts: [0.2, 0.3, 0.4]))
        #expect(wentOn.contains(CheckFinding(holds: false, "row 0 scrolled out at 0.30 s but its download of photo 1 went on: parts 2 and 3 of 4 began after, the last at 0.40 s; cancel it, and look at isCancelled before each part")))
    }
}
