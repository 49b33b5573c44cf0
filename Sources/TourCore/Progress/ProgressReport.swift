import Foundation

/// One participant's progress as `tour progress --json` prints it: the document a workshop leader collects.
public struct ParticipantProgress: Codable, Equatable, Sendable {
    /// The `format` of every such document: anything else handed to `--summary` is named and skipped.
    public static let formatName = "concurrency-tour-participant"

    public var format = ParticipantProgress.formatName
    public var version = ProgressRecord.currentVersion
    public var participant: String
    public var tourVersion: String
    public var writtenAt: Date
    public var progress: ProgressRecord

    public init(participant: String, tourVersion: String, writtenAt: Date, progress: ProgressRecord) {
        self.participant = participant
        self.tourVersion = tourVersion
        self.writtenAt = writtenAt
        self.progress = progress
    }

    /// The document as JSON text.
    public func json() throws -> String {
        String(decoding: try JSONEncoder.progress.encode(self), as: UTF8.self)
    }

    /// The document in `data`, or why it is not one, in words.
    public static func parse(_ data: Data) -> Result<ParticipantProgress, ProgressError> {
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        guard (try? JSONSerialization.jsonObject(with: data)) != nil else {
            return .failure(ProgressError(description: "is not valid JSON"))
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == formatName else {
            return .failure(ProgressError(description: "is not a participant's progress (no \"format\": \"\(formatName)\"; make one with tour progress --json)"))
        }
        if let version = header.version, version > ProgressRecord.currentVersion {
            return .failure(ProgressError(description: "has version \(version), newer than the \(ProgressRecord.currentVersion) this tour reads"))
        }
        do {
            return .success(try JSONDecoder.progress.decode(ParticipantProgress.self, from: data))
        } catch {
            return .failure(ProgressError(description: "does not have the shape of a participant's progress (\(ProgressDocument.describe(error)))"))
        }
    }
}

/// The names progress keeps one page's exercises under: its prediction's and its challenge's. The exercise catalog
/// (`ExerciseJudging`) hands them to the report, so the host reads progress without knowing any exercise.
public struct PageExerciseIDs: Equatable, Sendable {
    /// The page's slug (`Page.slug`).
    public var page: String
    public var prediction: String
    public var challenge: String

    public init(page: String, prediction: String, challenge: String) {
        self.page = page
        self.prediction = prediction
        self.challenge = challenge
    }
}

/// The texts of `tour progress` and `tour progress --summary`, from records alone: no file or clock is read here.
public struct ProgressReport: Sendable {
    public var style: PlainStyle
    /// The zone times are shown in.
    public var timeZone: TimeZone

    public init(style: PlainStyle, timeZone: TimeZone = .current) {
        self.style = style
        self.timeZone = timeZone
    }

    /// What stands for "none" in a cell: an en dash, or `-` in ASCII.
    var none: String { style.unicode ? "–" : "-" }

    /// `tour progress`: one row per page of the catalog, with what the record holds for it and for its `exercises`.
    public func table(_ record: ProgressRecord, pages: [Page], exercises: [PageExerciseIDs], file: URL) -> [String] {
        var lines = ["Progress in \(file.path)"]
        if let index = record.resumeIndex(in: pages) {
            lines.append("The tutorial resumes on page \(pages[index].number) (\(pages[index].slug)).")
        } else {
            lines.append("Nothing recorded yet: open a page with tour, or run one with tour run <page>.")
        }
        lines.append("")
        let header = ["page", "last opened", "runs", "prediction", "exercise"]
        var rows: [[String]] = []
        for page in pages {
            let progress = record.pages[page.slug] ?? PageProgress()
            let ids = exercises.first { $0.page == page.slug }
            rows.append(["\(page.number) \(page.slug)", progress.lastOpened.map(time) ?? none,
                         progress.runs == 0 ? none : String(progress.runs),
                         predictionCell(progress, ids?.prediction), exerciseCell(progress, ids?.challenge)])
        }
        lines += Self.columns([header] + rows).map { style.printable($0) }
        lines.append("")
        lines.append(style.printable(record.levels.isEmpty ? "Levels won: none yet (tour levels lists them)."
                                        : "Levels won: " + record.levels.keys.sorted().joined(separator: ", ") + "."))
        return lines
    }

    /// The page's prediction as answered: right, wrong, or none; several answers (from an older catalog) as a count.
    func predictionCell(_ progress: PageProgress, _ prediction: String?) -> String {
        if let prediction, let answer = progress.predictions[prediction] { return answer.right ? "right" : "wrong" }
        if progress.predictions.count == 1, let answer = progress.predictions.values.first { return answer.right ? "right" : "wrong" }
        return progress.predictions.isEmpty ? none : "\(progress.predictionsRight) of \(progress.predictions.count) right"
    }

