import Foundation
import PageProtocol
import TourCore

extension PageExercises {
    /// Page 12: where a plain nonisolated `async` function runs when the main actor calls it, and a decode moved off the
    /// main actor with `@concurrent` while the drawing stays on it.
    public static let isolation = PageExercises(
        page: "isolation",
        prediction: Prediction(
            id: "plain-async-queue",
            question: "The main actor calls func plainAsync() async, declared with no isolation at all: no actor, no "
                + "nonisolated(nonsending), no @concurrent. Which queue runs its span \"plain async\"?",
            choices: [
                .init(key: "a", text: "the main queue, com.apple.main-thread: a function with no isolation of its own runs where its caller runs"),
                .init(key: "b", text: "the global pool, Swift global concurrent queue: a nonisolated async function leaves its caller's actor"),
            ],
            observe: IsolationExercises.observePlainAsync
        ),
        challenge: Challenge(
            id: "decode-off-main-actor",
            title: "The decode that froze the screen",
            task: "A main-actor refresh awaits a nonisolated(nonsending) decode, which therefore runs on the main actor for "
                + "0.4 s while the screen's frames stop. Move the decode to the global pool, inside the refresh's task, and keep "
                + "Gallery.show on the main actor.",
            folder: "12-Isolation",
            hints: [
                "nonisolated(nonsending) runs a function on its caller's executor. Which attribute makes an async function run "
                    + "on the global pool whoever calls it?",
                "Mark decodeThumbnails @concurrent instead of nonisolated(nonsending), and leave refreshGallery @MainActor: it "
                    + "resumes on the main actor after the await.",
                "Write @concurrent func decodeThumbnails() async -> [String] { Gallery.decode() }, and call Gallery.show only "
                    + "from refreshGallery, after the await.",
            ],
            speed: 4,
            judge: IsolationExercises.judgeRefresh
        )
    )
}

/// The readings behind page 12's exercises.
enum IsolationExercises {
    /// The queue label of the main actor's jobs on Linux: the main dispatch queue's.
    static let mainQueue = "com.apple.main-thread"
    /// The queue label of the global pool's jobs: the Swift runtime's global concurrent queue.
    static let globalPool = "Swift global concurrent queue"

    /// Reads which queue the page's plain nonisolated `async` function ran on.
    @Sendable static func observePlainAsync(_ record: RunRecord) -> Prediction.Observation {
        guard let span = record.firstSpan(named: "plain async") else {
            return .init(rightChoice: nil, happened: "this run ended before the plain async function ran, so it cannot tell")
        }
        let happened = "its span ran on \(span.queue.isEmpty ? "no queue" : span.queue), on \(record.threadDescription(span.thread))"
        switch span.queue {
        case mainQueue: return .init(rightChoice: "a", happened: happened)
        case globalPool: return .init(rightChoice: "b", happened: happened)
        default: return .init(rightChoice: nil, happened: happened + ", neither of the two, so this run cannot tell")
        }
    }

    /// Judges the refresh: the decode ran in the refresh's task on the global pool, and the drawing after it on the main
    /// actor; and says how many frames the main actor drew during the decode.
    @Sendable static func judgeRefresh(_ record: RunRecord) -> [CheckFinding] {
        guard let decode = record.firstSpan(named: "decode thumbnails") else {
            return [CheckFinding(holds: false, "the thumbnails were never decoded: refreshGallery must get them from Gallery.decode()")]
        }
        var findings: [CheckFinding] = []
        let refresh = record.tasks.first { $0.name == "refresh" }
        let decodeEnd = decode.end ?? record.endTime ?? decode.start
        let framesDuringDecode = record.marks.filter { $0.name == "frame" && $0.time > decode.start && $0.time < decodeEnd }.count
        let frameText = framesDuringDecode == 1 ? "1 frame" : "\(framesDuringDecode) frames"
        if decode.task == nil || decode.task != refresh?.number {
            findings.append(CheckFinding(holds: false, "decode thumbnails ran outside the refresh's task: call it with await from "
                                         + "refreshGallery, not from a queue or a task of its own"))
        } else if decode.queue == globalPool {
            findings.append(CheckFinding(holds: true, "decode thumbnails ran in the refresh's task on the global pool, on "
                                         + "\(record.threadDescription(decode.thread)), and the main actor drew \(frameText) meanwhile"))
        } else {
            findings.append(CheckFinding(holds: false, "decode thumbnails ran on \(queueText(decode.queue)) from "
                                         + "\(record.timeText(at: decode.start)) to \(record.timeText(at: decodeEnd)), and the main "
                                         + "actor drew \(frameText) meanwhile: a nonisolated(nonsending) function runs on its "
                                         + "caller's actor; make the decode @concurrent"))
        }
        guard let show = record.firstSpan(named: "show thumbnails") else {
            findings.append(CheckFinding(holds: false, "the thumbnails were never shown: refreshGallery must pass them to Gallery.show"))
            return findings
        }
        if show.queue != mainQueue {
            findings.append(CheckFinding(holds: false, "show thumbnails ran on \(queueText(show.queue)), off the main actor: draw "
                                         + "from refreshGallery, which is @MainActor, after the decode's await"))
        } else if show.start < decodeEnd {
            findings.append(CheckFinding(holds: false, "show thumbnails began at \(record.timeText(at: show.start)), before the decode "
                                         + "ended: show what the decode returned"))
        } else {
            findings.append(CheckFinding(holds: true, "show thumbnails ran on the main actor's queue after the decode, at "
                                         + "\(record.timeText(at: show.start))"))
        }
        return findings
    }

    /// A queue as a finding names it: "the main actor's queue (com.apple.main-thread)".
    static func queueText(_ queue: String) -> String {
        switch queue {
        case mainQueue: "the main actor's queue (\(mainQueue))"
        case globalPool: "the global pool (\(globalPool))"
        case "": "no dispatch queue"
        default: queue
        }
    }
}
