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

    public init() {}

    enum CodingKeys: String, CodingKey { case version, format, lastPage, pages }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        format = try container.decode(String.self, forKey: .format)
        lastPage = try container.decodeIfPresent(String.self, forKey: .lastPage)
        pages = try container.decodeIfPresent([String: PageProgress].self, forKey: .pages) ?? [:]
    }

    /// Folds one thing the learner did at `time` into the record.
    public mutating func apply(_ event: ProgressEvent, at time: Date) {
        var page = pages[event.page] ?? PageProgress()
        switch event {
        case .opened:
            page.opens += 1
            page.firstOpened = page.firstOpened ?? time
            page.lastOpened = time
            lastPage = event.page
        case .ran:
            page.runs += 1
            page.lastRun = time
            lastPage = event.page
        case .predicted(_, let prediction, let right):
            page.predictions[prediction] = PredictionAnswer(right: right, answeredAt: time)
        case .passed(_, let exercise):
            // The first pass is the one that counts; passing again later changes nothing.
            if page.exercises[exercise] == nil { page.exercises[exercise] = ExercisePass(passedAt: time) }
        }
        pages[event.page] = page
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

    public var page: String {
        switch self {
        case .opened(let page), .ran(let page), .predicted(let page, _, _), .passed(let page, _): page
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

    public init() {}

    enum CodingKeys: String, CodingKey { case opens, firstOpened, lastOpened, runs, lastRun, predictions, exercises }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        opens = try container.decodeIfPresent(Int.self, forKey: .opens) ?? 0
        firstOpened = try container.decodeIfPresent(Date.self, forKey: .firstOpened)
        lastOpened = try container.decodeIfPresent(Date.self, forKey: .lastOpened)
        runs = try container.decodeIfPresent(Int.self, forKey: .runs) ?? 0
        lastRun = try container.decodeIfPresent(Date.self, forKey: .lastRun)
        predictions = try container.decodeIfPresent([String: PredictionAnswer].self, forKey: .predictions) ?? [:]
        exercises = try container.decodeIfPresent([String: ExercisePass].self, forKey: .exercises) ?? [:]
    }

    /// Predictions answered right.
    public var predictionsRight: Int { predictions.values.filter(\.right).count }
}

public struct PredictionAnswer: Codable, Equatable, Sendable {
    public var right: Bool
    public var answeredAt: Date

    public init(right: Bool, answeredAt: Date) {
        self.right = right
        self.answeredAt = answeredAt
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