    /// The page's challenge: passed, or not yet with the checks that failed and the hints seen; a page without one
    /// shows whatever passes the record holds, or none.
    func exerciseCell(_ progress: PageProgress, _ challenge: String?) -> String {
        guard let challenge else { return progress.exercises.isEmpty ? none : progress.exercises.keys.sorted().joined(separator: ", ") }
        if progress.exercises[challenge] != nil { return "passed" }
        let attempts = progress.attempts[challenge] ?? ExerciseAttempts()
        var details: [String] = []
        if attempts.failedChecks > 0 { details.append("\(attempts.failedChecks) failed check\(attempts.failedChecks == 1 ? "" : "s")") }
        if attempts.hintsShown > 0 { details.append("\(attempts.hintsShown) hint\(attempts.hintsShown == 1 ? "" : "s")") }
        return "not passed" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    /// `tour progress --summary`: who is on which page, then the exercises most participants have not passed.
    ///
    /// `exercises` are the exercises to judge, as `page-slug/exercise` (the catalog's, so one nobody passed is
    /// counted too), and with them any other exercise a participant passed.
    public func summary(_ participants: [ParticipantProgress], pages: [Page], exercises: [String] = [],
                        skipped: [(file: String, problem: String)]) -> [String] {
        var lines: [String] = skipped.map { "skipped \($0.file): it \($0.problem)" }
        let counted = "\(participants.count) participant\(participants.count == 1 ? "" : "s")"
        lines.append(skipped.isEmpty ? counted : "\(counted); \(skipped.count) file\(skipped.count == 1 ? "" : "s") skipped")
        guard !participants.isEmpty else { return lines.map { style.printable($0) } }

        lines += ["", "Who is on which page:"]
        let sorted = participants.sorted { $0.participant < $1.participant }
        lines += Self.columns(sorted.map { participant in
            let record = participant.progress
            let place = record.resumeIndex(in: pages).map { "page \(pages[$0].number) (\(pages[$0].slug))" }
                ?? record.lastPage.map { "page \($0)" } ?? "not started"
            let passed = record.pages.values.reduce(0) { $0 + $1.exercises.count }
            return ["  " + participant.participant, place, "\(passed) exercise\(passed == 1 ? "" : "s") passed",
                    "\(record.levels.count) level\(record.levels.count == 1 ? "" : "s") won", "as of " + time(participant.writtenAt)]
        })

        let passedByAnyone = Set(participants.flatMap { $0.progress.pages.flatMap { page in page.value.exercises.keys.map { "\(page.key)/\($0)" } } })
        let judged = exercises + passedByAnyone.subtracting(exercises).sorted()
        lines += ["", "Exercises not passed, most first:"]
        guard !judged.isEmpty else {
            lines.append("  no exercise has been passed by anyone yet")
            return lines.map { style.printable($0) }
        }
        let notPassed = judged.map { exercise -> (exercise: String, missing: [String]) in
            let (page, name) = Self.split(exercise)
            let missing = sorted.filter { $0.progress.pages[page]?.exercises[name] == nil }.map(\.participant)
            return (exercise, missing)
        }
        let order = notPassed.enumerated().sorted { ($0.element.missing.count, $1.offset) > ($1.element.missing.count, $0.offset) }
        lines += Self.columns(order.map(\.element).map { item in
            let who = item.missing.isEmpty ? "everyone passed" : item.missing.joined(separator: ", ")
            return ["  " + item.exercise, "\(item.missing.count) of \(participants.count) not passed", who]
        })
        return lines.map { style.printable($0) }
    }

    /// `page/exercise` as its two parts; an exercise named without a page belongs to none.
    static func split(_ exercise: String) -> (page: String, name: String) {
        guard let slash = exercise.firstIndex(of: "/") else { return ("", exercise) }
        return (String(exercise[..<slash]), String(exercise[exercise.index(after: slash)...]))
    }

    /// `2026-12-01 13:45`, in the report's zone.
    func time(_ date: Date) -> String {
        Self.time(date, in: timeZone)
    }

    /// `2026-12-01 13:45`, in `zone`: how progress's times read wherever they are shown.
    public static func time(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }

    /// The rows with each column padded to its widest cell, two spaces apart, trailing spaces trimmed.
    static func columns(_ rows: [[String]]) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            return cells.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}
