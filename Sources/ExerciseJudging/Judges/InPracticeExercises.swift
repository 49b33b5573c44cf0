import Foundation
import PageProtocol
import TourCore

extension PageExercises {
    /// Page 5: how much of the list's work overlaps, and a list that loads each photo once and only for rows in view.
    public static let inPractice = PageExercises(
        page: "in-practice",
        prediction: Prediction(
            id: "work-at-once",
            question: "The list's queue may run maxConcurrentOperationCount operations at once (3 unless you change it). "
                + "At most how many downloads and tilt-shifts will be at work at the same moment?",
            choices: [
                .init(key: "a", text: "One"),
                .init(key: "b", text: "Two"),
                .init(key: "c", text: "Three or more"),
            ],
            observe: WorkAtOncePrediction.observe
        ),
        challenge: Challenge(
            id: "load-once-for-rows-in-view",
            title: "Each photo once, and only for rows in view",
            task: "Make the list download each photo once, sharing a download on its way or a photo already here, and "
                + "cancel the download of a row that scrolled away when no row in view shows its photo; a download "
                + "must look at isCancelled before each part.",
            folder: "05-InPractice",
            hints: [
                "Two things are missing: a memory of each photo's download, so a row can take one that exists, and a "
                    + "cancel() when a row leaves. cancel() only sets a flag: the download's loop has to look at it.",
                "In PhotoLoader keep, under its lock, a dictionary from photo to its DownloadOperation and a set of the "
                    + "photos that arrived; let the download's callback show the photo in every row in view that has it. "
                    + "In rowLeftView, cancel the photo's download unless a row in screen.rowsInView shows the same photo.",
                "In DownloadOperation.main(), put guard !isCancelled else { return } at the top of the loop over the "
                    + "parts. In rowCameIntoView: if the photo arrived, screen.showPhoto it; else if a download is on "
                    + "its way, do nothing; else make one, remember it, and queue it.",
            ],
            judge: PhotoListChallenge.judge
        )
    )
}

/// Reads from a run of page 5 how many downloads and tilt-shifts were at work at one moment.
private enum WorkAtOncePrediction {
    static func observe(_ record: RunRecord) -> Prediction.Observation {
        let work = record.spans.filter { $0.end != nil && ($0.name.hasPrefix("network load ") || $0.name.hasPrefix("tilt-shift row ")) }
        guard let most = record.mostAtOnce(work) else {
            return .init(rightChoice: nil, happened: "this run finished no download or tilt-shift, so it cannot tell")
        }
        let lanes = most.spans.map { record.laneName(of: $0.thread) }.sorted()
        let width = record.knobs.first { $0.name == "maxConcurrentOperationCount" }.map { ", where the queue allowed \($0.value)" } ?? ""
        let threads = Set(work.map(\.thread)).count
        let happened = "at most \(most.count) \(most.count == 1 ? "was" : "were") at work at once, first at "
            + "\(record.timeText(at: most.since)) on \(lanes.joined(separator: ", "))\(width); over the run the work "
            + "ran on \(threads) \(threads == 1 ? "thread" : "threads")"
        return .init(rightChoice: most.count == 1 ? "a" : most.count == 2 ? "b" : "c", happened: happened)
    }
}

/// Judges `Exercises/05-InPractice`: a scripted list whose screen marks each row that comes into view, leaves and shows
/// its photo, and whose downloads are operations receiving a photo in parts, each part a span.
private enum PhotoListChallenge {
    /// One download operation and the parts it received.
    struct Download {
        let photo: Int
        let operation: OperationRecord
        let parts: [(number: Int, of: Int, span: Span)]

        /// Whether it received its last part.
        var ranToTheEnd: Bool { parts.contains { $0.number == $0.of } }
        /// When its last part arrived, if it did.
        var completion: UInt64? { parts.first { $0.number == $0.of }?.span.end }
    }

    /// What the screen's marks say, in the order they were made.
    enum ScreenChange {
        case inView(row: Int, photo: Int)
        case outOfView(row: Int)
        case shows(row: Int, photo: Int)
    }

