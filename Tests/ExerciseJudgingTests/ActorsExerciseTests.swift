import ExerciseJudging
import Foundation
import PageProtocol
import Testing
import TourCore
import TourTestSupport

/// Page 11's challenge, judged from real runs of its four programs, and its prediction, graded from fixture records.
@Suite("Exercises of page 11: Actors", .bodiesBelowTheRunner)
struct ActorsExerciseTests {
    static let challenge = PageExercises.actors.challenge

    /// A run of `product` as `tour check 11` makes it, and its verdict.
    static func check(_ product: String) async -> (record: RunRecord, verdict: CheckVerdict) {
        let record = await recordRun(product: product, knobs: challenge.knobs.map { ($0.name, $0.value) },
                                     speed: challenge.speed, stuckAfter: challenge.stuckAfter)
        return (record, CheckVerdict(of: record, for: challenge))
    }

    @Test func theUntouchedExercisePaysBothAndTheVerdictSaysWhy() async throws {
        let (record, verdict) = await Self.check(Self.challenge.product)
        #expect(record.ending == .exited(code: 0))
        #expect(record.marks.map(\.name).filter { $0.contains(" paid ") }.count == 2, "both withdrawals passed the check before the await")
        #expect(record.marks.last?.name == "final balance -30")
        #expect(verdict.failures.map(\.text) == [
            "the balance ended at -30: " + (try Self.paidOrder(record)) + " from 100, because each withdrawal checked the balance "
                + "before its await and subtracted after it, while the other had run in between; check the balance again after the await",
        ])
    }

    /// "A was paid 70 and B was paid 60", in the order the run paid them.
    static func paidOrder(_ record: RunRecord) throws -> String {
        let paid = record.marks.filter { $0.name.contains(" paid ") }.map { mark in
            "\(mark.name.prefix(1)) was paid \(mark.name.hasPrefix("A") ? 70 : 60)"
        }
        try #require(paid.count == 2)
        return paid.joined(separator: " and ")
    }

    @Test func theReferenceSolutionPasses() async throws {
        let (record, verdict) = await Self.check(Self.challenge.solutionProduct)
        #expect(verdict.passed, "\(verdict.failures.map(\.text))")
        let withdrawals = record.spans.filter { $0.name.hasPrefix("withdraw ") }
        #expect(try #require(record.mostAtOnce(withdrawals)).count == 2, "the holds make the two withdrawals meet")
        let final = try #require(record.marks.last?.name)
        #expect(final == "final balance 30" || final == "final balance 40")
    }

    @Test func theEmptiedExerciseFails() async {
        let (record, verdict) = await Self.check("ExerciseVariant11ActorsEmptied")
        #expect(record.ending == .exited(code: 0))
        #expect(verdict.failures.map(\.text).contains("A was neither paid nor declined: withdraw must end with Bank.paid or Bank.declined"))
        #expect(verdict.failures.map(\.text).contains("B was neither paid nor declined: withdraw must end with Bank.paid or Bank.declined"))
    }

    @Test func theFakedSolutionFailsThoughItCallsTheClientsAndPrintsWhatTheSolutionPrints() async throws {
        let (record, verdict) = await Self.check("ExerciseVariant11ActorsFaked")
        #expect(record.outputText.contains("The account ends at 30"))
        let paid = try #require(record.marks.first { $0.name == "A paid 70, balance 30" })
        #expect(verdict.failures.map(\.text).contains("A was paid 70 at \(record.timeText(at: paid.time)) before a fraud check had "
                                                       + "approved it: await Bank.fraudCheck before the money goes"))
    }

    /// Only the first step: the balance kept above zero by paying straight after the check, before the fraud check.
    @Test func payingBeforeTheFraudCheckFails() async throws {
        let (record, verdict) = await Self.check("ExerciseVariant11ActorsFirstStep")
        #expect(record.ending == .exited(code: 0))
        let paid = try #require(record.marks.first { $0.name.contains(" paid ") }, "one client is paid, the other declined")
        let client = try #require(paid.name.split(separator: " ").first)
        let amount = client == "A" ? 70 : 60
        #expect(verdict.failures.map(\.text) == [
            "\(client) was paid \(amount) at \(record.timeText(at: paid.time)) before a fraud check had approved it: await Bank.fraudCheck before the money goes",
        ])
    }

    // MARK: The judge on runs that went wrong in other ways

    /// Withdrawals A (70) and B (60) from 0 ms, each ending at `ends` (nil: still open when the run stopped), fraud
    /// checks from 10 to 30 ms, and these marks at 40 ms and on.
    static func bankRun(ends: (a: Int?, b: Int?) = (60, 60), fraudChecks: Bool = true, marks: [String]) throws -> RunRecord {
        var lines = TraceFixture.span(1, "withdraw A 70", from: 0, to: ends.a, thread: 5_000, queue: "")
            + TraceFixture.span(2, "withdraw B 60", from: 1, to: ends.b, thread: 5_001, queue: "")
        if fraudChecks {
            lines += TraceFixture.span(3, "fraud check A", from: 10, to: 30, thread: 5_000, queue: "")
                + TraceFixture.span(4, "fraud check B", from: 11, to: 30, thread: 5_001, queue: "")
        }
        lines += marks.enumerated().map { TraceFixture.mark($0.element, at: 40 + $0.offset, thread: 5_000, queue: "") }
        let ending: RunEnding = ends.a == nil || ends.b == nil
            ? .stuck(Stall(openSpans: ["withdraw A 70"], unfinishedOperations: [], silentSeconds: 3)) : .exited(code: 0)
        return try TraceFixture.record(lines, ending: ending, endedAt: TraceFixture.start + 4_000_000_000)
    }

    @Test func oneClientPaidTheOtherDeclinedPasses() throws {
        let findings = Self.challenge.judge(try Self.bankRun(marks: ["B paid 60, balance 40", "A declined 70, balance 40", "final balance 40"]))
        #expect(findings.filter { !$0.holds }.isEmpty, "\(findings.filter { !$0.holds })")
        #expect(findings.last == CheckFinding(holds: true, "the balance ended at 40, never below zero: B was paid 60, A was declined 70"))
    }

    @Test func aPaymentWithoutAFraudCheckIsCaught() throws {
        let findings = Self.challenge.judge(try Self.bankRun(fraudChecks: false,
                                                             marks: ["A paid 70, balance 30", "B declined 60, balance 30", "final balance 30"]))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "A was paid 70 at 0.04 s before a fraud check had approved it: await Bank.fraudCheck before the money goes",
        ])
    }

    @Test func aWithdrawalThatWaitsForTheOtherToEndIsNamed() throws {
        let findings = Self.challenge.judge(try Self.bankRun(ends: (nil, nil), marks: []))
        #expect(findings.filter { !$0.holds }.map(\.text).first == "\"withdraw A 70\" was still running when the run stopped: "
                + "the fraud check answers only once the other withdrawal has reached it or ended, so a withdrawal that waits for "
                + "the other to end never ends; check again after the await instead")
    }

    @Test func aRunWithNoWithdrawalSaysSo() throws {
        let findings = Self.challenge.judge(try TraceFixture.record([TraceFixture.mark("final balance 100", at: 1)]))
        #expect(findings == [CheckFinding(holds: false, "no withdrawal ran: the clients must withdraw through Bank.runClients, as given")])
    }

    @Test func aFinalBalanceThatDoesNotAddUpIsCaught() throws {
        let findings = Self.challenge.judge(try Self.bankRun(marks: ["A paid 70, balance 30", "B declined 60, balance 30", "final balance 100"]))
        #expect(findings.filter { !$0.holds }.map(\.text) == [
            "the balance ended at 100, but A was paid 70 from 100, which leaves 30",
        ])
    }

    // MARK: The prediction

    static let prediction = PageExercises.actors.prediction

    /// A run of page 11 whose saving person ended as `name`.
    static func savedRun(_ name: String?) throws -> RunRecord {
        var lines = [TraceFixture.mark("A resumes and finds Delia Dingle", at: 10, thread: 5_000, queue: "")]
        if let name { lines.append(TraceFixture.mark("saving person ends as \(name)", at: 20)) }
        return try TraceFixture.record(lines, ending: name == nil ? .exited(code: 1) : .exited(code: 0))
    }

    @Test(arguments: [("Charlie Cheesecake", "a"), ("Delia Dingle", "b"), ("Delia Cheesecake", "c")])
    func predictionIsGradedByTheNameThePersonEndedWith(name: String, key: String) throws {
        let observation = Self.prediction.observe(try Self.savedRun(name))
        #expect(observation == .init(rightChoice: key, happened: "it ended as \(name), after A resumed and found Delia Dingle"))
    }

    @Test func runsThatCannotTellSaySo() throws {
        #expect(Self.prediction.observe(try Self.savedRun(nil))
                == .init(rightChoice: nil, happened: "this run ended before the saving person was done, so it cannot tell"))
        #expect(Self.prediction.observe(try Self.savedRun("Anna Adams"))
                == .init(rightChoice: nil, happened: "it ended as Anna Adams, none of the three, so this run cannot tell"))
        #expect(Self.prediction.choices.map(\.key) == ["a", "b", "c"])
    }
}
