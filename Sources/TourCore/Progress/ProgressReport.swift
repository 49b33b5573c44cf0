import Foundation
import PageProtocol

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

    /// `tour progress --summary`: who needs help and why, who is on which page (with each one's file, failed checks and
    /// hints), then the exercises not passed, counted only among those who reached their page.
    ///
    /// `participants` are the documents read, each with the file it came from: two made without `--name` are both
    /// `unknown`, and their files tell them apart. Each is judged at its own `writtenAt`, so "no progress for 10
    /// minutes" compares times from the one laptop's clock, however wrong that clock is. Only the catalog's pages and
    /// `exercises` are judged (`WorkshopAnalysis`).
    public func summary(_ participants: [(file: String, document: ParticipantProgress)], pages: [Page], exercises: [PageExerciseIDs],
                        skipped: [(file: String, problem: String)]) -> [String] {
        var lines: [String] = skipped.map { "skipped \(TerminalText.sanitized($0.file)): it \($0.problem)" }
        let counted = "\(participants.count) participant\(participants.count == 1 ? "" : "s")"
        lines.append(skipped.isEmpty ? counted : "\(counted); \(skipped.count) file\(skipped.count == 1 ? "" : "s") skipped")
        guard !participants.isEmpty else { return lines.map { style.printable($0) } }

        let analysis = WorkshopAnalysis(pages: pages, exercises: exercises)
        let sorted = participants.map { (name: TerminalText.sanitized($0.document.participant), file: TerminalText.sanitized($0.file), document: $0.document) }
            .sorted { ($0.name, $0.file) < ($1.name, $1.file) }
        let standings = sorted.map { participant in
            analysis.standing(of: participant.document.progress, now: participant.document.writtenAt) { slug in
                participant.document.progress.pages[slug].flatMap(WorkshopAnalysis.recordedChange(of:))
            }
        }
        // A name two files share is told apart by the file, wherever a participant is named in a list.
        let names = sorted.map(\.name)
        let label = sorted.map { participant in names.filter { $0 == participant.name }.count > 1 ? "\(participant.name) (\(participant.file))" : participant.name }

        lines += ["", "Needs help:"]
        let needing = standings.indices.flatMap { index in standings[index].needsHelp.map { (index, $0) } }
        if needing.isEmpty { lines.append("  nobody: no exercise failed \(WorkshopAnalysis.failedChecksForHelp) checks, and nobody is idle on one") }
        for (index, need) in needing {
            let challenge = need.challenge
            var line = "  \(label[index]): \(challenge.name), \(need.why(now: sorted[index].document.writtenAt))"
            if challenge.hintsShown > 0 { line += ", \(challenge.hintsShown) hint\(challenge.hintsShown == 1 ? "" : "s") taken" }
            if let finding = challenge.lastFinding { line += "; last finding: \(TerminalText.sanitized(finding))" }
            lines.append(line)
        }

        lines += ["", "Who is on which page:"]
        let rows = Self.columns(sorted.indices.map { index in
            let record = sorted[index].document.progress
            let standing = standings[index]
            let place = standing.current.map { "page \(pages[$0].number) (\(pages[$0].slug))" } ?? "not started"
            return ["  " + sorted[index].name, sorted[index].file, place,
                    "\(standing.passed) exercise\(standing.passed == 1 ? "" : "s") passed",
                    "\(record.levels.count) level\(record.levels.count == 1 ? "" : "s") won",
                    "as of " + time(sorted[index].document.writtenAt) + (standing.needsHelp.isEmpty ? "" : "  needs help")]
        })
        for (index, row) in rows.enumerated() {
            lines.append(row)
            for challenge in standings[index].challenges {
                guard let attempts = challenge.attemptsText else { continue }
                lines.append("      \(challenge.name): \(challenge.passed ? "passed" : "not passed"), \(attempts)")
            }
        }

        lines += ["", "Exercises not passed, counted among those who reached their page:"]
        let stuck = analysis.stuck(standings)
        if stuck.isEmpty { lines.append("  none: everyone passed the exercise of each page they reached") }
        lines += Self.columns(stuck.map { exercise in
            ["  " + exercise.name, exercise.countText, exercise.notPassed.map { label[$0] }.joined(separator: ", ")]
        })
        return lines.map { style.printable($0) }
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
