import Foundation
import PageProtocol
import TourCore

extension PageExercises {
    /// Page 10: what a throwing child does to its siblings, and a task group kept to three children at a time.
    public static let taskGroups = PageExercises(
        page: "task-groups",
        prediction: Prediction(
            id: "sibling-cancelled",
            question: "In the page's throwing group, one child throws (the mark \"upload throws\") while a sibling, the worker, "
                + "computes ten chunks and calls try Task.checkCancellation() before each. What happens to the worker?",
            choices: [
                .init(key: "a", text: "it computes all ten chunks: one child's error is no business of its siblings"),
                .init(key: "b", text: "it stops at its next check, and the group waits for it before the error comes out"),
                .init(key: "c", text: "it is stopped in the middle of its chunk, and the error comes out without waiting for it"),
            ],
            observe: TaskGroupsExercises.observeCancelledSibling
        ),
        challenge: Challenge(
            id: "group-of-limited-width",
            title: "Three uploads at a time",
            task: "A task group adds a child for each of eight photos at once, so all eight uploads are in flight together. Keep "
                + "it to maxUploads (3) children at a time: add three, then the next photo's child each time group.next() "
                + "says one has finished.",
            folder: "10-TaskGroups",
            hints: [
                "A task group has no maxConcurrentOperationCount: every addTask starts a child at once. What can tell you that "
                    + "a child has finished, so that you add the next one only then?",
                "await group.next() suspends until any child has finished. Add maxUploads children before the first next(), "
                    + "then one more after each next() that returns.",
                "var waiting = photos[...]; func addNext() { guard let photo = waiting.popFirst() else { return }; "
                    + "group.addTracedTask(\"upload \\(photo)\") { await upload(photo) } }; call it maxUploads times, then "
                    + "while await group.next() != nil { addNext() }.",
            ],
            speed: 10,
            judge: TaskGroupsExercises.judgeUploads
        )
    )
}

/// The readings behind page 10's exercises.
enum TaskGroupsExercises {
    static let photoCount = 8
    static let maxUploads = 3

    /// Reads the page's throwing group: whether the worker ran all its chunks, stopped at a check, or outlived the group.
    @Sendable static func observeCancelledSibling(_ record: RunRecord) -> Prediction.Observation {
        guard let group = record.firstSpan(named: "withThrowingTaskGroup"), let groupEnd = group.end else {
            return .init(rightChoice: nil, happened: "this run ended before its throwing group was done, so it cannot tell")
        }
        guard let thrown = record.marks.first(where: { $0.name == "upload throws" }) else {
            return .init(rightChoice: nil, happened: "no child threw in this run (failingChild was off), so it cannot tell")
        }
        let chunks = record.spans.filter { $0.name.hasPrefix("worker chunk ") }
        let threw = "a child threw at \(record.timeText(at: thrown.time))"
        if let outlived = chunks.first(where: { ($0.end ?? .max) > groupEnd }) {
            return .init(rightChoice: "c", happened: "\(threw), and the group ended at \(record.timeText(at: groupEnd)) while "
                         + "the worker was still in \"\(outlived.name)\"")
        }
        let lastChunkEnd = chunks.compactMap(\.end).max().map(record.timeText) ?? "no chunk"
        if let stop = record.marks.first(where: { $0.name.hasPrefix("worker saw cancellation before chunk ") }) {
            let chunk = stop.name.dropFirst("worker saw cancellation before ".count)
            return .init(rightChoice: "b", happened: "\(threw); the worker stopped at its check before \(chunk) of 10, at "
                         + "\(record.timeText(at: stop.time)), and the group ended after it, at \(record.timeText(at: groupEnd))")
        }
        if chunks.count == 10 {
            return .init(rightChoice: "a", happened: "\(threw), yet the worker computed all 10 chunks, the last ending at \(lastChunkEnd)")
        }
        return .init(rightChoice: nil, happened: "the worker ran \(chunks.count) of its 10 chunks and reported no stop, so it cannot tell")
    }

    /// Judges the uploads: each photo's upload ended, at most three ran at once, each in a child task of its own.
    @Sendable static func judgeUploads(_ record: RunRecord) -> [CheckFinding] {
        let uploads = record.spans.filter { $0.name.hasPrefix("upload ") }
        guard !uploads.isEmpty else {
            return [CheckFinding(holds: false, "no photo was uploaded: each must be sent with upload(photo), in a child added "
                                 + "with group.addTracedTask(\"upload \\(photo)\")")]
        }
        var findings: [CheckFinding] = []
        let ended = uploads.filter { $0.end != nil }
        let sent = Set(ended.map(\.name)).count
        if sent == photoCount && ended.count == photoCount {
            let last = ended.compactMap(\.end).max().map(record.timeText) ?? "?"
            findings.append(CheckFinding(holds: true, "all \(photoCount) photos were uploaded, the last at \(last)"))
        } else if let stuck = record.spansOpenAtEnd.first(where: { $0.name.hasPrefix("upload ") }) {
            findings.append(CheckFinding(holds: false, "\(sent) of the \(photoCount) photos were uploaded; \"\(stuck.name)\" "
                                         + "was still waiting for the next upload to begin when the run stopped: an upload that "
                                         + "must end before the next begins never ends here, so keep up to \(maxUploads) going "
                                         + "and add the next as one finishes"))
        } else {
            findings.append(CheckFinding(holds: false, "\(ended.count) uploads ended, of \(sent) different photos; each of the "
                                         + "\(photoCount) photos must be uploaded once"))
        }
        if let widest = record.mostAtOnce(uploads) {
            if widest.count > maxUploads {
                findings.append(CheckFinding(holds: false, "\(widest.count) uploads ran at once from \(record.timeText(at: widest.since)); "
                                             + "the limit is \(maxUploads): add \(maxUploads) children, then one more each time "
                                             + "group.next() returns"))
            } else if widest.count < 2 {
                findings.append(CheckFinding(holds: false, "the uploads ran one at a time: the server takes \(maxUploads) at once"))
            } else {
                findings.append(CheckFinding(holds: true, "at most \(widest.count) uploads ran at once, from "
                                             + "\(record.timeText(at: widest.since)): the limit of \(maxUploads) held"))
            }
        }
        findings.append(childTaskFinding(uploads, in: record))
        return findings
    }

    /// Whether every upload ran in a child task of a group, each in one of its own.
    static func childTaskFinding(_ uploads: [Span], in record: RunRecord) -> CheckFinding {
        let tasks = Dictionary(record.tasks.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        if let outside = uploads.first(where: { $0.task.flatMap { tasks[$0] }?.kind != .child }) {
            return CheckFinding(holds: false, "\"\(outside.name)\" ran in no child task of a group: add each upload to the group "
                                + "with group.addTracedTask(\"upload \\(photo)\") { await upload(photo) }")
        }
        let byTask = Dictionary(grouping: uploads, by: { $0.task ?? 0 })
        if let shared = byTask.values.first(where: { $0.count > 1 }) {
            return CheckFinding(holds: false, "\(shared.map { "\"\($0.name)\"" }.joined(separator: " and ")) ran in one child "
                                + "task, one after the other: give each photo a child of its own")
        }
        return CheckFinding(holds: true, "each upload ran in a child task of its own")
    }
}
