import ExerciseJudging
import Foundation
import Testing
@testable import TourCore
import TourTestSupport

/// The rules a workshop leader's two flows share: who needs help, and what counts as not passed.
@Suite("Workshop analysis", .bodiesBelowTheRunner)
struct WorkshopAnalysisTests {
    static let start = ProgressFolders.morning

    static func analysis() throws -> WorkshopAnalysis {
        WorkshopAnalysis(pages: try PageCatalog.load().pages, exercises: ExerciseCatalog.ids)
    }

    static func failedCheck(_ record: inout ProgressRecord, page: String, exercise: String, at time: Date = start) {
        record.apply(.checked(page: page, exercise: exercise, passed: false, firstFailure: "not yet"), at: time)
    }

    /// Judged with the record's own times, as a collected file is.
    static func standing(_ record: ProgressRecord, after minutes: Double) throws -> ParticipantStanding {
        try analysis().standing(of: record, now: start.addingTimeInterval(minutes * 60)) { slug in
            record.pages[slug].flatMap(WorkshopAnalysis.recordedChange(of:))
        }
    }

    @Test("Two failed checks on an exercise not passed need help wherever it is; one does not, nor two on one passed")
    func failedChecks() throws {
        var record = ProgressRecord()
        record.apply(.opened(page: "queue"), at: Self.start)
        Self.failedCheck(&record, page: "queue", exercise: "preview-first")
        #expect(try Self.standing(record, after: 1).needsHelp.isEmpty, "one failed check is not yet a reason")
        Self.failedCheck(&record, page: "queue", exercise: "preview-first")
        record.apply(.opened(page: "async"), at: Self.start)
        let standing = try Self.standing(record, after: 1)
        #expect(standing.needsHelp.map(\.challenge.name) == ["queue/preview-first"], "the second counts, though they moved on")
        #expect(standing.marks[1] == .failed && standing.marks[2] == .reached && standing.marks[3] == .notReached)
        record.apply(.checked(page: "queue", exercise: "preview-first", passed: true), at: Self.start)
        #expect(try Self.standing(record, after: 1).needsHelp.isEmpty, "passed in the end")
    }

    @Test("Ten minutes without anything new is judged on the page they are on only, and only while it is not passed")
    func idleOnTheCurrentPage() throws {
        var record = ProgressRecord()
        record.apply(.opened(page: "operation"), at: Self.start)
        record.apply(.opened(page: "queue"), at: Self.start)
        #expect(try Self.standing(record, after: 9.9).needsHelp.isEmpty)
        let idle = try Self.standing(record, after: 10)
        #expect(idle.needsHelp.map(\.challenge.name) == ["queue/preview-first"], "not operation's, which they left behind")
        #expect(idle.needsHelp.first?.why(now: Self.start.addingTimeInterval(600)) == "no progress for 10 min")
        record.apply(.passed(page: "queue", exercise: "preview-first"), at: Self.start)
        #expect(try Self.standing(record, after: 30).needsHelp.isEmpty)
    }

    @Test("Not passed is counted among those who reached the page; a page nobody reached is not listed")
    func stuckAmongThoseWhoReachedIt() throws {
        let analysis = try Self.analysis()
        var ahead = ProgressRecord(), behind = ProgressRecord()
        ahead.apply(.opened(page: "operation"), at: Self.start)
        ahead.apply(.passed(page: "operation", exercise: "stop-within-one-band"), at: Self.start)
        ahead.apply(.opened(page: "queue"), at: Self.start)
        behind.apply(.opened(page: "operation"), at: Self.start)
        let standings = [ahead, behind].map { analysis.standing(of: $0, now: Self.start) { _ in nil } }
        let stuck = analysis.stuck(standings)
        #expect(stuck.map(\.name) == ["operation/stop-within-one-band", "queue/preview-first"])
        #expect(stuck.map(\.countText) == ["1 of 2 who reached it", "1 of 1 who reached it"])
        #expect(stuck.first?.notPassed == [1])
    }
}