    static func judge(_ record: RunRecord) -> [CheckFinding] {
        let changes = record.marks.sorted { $0.time < $1.time }.compactMap { mark in screenChange(mark.name).map { ($0, mark.time) } }
        let downloads = record.operations.compactMap { operation -> Download? in
            guard let photo = number(after: "download photo ", in: operation.name) else { return nil }
            let parts = record.spans(ranBy: operation).compactMap { span -> (number: Int, of: Int, span: Span)? in
                guard let part = part(span.name), part.photo == photo else { return nil }
                return (part.number, part.of, span)
            }
            return Download(photo: photo, operation: operation, parts: parts)
        }
        guard !changes.isEmpty else {
            return [CheckFinding(holds: false, "no row came into view: the screen never marked one, so the list never ran")]
        }
        guard !downloads.isEmpty else {
            return [CheckFinding(holds: false, "no download operation ran: the photos must arrive through DownloadOperations on the queue")]
        }
        return [partsOutsideDownloads(record, downloads)].compactMap { $0 }
            + downloadedOnce(record, downloads)
            + stoppedWhenUnwanted(record, downloads, changes)
            + rowsAtRest(record, downloads, changes)
    }

    /// Parts received by no download operation: the work the check must see as an operation's.
    private static func partsOutsideDownloads(_ record: RunRecord, _ downloads: [Download]) -> CheckFinding? {
        let owned = Set(downloads.flatMap { $0.parts.map(\.span.id) })
        guard let stray = record.spans.first(where: { part($0.name) != nil && !owned.contains($0.id) }) else { return nil }
        return CheckFinding(holds: false, "\(stray.name) was received at \(record.timeText(at: stray.start)) on "
            + "\(record.laneName(of: stray.thread)) outside a download operation: receive the parts in DownloadOperation.main()")
    }

