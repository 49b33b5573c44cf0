import Foundation

/// What one learner has done in the tour: the pages opened and run, the predictions answered and the exercises
/// passed, with their times, and the page left. Stored as `progress.json` (see `ProgressStore`).
///
/// Every field decodes as absent when missing, so a file written before a field was added still reads.
public struct ProgressRecord: Codable, Equatable, Sendable {
    /// The version this code writes and the newest it reads; a newer file is set aside, never overwritten.
    public static let currentVersion = 1
    /// The `format` of every progress document: JSON without it is someone else's file.
    public static let formatName = "concurrency-tour-progress"

    public var version = ProgressRecord.currentVersion
    public var format = ProgressRecord.formatName
    /// The slug of the page opened or run last: the tutorial resumes there.
    public var lastPage: String?
    /// Each page's progress, by its slug (`operation`, `in-practice`).
    public var pages: [String: PageProgress] = [:]
    /// Each level of "be the scheduler" won, by its name (`lost-update`): the first win is the one kept.
    public var levels: [String: LevelWin] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey { case version, format, lastPage, pages, levels }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        format = try container.decode(String.self, forKey: .format)
        lastPage = try container.decodeIfPresent(String.self, forKey: .lastPage)
        pages = try container.decodeIfPresent([String: PageProgress].self, forKey: .pages) ?? [:]
        levels = try container.decodeIfPresent([String: LevelWin].self, forKey: .levels) ?? [:]
    }

    /// Folds one thing the learner did at `time` into the record.
    public mutating func apply(_ event: ProgressEvent, at time: Date) {
        guard let slug = event.page else {
            if case .wonLevel(let level, let steps) = event, levels[level] == nil { levels[level] = LevelWin(wonAt: time, steps: steps) }
            return
        }
        var page = pages[slug] ?? PageProgress()
        switch event {
        case .opened:
            page.opens += 1
            page.firstOpened = page.firstOpened ?? time
            page.lastOpened = time
            lastPage = slug
        case .ran:
            page.runs += 1
            page.lastRun = time
            lastPage = slug
        case .predicted(_, let prediction, let right):
            page.predictions[prediction] = PredictionAnswer(right: right, answeredAt: time)
        case .passed(_, let exercise):
            page.recordPass(of: exercise, at: time)
        case .checked(_, let exercise, let passed, let firstFailure):
            page.attempts[exercise, default: ExerciseAttempts()].checks += 1
            page.attempts[exercise, default: ExerciseAttempts()].lastChecked = time
            page.attempts[exercise, default: ExerciseAttempts()].lastVerdict = CheckVerdictRecord(passed: passed, firstFailure: passed ? nil : firstFailure)
            if passed {
                page.recordPass(of: exercise, at: time)
            } else {
                page.attempts[exercise, default: ExerciseAttempts()].failedChecks += 1
            }
        case .hintShown(_, let exercise, let number):
            // Hints come in order, so the furthest one shown is how many the learner has seen.
            let shown = page.attempts[exercise]?.hintsShown ?? 0
            page.attempts[exercise, default: ExerciseAttempts()].hintsShown = max(shown, number)
        case .solutionOpened(_, let exercise):
            let attempts = page.attempts[exercise] ?? ExerciseAttempts()
            page.attempts[exercise, default: ExerciseAttempts()].solutionOpened = attempts.solutionOpened ?? time
        case .wonLevel:
            break
        }
        pages[slug] = page
    }

    /// The index in `pages` of the page left, if it is still one of them.
    public func resumeIndex(in pages: [Page]) -> Int? {
        guard let lastPage else { return nil }
        return pages.firstIndex { $0.slug == lastPage }
    }
}

/// One thing a learner did that progress remembers, on the page with this slug.
public enum ProgressEvent: Equatable, Sendable {
    case opened(page: String)
    case ran(page: String)
    /// A prediction answered, right or wrong; a later answer replaces an earlier one.
    case predicted(page: String, prediction: String, right: Bool)
    case passed(page: String, exercise: String)
    /// `tour check` (or the interface's check) judged the exercise; a passing check also records the pass.
    /// `firstFailure` is the first thing the check found still wrong, kept so a relaunch can say it again.
    case checked(page: String, exercise: String, passed: Bool, firstFailure: String? = nil)
    /// Hint `number` (1-based) of the exercise was shown.
    case hintShown(page: String, exercise: String, number: Int)
    /// The exercise's reference solution was shown.
    case solutionOpened(page: String, exercise: String)
    /// A level of "be the scheduler" was won (its failure reached), in a schedule of `steps` steps; it is no page's.
    case wonLevel(level: String, steps: Int)

