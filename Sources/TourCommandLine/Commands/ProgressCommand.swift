import ExerciseJudging
import Foundation
import PageProtocol
import TourCore

extension TourCommand {
    /// The options of `tour progress`.
    public struct ProgressOptions: Equatable, Sendable {
        public var json = false
        /// The participant's name in `--json`; `$USER` when not given.
        public var name: String?
        /// `--summary FILE…`: the participants' documents to summarise.
        public var summaryFiles: [String]?
        public var plain = false

        public init() {}

        /// The options `arguments` give `tour progress`, which takes no other word.
        init(_ arguments: CommandArguments) throws(UsageError) {
            if let operand = arguments.operands.first {
                throw UsageError(description: "unknown argument \(EchoedInput.quoted(operand)) for progress (\(CommandArguments.accepted(by: .progress)))")
            }
            json = arguments.has(.json)
            name = arguments.text(.participant)
            summaryFiles = arguments.words(.summary)
            plain = arguments.has(.plain)
            if summaryFiles != nil && (json || name != nil) {
                throw UsageError(description: "--summary reads other participants' documents; it does not go with --json or --name")
            }
            if name != nil && !json {
                throw UsageError(description: "--name names the participant in --json; use tour progress --json --name N")
            }
        }
    }
}

/// `tour progress` and `tour reset --progress`: what they print and the exit status, with every file and the
/// terminal passed in, so tests run them against a temporary folder.
public enum ProgressCommand {
    /// What a command produced: lines for stdout, messages for stderr, and the exit status.
    public struct Outcome: Equatable {
        public var lines: [String] = []
        public var messages: [String] = []
        public var status: ExitStatus = .endedAsExpected
    }

    /// `tour progress`, `--json` or `--summary`.
    public static func execute(_ options: TourCommand.ProgressOptions, store: ProgressStore?, catalog: PageCatalog,
                               environment: [String: String], style: PlainStyle) -> Outcome {
        var outcome = Outcome()
        let report = ProgressReport(style: style)
        if let files = options.summaryFiles {
            var participants: [(file: String, document: ParticipantProgress)] = []
            var skipped: [(file: String, problem: String)] = []
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    skipped.append((file, "cannot be read (missing, a folder, or not readable)"))
                    continue
                }
                switch ParticipantProgress.parse(data) {
                case .success(let participant): participants.append((file, participant))
                case .failure(let problem): skipped.append((file, problem.description))
                }
            }
            outcome.lines = report.summary(participants, pages: catalog.pages, exercises: ExerciseCatalog.ids, skipped: skipped)
            if participants.isEmpty { outcome.status = .endedOtherwise }
            return outcome
        }
        guard let store else {
            outcome.messages = [noLocation]
            outcome.status = .couldNotStart
            return outcome
        }
        let reading: ProgressStore.Reading
        do {
            reading = try store.read()
        } catch {
            outcome.messages = ["\(error)"]
            outcome.status = .couldNotStart
            return outcome
        }
        if let setAside = reading.setAside { outcome.messages.append(setAside.message) }
        if options.json {
            let name = participantName(options.name, environment: environment)
            let document = ParticipantProgress(participant: name, tourVersion: TourVersion.current,
                                               writtenAt: store.clock(), progress: reading.record)
            do {
                outcome.lines = [try document.json()]
            } catch {
                outcome.messages.append("cannot write the progress as JSON: \(error)")
                outcome.status = .endedOtherwise
            }
        } else {
            outcome.lines = report.table(reading.record, pages: catalog.pages, exercises: ExerciseCatalog.ids, file: store.file)
        }
        return outcome
    }

    /// The participant's name: the one given, else the login's, else "unknown".
    static func participantName(_ given: String?, environment: [String: String]) -> String {
        given ?? environment["USER"] ?? environment["LOGNAME"] ?? "unknown"
    }

    /// `tour reset --progress`: on a terminal asks for "yes" through `ask`; elsewhere refuses unless `confirmed`.
    /// The old file is set aside, never deleted, so the reset can be undone by renaming it back.
    public static func reset(confirmed: Bool, store: ProgressStore?, onTerminal: Bool,
                             ask: (String) -> String?) -> Outcome {
        var outcome = Outcome()
        guard let store else {
            outcome.messages = [noLocation]
            outcome.status = .couldNotStart
            return outcome
        }
        guard FileManager.default.fileExists(atPath: store.file.path) else {
            outcome.lines = ["There is no progress to reset (\(store.file.path) does not exist)."]
            return outcome
        }
        if !confirmed {
            guard onTerminal else {
                outcome.messages = ["reset --progress would start your progress afresh, and there is no terminal to ask on; run tour reset --progress --yes to do it anyway"]
                outcome.status = .usage
                return outcome
            }
            let answer = ask("Start progress afresh? \(store.file.path) is kept beside it as a copy. Type yes to go on: ")
            guard answer?.trimmingCharacters(in: .whitespaces).lowercased() == "yes" else {
                outcome.lines = ["Nothing changed: progress is kept as it was."]
                return outcome
            }
        }
        do {
            if let moved = try store.setAside(reason: "reset") {
                outcome.lines = ["Progress starts afresh. The old progress is in \(moved.path); to undo, rename it back to \(store.file.path)."]
            } else {
                outcome.lines = ["There is no progress to reset (\(store.file.path) does not exist)."]
            }
        } catch {
            outcome.messages = ["\(error)"]
            outcome.status = .endedOtherwise
        }
        return outcome
    }

    static let noLocation = "cannot tell where progress is kept: set XDG_STATE_HOME or HOME to an absolute folder"
}