    /// No photo may be downloaded to the end by two operations.
    private static func downloadedOnce(_ record: RunRecord, _ downloads: [Download]) -> [CheckFinding] {
        let complete = Dictionary(grouping: downloads.filter(\.ranToTheEnd), by: \.photo)
        let twice = complete.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }
        guard !twice.isEmpty else {
            return [CheckFinding(holds: true, "no photo was downloaded twice: \(complete.count) "
                + "\(complete.count == 1 ? "photo" : "photos"), each downloaded to the end once")]
        }
        return twice.map { photo, copies in
            let times = copies.compactMap { download in download.completion.map { (download, $0) } }.sorted { $0.1 < $1.1 }
                .map { "\(record.timeText(at: $0.1)) on \(record.laneName(of: $0.0.parts.last!.span.thread))" }
            return CheckFinding(holds: false, "photo \(photo) was downloaded \(copies.count == 2 ? "twice" : "\(copies.count) times"): "
                + "at \(listed(times)); a row whose photo is here or on its way must take that one")
        }
    }

    /// Once no row in view shows a download's photo, the download may begin at most one more part: the one it had
    /// already decided to fetch when it was cancelled.
    private static func stoppedWhenUnwanted(_ record: RunRecord, _ downloads: [Download], _ changes: [(ScreenChange, UInt64)]) -> [CheckFinding] {
        let failures = downloads.compactMap { download -> CheckFinding? in
            let wasted = download.parts.filter { !isWanted(download.photo, at: $0.span.start, changes) }
            guard wasted.count > 1, let first = wasted.first else { return nil }
            let numbers = wasted.map { String($0.number) }
            let partsText = "part\(wasted.count == 1 ? "" : "s") \(listed(numbers)) of \(first.of)"
            let ran = download.ranToTheEnd ? "ran to the end" : "went on"
            let last = record.timeText(at: wasted.last!.span.start)
            guard let (row, left) = lastRow(showing: download.photo, leftBefore: first.span.start, changes) else {
                return CheckFinding(holds: false, "a download of photo \(download.photo) \(ran) with no row in view showing it: "
                    + "\(partsText) began then, the last at \(last)")
            }
            return CheckFinding(holds: false, "row \(row) scrolled out at \(record.timeText(at: left)) but its download of photo "
                + "\(download.photo) \(ran): \(partsText) began after, the last at \(last); cancel it, and look at isCancelled "
                + "before each part")
        }
        guard failures.isEmpty else { return failures }
        let cancelled = downloads.filter { $0.operation.reported(.cancelled) }.count
        return [CheckFinding(holds: true, "every download stopped within one part once no row in view showed its photo "
            + "(\(cancelled) cancelled)")]
    }

    /// Every row in view when the list came to rest shows its photo, from a download that ran to the end before.
    private static func rowsAtRest(_ record: RunRecord, _ downloads: [Download], _ changes: [(ScreenChange, UInt64)]) -> [CheckFinding] {
        var inView: [Int: (photo: Int, since: UInt64)] = [:]
        var shown: [Int: (photo: Int, at: UInt64)] = [:]
        for (change, time) in changes {
            switch change {
            case .inView(let row, let photo): inView[row] = (photo, time); shown[row] = nil
            case .outOfView(let row): inView[row] = nil; shown[row] = nil
            case .shows(let row, let photo): shown[row] = (photo, time)
            }
        }
        guard !inView.isEmpty else {
            return [CheckFinding(holds: false, "no row was in view at the end")]
        }
        let failures = inView.sorted { $0.key < $1.key }.compactMap { row, view -> CheckFinding? in
            guard let show = shown[row], show.photo == view.photo else {
                return CheckFinding(holds: false, "row \(row) came into view at \(record.timeText(at: view.since)) and never "
                    + "showed its photo \(view.photo)")
            }
            guard downloads.contains(where: { $0.photo == view.photo && ($0.completion ?? .max) <= show.at }) else {
                return CheckFinding(holds: false, "row \(row) showed photo \(view.photo) at \(record.timeText(at: show.at)) "
                    + "before any download of it had received every part")
            }
            return nil
        }
        guard failures.isEmpty else { return failures }
        let rows = inView.keys.sorted()
        return [CheckFinding(holds: true, "rows \(listed(rows.map(String.init))), in view at the end, each show their photo")]
    }

    /// Whether a row in view showed `photo` at `time`, by the screen's marks made before it.
    private static func isWanted(_ photo: Int, at time: UInt64, _ changes: [(ScreenChange, UInt64)]) -> Bool {
        var inView: [Int: Int] = [:]
        for (change, changed) in changes where changed <= time {
            switch change {
            case .inView(let row, let shown): inView[row] = shown
            case .outOfView(let row): inView[row] = nil
            case .shows: break
            }
        }
        return inView.values.contains(photo)
    }

    /// The row showing `photo` that left the view last before `time`, and when.
    private static func lastRow(showing photo: Int, leftBefore time: UInt64, _ changes: [(ScreenChange, UInt64)]) -> (Int, UInt64)? {
        var photoOfRow: [Int: Int] = [:]
        var found: (Int, UInt64)?
        for (change, changed) in changes where changed <= time {
            switch change {
            case .inView(let row, let shown): photoOfRow[row] = shown
            case .outOfView(let row): if photoOfRow[row] == photo { found = (row, changed) }
            case .shows: break
            }
        }
        return found
    }

    /// "row 6 in view, photo 3", "row 6 out of view", "row 6 shows photo 3".
    private static func screenChange(_ mark: String) -> ScreenChange? {
        let words = mark.split(separator: " ")
        guard words.count >= 4, words[0] == "row", let row = Int(words[1]) else { return nil }
        switch (words[2], words.count) {
        case ("in", 6) where words[3] == "view," && words[4] == "photo": return Int(words[5]).map { .inView(row: row, photo: $0) }
        case ("out", 5) where words[3] == "of" && words[4] == "view": return .outOfView(row: row)
        case ("shows", 5) where words[3] == "photo": return Int(words[4]).map { .shows(row: row, photo: $0) }
        default: return nil
        }
    }

    /// "photo 3, part 2 of 4" → (3, 2, 4).
    private static func part(_ name: String) -> (photo: Int, number: Int, of: Int)? {
        let words = name.split(separator: " ")
        guard words.count == 6, words[0] == "photo", words[1].hasSuffix(","), words[2] == "part", words[4] == "of",
              let photo = Int(words[1].dropLast()), let number = Int(words[3]), let total = Int(words[5]) else { return nil }
        return (photo, number, total)
    }

    /// The whole number right after `prefix` in `text`, when `text` is exactly that.
    private static func number(after prefix: String, in text: String) -> Int? {
        text.hasPrefix(prefix) ? Int(text.dropFirst(prefix.count)) : nil
    }
}
