import Foundation

/// What a workshop leader reads from the participants' progress: where each one is, who needs help and why, and the
/// exercises the room is stuck on. One analysis for both flows: `tour progress --summary` over collected files and the
/// live dashboard of `tour room`. Pure: the times it judges by are handed in.
///
/// Only the catalog's pages and challenges are judged, so a document naming pages or exercises of its own (an older
/// tour, or a hostile one) adds nothing to what is shown.
public struct WorkshopAnalysis: Sendable {
    /// Failed checks on one exercise not yet passed that make a participant need help.
    public static let failedChecksForHelp = 2
    /// How long a participant may go without anything new on the exercise of the page they are on before they need help.
    public static let idleLimit: TimeInterval = 10 * 60

    public let pages: [Page]
    /// The catalog's exercises, by page: only a page listed here has a challenge to judge.
    public let exercises: [PageExerciseIDs]
    /// Each page's slug, worked out once: a page's `slug` is made from its folder each time it is asked for, and the
    /// dashboard judges every participant every second.
    public let slugs: [String]
    /// Each page's challenge id, nil for a page without one.
    public let challenges: [String?]

    public init(pages: [Page], exercises: [PageExerciseIDs]) {
        self.pages = pages
        self.exercises = exercises
        slugs = pages.map(\.slug)
        challenges = slugs.map { slug in exercises.first { $0.page == slug }?.challenge }
    }

    /// Where the participant whose record this is stands at `now`.
    ///
    /// `lastChange` gives, for a page's slug, when something on that page last changed, on the same clock as `now`:
    /// the participant's own (`recordedChange`) for a collected file, the leader's for the dashboard. Nil judges no one
    /// idle on that page.
    ///
    /// "No progress for 10 minutes" is judged only on the page the participant is on: one who moved on from an
    /// exercise left it, and is not stuck on it. Two failed checks on an exercise not passed count wherever it is.
    public func standing(of record: ProgressRecord, now: Date, lastChange: (String) -> Date?) -> ParticipantStanding {
        let current = record.lastPage.flatMap { slugs.firstIndex(of: $0) }
        var challenges: [ChallengeStanding] = []
        var needs: [HelpNeed] = []
        for (index, slug) in slugs.enumerated() {
            guard let id = self.challenges[index] else { continue }
            let progress = record.pages[slug]
            let attempts = progress?.attempts[id] ?? ExerciseAttempts()
            let challenge = ChallengeStanding(pageIndex: index, pageNumber: pages[index].number, page: slug, exercise: id,
                                              reached: progress != nil, passed: progress?.exercises[id] != nil,
                                              failedChecks: attempts.failedChecks, hintsShown: attempts.hintsShown,
                                              lastFinding: attempts.lastVerdict?.passed == false ? attempts.lastVerdict?.firstFailure : nil)
            challenges.append(challenge)
            guard challenge.reached, !challenge.passed else { continue }
            if challenge.failedChecks >= Self.failedChecksForHelp {
                needs.append(HelpNeed(challenge: challenge, reason: .failedChecks(challenge.failedChecks)))
            } else if index == current, let changed = lastChange(slug), now.timeIntervalSince(changed) >= Self.idleLimit {
                needs.append(HelpNeed(challenge: challenge, reason: .noProgress(since: changed)))
            }
        }
        let marks = slugs.indices.map { index -> PageMark in
            guard record.pages[slugs[index]] != nil else { return .notReached }
            guard let challenge = challenges.first(where: { $0.pageIndex == index }) else { return .reached }
            return challenge.passed ? .passed : challenge.failedChecks > 0 ? .failed : .reached
        }
        return ParticipantStanding(current: current, marks: marks, challenges: challenges, needsHelp: needs,
                                   levelsWon: record.levels.count)
    }

    /// When anything on `page` last changed, by the times the record itself holds: the participant's clock, to be
    /// compared with the document's `writtenAt` on the same clock. Hints carry no time and are not counted.
    public static func recordedChange(of page: PageProgress) -> Date? {
        let times = [page.firstOpened, page.lastOpened, page.lastRun].compactMap { $0 }
            + page.predictions.values.map(\.answeredAt) + page.exercises.values.map(\.passedAt)
            + page.attempts.values.flatMap { [$0.lastChecked, $0.solutionOpened].compactMap { $0 } }
        return times.max()
    }

