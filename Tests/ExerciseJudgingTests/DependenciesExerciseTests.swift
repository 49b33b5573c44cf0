import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 4's exercises: the prediction graded from fixture records of every outcome, and the challenge judged from real
/// runs of the untouched exercise, the reference solution and the two variants that must fail.
@Suite("Exercises of page 4: Dependencies", .bodiesBelowTheRunner)
struct DependenciesExerciseTests {
    static let exercises = PageExercises.dependencies

    @Test func theCatalogListsThePage() throws {
        let listed = try #require(ExerciseCatalog.exercises(forPage: "dependencies"))
        #expect(listed.challenge.folder == "04-Dependencies")
        #expect(listed.challenge.product == "Exercise04Dependencies")
    }

    // MARK: The prediction

    /// The events of `tilt-shift retina` (oid 7, on thread 12) after its download (oid 6) was cancelled.
    static func retinaRun(_ filterLines: [String]) throws -> RunRecord {
        try recordFromTrace([
            #"{"e":"op","t":1100,"tid":10,"q":"com.apple.main-thread","op":"load retina","oid":6,"state":"cancelled"}"#,
            #"{"e":"dep","t":1110,"tid":10,"q":"com.apple.main-thread","op":"tilt-shift retina","oid":7,"on":"load retina","onid":6}"#,
            #"{"e":"op","t":1200,"tid":11,"q":"network","op":"load retina","oid":6,"state":"finished"}"#,
        ] + filterLines)
    }

    static func filterState(_ state: String, at time: Int) -> String {
        #"{"e":"op","t":\#(time),"tid":12,"q":"filters","op":"tilt-shift retina","oid":7,"state":"\#(state)"}"#
    }

    @Test func aFilterThatFindsTheCancelledDownloadAndCancelsItselfIsChoiceB() throws {
        let record = try Self.retinaRun([Self.filterState("ready", at: 1_000_001_300), Self.filterState("executing", at: 1_000_001_400),
                                         Self.filterState("cancelled", at: 1_000_001_500), Self.filterState("finished", at: 1_000_001_600)])
        let seen = Self.exercises.prediction.observe(record)
        #expect(seen.rightChoice == "b")
        #expect(seen.happened == "it started at 1.00 s on T2, although its download was cancelled, found it cancelled and cancelled itself at 1.00 s without filtering")
    }

    @Test func aFilterThatRunsOnNothingIsChoiceC() throws {
        let record = try Self.retinaRun([Self.filterState("executing", at: 2_000_001_400), Self.filterState("finished", at: 2_000_001_600)])
        let seen = Self.exercises.prediction.observe(record)
        #expect(seen.rightChoice == "c")
        #expect(seen.happened == "it started at 2.00 s on T2, although its download was cancelled, and its main() ran to the end with nothing to filter")
    }

    /// Foundation never does this, but a run where it did would bear out choice a.
    @Test func aFilterThatNeverStartsIsChoiceA() throws {
        let record = try Self.retinaRun([Self.filterState("finished", at: 1_500_000_000)])
        let seen = Self.exercises.prediction.observe(record)
        #expect(seen.rightChoice == "a")
        #expect(seen.happened == "tilt-shift retina finished at 1.50 s without ever starting")
    }

    @Test func aRunThatEndsBeforeTheFilterFinishesCannotTell() throws {
        for lines in [[], [Self.filterState("executing", at: 1400)]] {
            let seen = Self.exercises.prediction.observe(try Self.retinaRun(lines))
            #expect(seen.rightChoice == nil)
            #expect(seen.happened == "this run ended before tilt-shift retina finished, so it cannot tell")
        }
    }

    /// No choice says the filter worked on an image, since a cancelled download has none to give.
    @Test func aFilterThatFilteredMatchesNoChoice() throws {
        let record = try Self.retinaRun([
            Self.filterState("executing", at: 1400),
            #"{"e":"begin","t":1450,"tid":12,"q":"filters","id":1,"name":"filtering for tilt-shift retina"}"#,
            #"{"e":"end","t":1500,"tid":12,"q":"filters","id":1,"name":"filtering for tilt-shift retina"}"#,
            Self.filterState("finished", at: 1600),
        ])
        #expect(Self.exercises.prediction.observe(record).rightChoice == nil)
    }

    /// The page's own runs, with the knob that decides between the two answers Foundation gives.
    @Test func thePageItselfBearsOutBOrCByItsKnob() async {
        // Started together; the default run is the one the page's own suite reads too.
        async let checking = sharedRun(product: "Lesson04Dependencies", speed: 4)
        async let notChecking = recordRun(product: "Lesson04Dependencies", knobs: [("checkDependencies", "false")], speed: 4)
        #expect(Self.exercises.prediction.observe(await checking).rightChoice == "b")
        #expect(Self.exercises.prediction.observe(await notChecking).rightChoice == "c")
    }

    // MARK: The challenge

    static func verdict(of product: String) async -> CheckVerdict {
        let challenge = exercises.challenge
        let run = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                  speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return CheckVerdict(of: run, for: challenge)
    }

