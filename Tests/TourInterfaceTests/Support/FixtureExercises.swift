import ExerciseJudging
import Foundation
import TourCore
import PageProtocol
@testable import TourInterface

/// Exercises written for the fixture queue page, so the tests do not change whenever a real page's exercises do.
enum FixtureExercises {
    /// Which thread runs the span "helper": read from the run, "a" for the main thread, "b" for any other.
    static let prediction = Prediction(
        id: "helper-thread", question: "Which thread runs the `helper` span?",
        choices: [Prediction.Choice(key: "a", text: "the main thread"), Prediction.Choice(key: "b", text: "a worker thread")]
    ) { record in
        guard let span = record.spans.first(where: { $0.name == "helper" }) else {
            return Prediction.Observation(rightChoice: nil, happened: "the run ended before the helper span")
        }
        let lane = record.laneName(of: span.thread)
        return span.thread == record.pid
            ? Prediction.Observation(rightChoice: "a", happened: "it ran on \(lane), the main thread")
            : Prediction.Observation(rightChoice: "b", happened: "it ran on \(lane), a worker")
    }

    /// Holds when no two "work" spans overlap.
    static let challenge = challenge(threadSanitizer: false)

    /// The challenge, built with Thread Sanitizer or not.
    static func challenge(threadSanitizer: Bool) -> Challenge {
        Challenge(
            id: "one-at-a-time", title: "Run the work one at a time", task: "Set the queue's `maxConcurrentOperationCount` to 1.",
            folder: "01-Queue", hints: ["A queue has a width.", "Set `maxConcurrentOperationCount = 1` before adding.", "That is all."],
            threadSanitizer: threadSanitizer, judge: judgeWork)
    }

    static func judgeWork(_ record: RunRecord) -> [CheckFinding] {
        let work = record.spans.filter { $0.name == "work" }
        let overlapping = work.contains { a in work.contains { b in a.id != b.id && a.start < (b.end ?? .max) && b.start < (a.end ?? .max) } }
        return [CheckFinding(holds: !work.isEmpty, work.isEmpty ? "no work span ran" : "\(work.count) work spans ran"),
                CheckFinding(holds: !overlapping, overlapping ? "two work spans ran at once; the limit is one" : "the work spans took turns")]
    }

    static let queuePage = PageExercises(page: "queue", prediction: prediction, challenge: challenge)

    /// The fixture model with the queue page's exercises, as progress recorded them; `threadSanitizer` checks its
    /// challenge as page 8's is checked.
    static func model(width: Int = 120, height: Int = 40, progress: ProgressRecord = ProgressRecord(),
                      threadSanitizer: Bool = false, timeZone: TimeZone = .gmt) throws -> TourModel {
        let page = threadSanitizer ? PageExercises(page: "queue", prediction: prediction, challenge: challenge(threadSanitizer: true)) : queuePage
        var model = TourModel.load(try FixturePages.catalog(), speed: 1, size: Size(width: width, height: height), glyphs: .unicode,
                                   pictureDepth: .colors256, progress: progress, exercises: [page], timeZone: timeZone)
        model.readEverySource()
        return model
    }

    /// The record of a run of the challenge's program: two work spans, overlapping or one after the other.
    static func checkedRun(overlapping: Bool) -> RunRecord {
        var script = RunScript()
        script.span(1, "work", from: 10, to: 200, thread: RunScript.worker)
        script.span(2, "work", from: overlapping ? 100 : 210, to: overlapping ? 300 : 400, thread: RunScript.worker + 1)
        script.end(.exited(code: 0), at: 450)
        var record = RunRecord()
        for event in script.events { record.apply(event) }
        return record
    }

    static func verdict(passing: Bool) -> CheckVerdict {
        CheckVerdict(of: checkedRun(overlapping: !passing), for: challenge)
    }

    /// The reference solution as the loop would read and parse it.
    static let solution = ParsedPageSource(Page.SourceTexts(main: """
        /*:
         # Exercise: one at a time

         The queue runs one operation at a time.
         */
        import Foundation

        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        """))
}

extension TourModel {
    /// The check order `c` gave, if it gave one.
    mutating func pressCheck() -> CheckOrder? {
        update(.key(.character("c"))).compactMap { effect -> CheckOrder? in
            if case .check(let order) = effect { order } else { nil }
        }.first
    }
}