    /// The exercises some participant who reached their page has not passed, most such participants first (then in
    /// page order); an exercise nobody reached is left out. `standings` are this analysis's.
    public func stuck(_ standings: [ParticipantStanding]) -> [StuckExercise] {
        guard let first = standings.first else { return [] }
        let stuck = first.challenges.indices.compactMap { index -> StuckExercise? in
            let reached = standings.indices.filter { standings[$0].challenges[index].reached }
            let notPassed = reached.filter { !standings[$0].challenges[index].passed }
            guard !notPassed.isEmpty else { return nil }
            let challenge = first.challenges[index]
            return StuckExercise(pageNumber: challenge.pageNumber, name: challenge.name, reached: reached.count, notPassed: notPassed)
        }
        return stuck.enumerated().sorted { ($0.element.notPassed.count, $1.offset) > ($1.element.notPassed.count, $0.offset) }.map(\.element)
    }
}

/// One participant, as `WorkshopAnalysis.standing` judged them.
public struct ParticipantStanding: Equatable, Sendable {
    /// The index of the page they are on (the one opened or run last), nil before their first.
    public var current: Int?
    /// Each page of the analysis, in order: how far the participant got with it.
    public var marks: [PageMark]
    /// Each page's challenge, in page order.
    public var challenges: [ChallengeStanding]
    /// Why they need help, if they do: at most one reason an exercise.
    public var needsHelp: [HelpNeed]
    public var levelsWon: Int

    public var passed: Int { challenges.filter(\.passed).count }
}

/// How far a participant got with a page.
public enum PageMark: Equatable, Sendable {
    case notReached
    /// Opened (or its exercise checked), its challenge neither passed nor failed.
    case reached
    /// Its challenge failed a check and is not passed.
    case failed
    case passed
}

/// One page's challenge, for one participant.
public struct ChallengeStanding: Equatable, Sendable {
    /// Where the page is in the analysis's pages.
    public var pageIndex: Int
    public var pageNumber: Int
    /// The page's slug and the challenge's id.
    public var page: String
    public var exercise: String
    /// The participant has been on the page (opened it, or checked its exercise).
    public var reached: Bool
    public var passed: Bool
    public var failedChecks: Int
    public var hintsShown: Int
    /// What the last check found still wrong, when it failed; in the check's words, from the participant's document.
    public var lastFinding: String?

    /// `page/exercise`, as the leader's reports name it.
    public var name: String { "\(page)/\(exercise)" }

    /// "2 failed checks, 1 hint", or nil when there were neither.
    public var attemptsText: String? {
        var parts: [String] = []
        if failedChecks > 0 { parts.append("\(failedChecks) failed check\(failedChecks == 1 ? "" : "s")") }
        if hintsShown > 0 { parts.append("\(hintsShown) hint\(hintsShown == 1 ? "" : "s")") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

/// Why a participant needs help with an exercise.
public struct HelpNeed: Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// This many failed checks, and not passed.
        case failedChecks(Int)
        /// Nothing new on it since then, on the clock the analysis was given.
        case noProgress(since: Date)
    }

    public var challenge: ChallengeStanding
    public var reason: Reason

    /// "2 failed checks" or "no progress for 12 min", at `now` on the analysis's clock.
    public func why(now: Date) -> String {
        switch reason {
        case .failedChecks(let count): "\(count) failed checks"
        case .noProgress(let since): "no progress for \(Int(now.timeIntervalSince(since) / 60)) min"
        }
    }
}

/// An exercise some of those who reached its page have not passed.
public struct StuckExercise: Equatable, Sendable {
    public var pageNumber: Int
    /// `page/exercise`.
    public var name: String
    /// How many reached its page.
    public var reached: Int
    /// Those of them who have not passed it, as indices into the standings the analysis was given.
    public var notPassed: [Int]

    /// "2 of 3 who reached it".
    public var countText: String { "\(notPassed.count) of \(reached) who reached it" }
}