    /// Handed to the queue first and holding nothing back, each upload ran before its import had even begun: the
    /// queue's two slots went to the uploads, so every part of this message holds whatever the machine's load.
    @Test func theUntouchedExerciseFailsOnEveryUpload() async throws {
        let verdict = await Self.verdict(of: Self.exercises.challenge.product)
        #expect(!verdict.passed)
        #expect(verdict.findings.first == CheckFinding(holds: true, "the program ran to its end"))
        let failures = verdict.failures.map(\.text)
        try #require(failures.count == 5, "\(failures)")
        let time = #"\d+\.\d\d s"#
        for (failure, photo) in zip([failures[0], failures[1], failures[4]], [1, 2, 4]) {
            #expect(try wholeMatch(failure, "upload photo \(photo) does not wait for import photo \(photo): it began sending at \(time) "
                + #"on T\d+, before the import had begun \(at "# + time + #"\); make it depend on the import"#), "\(failures)")
        }
        #expect(failures[2] == "upload photo 3 does not depend on import photo 3, so it cannot see that the import was cancelled; make it depend on the import")
        #expect(try wholeMatch(failures[3], "upload photo 3 sent its photo at \(time) on T\\d+ although import photo 3 was cancelled at \(time): "
            + #"a cancelled dependency does not stop its dependents; look for it in main\(\) and skip the work"#), "\(failures)")
    }

    @Test func theReferenceSolutionPasses() async {
        let verdict = await Self.verdict(of: Self.exercises.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        #expect(verdict.findings.map(\.text).contains("upload photo 3 sent nothing: it found import photo 3 cancelled and skipped its work, and cancelled itself"))
    }

    @Test func theEmptiedExerciseFails() async {
        let verdict = await Self.verdict(of: "ExerciseVariant04DependenciesEmptied")
        #expect(verdict.findings.first?.holds == true, "it runs, and does nothing")
        #expect(verdict.failures.map(\.text) == (1...4).map { "upload photo \($0) never ran to its end: hand it to the queue with its import" })
    }

    @Test func theFakedExerciseFailsThoughItPrintsWhatTheSolutionPrints() async {
        let verdict = await Self.verdict(of: "ExerciseVariant04DependenciesFaked")
        #expect(!verdict.passed)
        #expect(verdict.failures.map(\.text) == (1...4).map { "upload photo \($0) never ran to its end: hand it to the queue with its import" })
    }

    /// Only the first step: every upload waits for its import, but nothing skips the upload whose import was cancelled.
    @Test func dependenciesAloneFailBecauseTheUploadOfTheCancelledImportStillSends() async {
        let verdict = await Self.verdict(of: "ExerciseVariant04DependenciesFirstStep")
        let failures = verdict.failures.map(\.text)
        #expect(!verdict.passed)
        let expected = #/upload photo 3 sent its photo at \d+\.\d\d s on T\d+ although import photo 3 was cancelled at \d+\.\d\d s: a cancelled dependency does not stop its dependents; look for it in main\(\) and skip the work/#
        // The finding the missing second step fails on. Once, in a full suite at load 4-7, a second finding came with
        // it ("upload photo 4 never sent its photo", the program having run to its end), so the test asks for this
        // one, not for it alone.
        #expect(failures.contains { $0.wholeMatch(of: expected) != nil }, "\(failures)")
    }

    /// A dependency declared the wrong way round makes the import wait for the upload: a mistake the finding names.
    @Test func aDependencyTheWrongWayRoundIsNamed() throws {
        func op(_ name: String, _ oid: Int, _ state: String, _ time: Int) -> String {
            #"{"e":"op","t":\#(time),"tid":11,"q":"transfers","op":"\#(name)","oid":\#(oid),"state":"\#(state)"}"#
        }
        let record = try recordFromTrace([
            #"{"e":"dep","t":1000,"tid":10,"q":"com.apple.main-thread","op":"import photo 1","oid":2,"on":"upload photo 1","onid":1}"#,
            op("upload photo 1", 1, "executing", 2000),
            #"{"e":"begin","t":2100,"tid":11,"q":"transfers","id":1,"name":"send photo 1"}"#,
            #"{"e":"end","t":3000,"tid":11,"q":"transfers","id":1,"name":"send photo 1"}"#,
            op("upload photo 1", 1, "finished", 3100),
            op("import photo 1", 2, "executing", 3200),
            op("import photo 1", 2, "finished", 4000),
        ])
        let findings = Self.exercises.challenge.judge(record)
        #expect(findings.first == CheckFinding(holds: false, "upload photo 1 does not depend on import photo 1: it is the other way round, import photo 1 waits for the upload. The one that waits calls addDependency"))
    }
}

/// Whether all of `text` matches the regular expression `pattern`.
func wholeMatch(_ text: String, _ pattern: String) throws -> Bool {
    try text.wholeMatch(of: Regex(pattern)) != nil
}

/// A record of a run made of `lines`, each a trace line as docs/trace-format.md writes it, from a page whose main
/// thread is 10, started at time 1,000 and ended by `ending`.
func recordFromTrace(_ lines: [String], ending: RunEnding = .exited(code: 0)) throws -> RunRecord {
    try TraceFixture.record(lines, pid: 10, start: 1_000, ending: ending)
}
