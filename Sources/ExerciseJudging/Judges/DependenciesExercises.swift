import PageProtocol
import TourCore

extension PageExercises {
    /// Page 4: what a cancelled dependency does to its dependents, and a chain of imports and uploads to wire.
    public static let dependencies = PageExercises(
        page: "dependencies",
        prediction: Prediction(
            id: "cancelled-dependency",
            question: "The retina download is cancelled before it is queued. What does the operation that depends on it, "
                + "tilt-shift retina, do?",
            choices: [
                .init(key: "a", text: "It never starts: the queue skips an operation whose dependency was cancelled"),
                .init(key: "b", text: "It starts, finds the cancelled download and cancels itself without filtering"),
                .init(key: "c", text: "It starts and runs its main() with no image to filter"),
            ],
            observe: CancelledDependencyPrediction.observe
        ),
        challenge: Challenge(
            id: "upload-after-import",
            title: "Upload after the import",
            task: "Make each upload depend on its import, so the queue holds it back until the photo is on the disk, and "
                + "make the upload skip its work when its import was cancelled (photo 3's is).",
            folder: "04-Dependencies",
            hints: [
                "An operation that must wait for another is told so: the one that waits calls addDependency, with the "
                    + "one it waits for. The queue then starts it only once that one has finished.",
                "In the loop, upload.addDependency(importing). A cancelled import still finishes, and then its upload "
                    + "runs: in UploadOperation.main(), look through dependencies for one whose isCancelled is true.",
                "At the top of UploadOperation.main(): if dependencies.contains(where: { $0.isCancelled }) { cancel(); "
                    + "return }, before anything is read or sent.",
            ],
            judge: UploadChallenge.judge
        )
    )
}

/// Reads from a run of page 4 what `tilt-shift retina` did once its download had been cancelled.
private enum CancelledDependencyPrediction {
    static let filterName = "tilt-shift retina"

    static func observe(_ record: RunRecord) -> Prediction.Observation {
        guard let filter = record.operations(named: filterName).first, filter.reported(.finished) else {
            return .init(rightChoice: nil, happened: "this run ended before \(filterName) finished, so it cannot tell")
        }
        guard let started = filter.firstChange(to: .executing) else {
            return .init(rightChoice: "a", happened: "\(filterName) finished at \(record.timeText(at: filter.firstTime(of: .finished)!)) "
                + "without ever starting")
        }
        let start = "it started at \(record.timeText(at: started.time)) on \(record.laneName(of: started.thread)), "
            + "although its download was cancelled"
        let filtered = record.spans(ranBy: filter).contains { $0.name.hasPrefix("filtering") }
        if filtered {
            return .init(rightChoice: nil, happened: start + ", and filtered an image")
        }
        if let cancelled = filter.firstChange(to: .cancelled), cancelled.time >= started.time {
            return .init(rightChoice: "b", happened: start + ", found it cancelled and cancelled itself at "
                + "\(record.timeText(at: cancelled.time)) without filtering")
        }
        return .init(rightChoice: "c", happened: start + ", and its main() ran to the end with nothing to filter")
    }
}

/// Judges `Exercises/04-Dependencies`: four imports and four uploads on one queue that is handed the uploads first.
private enum UploadChallenge {
    static let photos = 1...4
    /// The photo whose import the exercise cancels before queueing it.
    static let cancelledPhoto = 3

    static func judge(_ record: RunRecord) -> [CheckFinding] {
        photos.flatMap { photo -> [CheckFinding] in
            guard let upload = record.operations(named: "upload photo \(photo)").first, upload.reported(.finished) else {
                return [CheckFinding(holds: false, "upload photo \(photo) never ran to its end: hand it to the queue with its import")]
            }
            guard let importing = record.operations(named: "import photo \(photo)").first, importing.reported(.finished) else {
                return [CheckFinding(holds: false, "import photo \(photo) never ran to its end: hand it to the queue with its upload")]
            }
            return photo == cancelledPhoto
                ? cancelledImport(upload: upload, importing: importing, in: record)
                : [importThenUpload(upload: upload, importing: importing, in: record)]
        }
    }

    /// The upload of a photo that was imported: it must wait for the import, by a dependency, before it sends.
    private static func importThenUpload(upload: OperationRecord, importing: OperationRecord, in record: RunRecord) -> CheckFinding {
        let time = record.timeText
        guard let send = record.spans(ranBy: upload).first(where: { $0.name.hasPrefix("send ") }) else {
            return CheckFinding(holds: false, "\(upload.name) never sent its photo")
        }
        let sent = "it began sending at \(time(send.start)) on \(record.laneName(of: send.thread))"
        let imported = importing.firstTime(of: .finished)!
        if record.dependency(of: importing, on: upload) {
            return CheckFinding(holds: false, "\(upload.name) does not depend on \(importing.name): it is the other way round, "
                + "\(importing.name) waits for the upload. The one that waits calls addDependency")
        }
        guard record.dependency(of: upload, on: importing) else {
            let importStart = importing.firstTime(of: .executing) ?? imported
            let when = send.start < importStart ? "before the import had begun (at \(time(importStart)))"
                : send.start < imported ? "while the import was still copying (it finished at \(time(imported)))"
                : "after the import finished (at \(time(imported))) only by the order the queue happened to run them in"
            return CheckFinding(holds: false, "\(upload.name) does not wait for \(importing.name): \(sent), \(when); "
                + "make it depend on the import")
        }
        guard send.start >= imported else {
            return CheckFinding(holds: false, "\(upload.name) depends on \(importing.name), yet \(sent), before the import "
                + "finished at \(time(imported)): send inside main(), where the dependency holds")
        }
        return CheckFinding(holds: true, "\(upload.name) waited for \(importing.name): the import finished at \(time(imported)), "
            + "and \(sent)")
    }

    /// The upload of the photo whose import was cancelled: it must still depend on it, and skip its work.
    private static func cancelledImport(upload: OperationRecord, importing: OperationRecord, in record: RunRecord) -> [CheckFinding] {
        guard let cancelled = importing.firstChange(to: .cancelled) else {
            return [CheckFinding(holds: false, "\(importing.name) was never cancelled: keep the line that cancels it, the "
                + "second part of the exercise is about its upload")]
        }
        var findings: [CheckFinding] = []
        if !record.dependency(of: upload, on: importing) {
            findings.append(CheckFinding(holds: false, "\(upload.name) does not depend on \(importing.name), so it cannot see "
                + "that the import was cancelled; make it depend on the import"))
        }
        if let send = record.spans(ranBy: upload).first(where: { $0.name.hasPrefix("send ") }) {
            findings.append(CheckFinding(holds: false, "\(upload.name) sent its photo at \(record.timeText(at: send.start)) on "
                + "\(record.laneName(of: send.thread)) although \(importing.name) was cancelled at \(record.timeText(at: cancelled.time)): "
                + "a cancelled dependency does not stop its dependents; look for it in main() and skip the work"))
        } else if findings.isEmpty {
            let passedOn = upload.reported(.cancelled) ? ", and cancelled itself" : ""
            findings.append(CheckFinding(holds: true, "\(upload.name) sent nothing: it found \(importing.name) cancelled and "
                + "skipped its work\(passedOn)"))
        }
        return findings
    }
}