    /// The slug of the page the event belongs to; nil for a level's.
    public var page: String? {
        switch self {
        case .opened(let page), .ran(let page), .predicted(let page, _, _), .passed(let page, _), .checked(let page, _, _, _),
             .hintShown(let page, _, _), .solutionOpened(let page, _): page
        case .wonLevel: nil
        }
    }
}

/// One page's part of the progress record.
public struct PageProgress: Codable, Equatable, Sendable {
    public var opens = 0
    public var firstOpened: Date?
    public var lastOpened: Date?
    public var runs = 0
    public var lastRun: Date?
    /// Each prediction answered, by its name.
    public var predictions: [String: PredictionAnswer] = [:]
    /// Each exercise passed, by its name.
    public var exercises: [String: ExercisePass] = [:]
    /// What the learner did towards each exercise, passed or not, by its name: checks, hints, the solution.
    public var attempts: [String: ExerciseAttempts] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey { case opens, firstOpened, lastOpened, runs, lastRun, predictions, exercises, attempts }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        opens = try container.decodeIfPresent(Int.self, forKey: .opens) ?? 0
        firstOpened = try container.decodeIfPresent(Date.self, forKey: .firstOpened)
        lastOpened = try container.decodeIfPresent(Date.self, forKey: .lastOpened)
        runs = try container.decodeIfPresent(Int.self, forKey: .runs) ?? 0
        lastRun = try container.decodeIfPresent(Date.self, forKey: .lastRun)
        predictions = try container.decodeIfPresent([String: PredictionAnswer].self, forKey: .predictions) ?? [:]
        exercises = try container.decodeIfPresent([String: ExercisePass].self, forKey: .exercises) ?? [:]
        attempts = try container.decodeIfPresent([String: ExerciseAttempts].self, forKey: .attempts) ?? [:]
    }

    /// The first pass is the one that counts; passing again later changes nothing.
    mutating func recordPass(of exercise: String, at time: Date) {
        if exercises[exercise] == nil { exercises[exercise] = ExercisePass(passedAt: time) }
    }

    /// Predictions answered right.
    public var predictionsRight: Int { predictions.values.filter(\.right).count }
}

/// A level won: when first, and in how many steps.
public struct LevelWin: Codable, Equatable, Sendable {
    public var wonAt: Date
    public var steps: Int

    public init(wonAt: Date, steps: Int) {
        self.wonAt = wonAt
        self.steps = steps
    }
}

public struct PredictionAnswer: Codable, Equatable, Sendable {
    public var right: Bool
    public var answeredAt: Date

    public init(right: Bool, answeredAt: Date) {
        self.right = right
        self.answeredAt = answeredAt
    }
}

/// What a learner did towards one exercise: how often it was checked and failed, what the last check said, how many
/// hints were shown, and when the solution was first shown. Every field reads as none when missing.
public struct ExerciseAttempts: Codable, Equatable, Sendable {
    public var checks = 0
    public var failedChecks = 0
    /// When the last check was; `lastVerdict` is what it said.
    public var lastChecked: Date?
    /// What the last check said; nil in a file written before checks kept it, which has only `lastChecked`.
    public var lastVerdict: CheckVerdictRecord?
    /// The furthest hint shown (1-based); 0 for none.
    public var hintsShown = 0
    public var solutionOpened: Date?

    public init() {}

    enum CodingKeys: String, CodingKey { case checks, failedChecks, lastChecked, lastVerdict, hintsShown, solutionOpened }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        checks = try container.decodeIfPresent(Int.self, forKey: .checks) ?? 0
        failedChecks = try container.decodeIfPresent(Int.self, forKey: .failedChecks) ?? 0
        lastChecked = try container.decodeIfPresent(Date.self, forKey: .lastChecked)
        lastVerdict = try container.decodeIfPresent(CheckVerdictRecord.self, forKey: .lastVerdict)
        hintsShown = try container.decodeIfPresent(Int.self, forKey: .hintsShown) ?? 0
        solutionOpened = try container.decodeIfPresent(Date.self, forKey: .solutionOpened)
    }
}

/// A check's verdict as progress keeps it: whether it passed and, when not, the first thing still wrong, in the
/// words the check said it.
public struct CheckVerdictRecord: Codable, Equatable, Sendable {
    public var passed: Bool
    /// Nil for a check that passed.
    public var firstFailure: String?

    public init(passed: Bool, firstFailure: String?) {
        self.passed = passed
        self.firstFailure = firstFailure
    }
}

public struct ExercisePass: Codable, Equatable, Sendable {
    public var passedAt: Date

    public init(passedAt: Date) {
        self.passedAt = passedAt
    }
}

extension JSONEncoder {
    /// The encoder of progress documents: ISO 8601 times and sorted keys, so a file diffs and reads well.
    static var progress: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    /// The decoder of progress documents (see `JSONEncoder.progress`).
    static var progress: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
