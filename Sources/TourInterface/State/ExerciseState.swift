import ExerciseJudging
import Foundation
import TourCore

/// What the interface knows of one page's exercises: the prediction and its last grade, the challenge's last check,
/// the hints taken and the reference solution once opened. Built from the catalog and the progress record at launch,
/// then changed only by `update`.
public struct PageExerciseState: Sendable {
    public let exercises: PageExercises
    /// The learner's file and the reference solution, absolute.
    public let exerciseFile: URL
    public let solutionFile: URL
    /// The exercise's folder as the page's originals keep it, for `tour reset` (`PageExercises.exerciseFiles`).
    public let exerciseFiles: Page

    /// Whether the prediction was answered (in any session) and whether rightly; nil while it never was.
    public var answeredRight: Bool?
    /// The learner ran the page without answering (`r` in the question) in this session: `r` runs without asking
    /// again, `a` still asks.
    public var skippedPrediction = false
    /// The choice picked for the next run, or the run in flight, and that run's id once it has started.
    public var pendingAnswer: PendingAnswer?
    /// What the last graded run said about the answer.
    public var lastGrade: PredictionGrade?

    /// The challenge passed in this session or an earlier one, as progress recorded it.
    public var passed: Bool
    public var check = CheckState.notTried
    /// The run of the last check in this session whose program was built and ran: what `C` shows in the output and
    /// timeline instead of the page's own run.
    public var checkRun: RunRecord?
    /// Hints shown so far (in any session), the first `hintsTaken` of the challenge's hints.
    public var hintsTaken: Int
    /// The reference solution as read, parsed, for the solution overlay; nil until it is opened.
    var solution: PageText?
    /// The first row of the solution shown at the top of its overlay.
    public var solutionScroll = 0

    /// `timeZone` is the zone the time of a check recorded in an earlier session is shown in.
    public init(exercises: PageExercises, page: Page, packageRoot: URL, progress: PageProgress?, timeZone: TimeZone) {
        self.exercises = exercises
        exerciseFile = packageRoot.appendingPathComponent(exercises.challenge.file)
        solutionFile = packageRoot.appendingPathComponent(exercises.challenge.solutionFile)
        exerciseFiles = exercises.exerciseFiles(of: page, packageRoot: packageRoot)
        answeredRight = progress?.predictions[exercises.prediction.id]?.right
        passed = progress?.exercises[exercises.challenge.id] != nil
        let attempts = progress?.attempts[exercises.challenge.id]
        hintsTaken = min(attempts?.hintsShown ?? 0, exercises.challenge.hints.count)
        if let checkedAt = attempts?.lastChecked {
            // A file from before progress kept verdicts has only the time: a challenge never passed failed every check.
            check = .earlier(passed: attempts?.lastVerdict?.passed ?? passed, firstFailure: attempts?.lastVerdict?.firstFailure,
                             checkedAt: ProgressReport.time(checkedAt, in: timeZone))
        }
    }

    public var prediction: Prediction { exercises.prediction }
    public var challenge: Challenge { exercises.challenge }

    /// Both exercises are done: the prediction answered, right or wrong, and the challenge passed.
    public var isDone: Bool { answeredRight != nil && passed }

    /// Whether the solution opens, by the rule the progress record follows too (`ProgressRecord.solutionOpens`).
    public var solutionUnlocked: Bool { ProgressRecord.solutionOpens(passed: passed, hintsShown: hintsTaken) }

    /// The package the exercise's file is in: its path less the challenge's own (`Exercises/NN-Name/main.swift`).
    var packageRoot: URL {
        URL(fileURLWithPath: String(exerciseFile.path.dropLast(exercises.challenge.file.count + 1)), isDirectory: true)
    }

    /// A check is building or running.
    public var isChecking: Bool { check.checkID != nil }
}

/// A choice picked for the prediction, waiting for the run that grades it.
public struct PendingAnswer: Equatable, Sendable {
    public var choice: String
    /// The run that grades it; nil until that run starts (a page that must build first runs later).
    public var runID: Int?
}

/// Where the challenge's check stands.
public enum CheckState: Equatable, Sendable {
    case notTried
    /// Checked in an earlier session, as progress recorded it: whether it passed, the first thing still wrong (nil
    /// when it passed, or in a file from before progress kept it), and when (`2026-12-01 13:45`, the learner's time).
    case earlier(passed: Bool, firstFailure: String?, checkedAt: String)
    /// Building the learner's program.
    case building(checkID: Int)
    /// Running it, to be judged when it ends.
    case running(checkID: Int)
    /// `ran`: the program was built and ran; else the verdict's one finding says why not (it does not compile).
    case finished(CheckVerdict, ran: Bool)

    /// The check in flight, if any.
    public var checkID: Int? {
        switch self {
        case .building(let id), .running(let id): id
        case .notTried, .earlier, .finished: nil
        }
    }
}

/// A check the interface asks the terminal layer to carry out: build the challenge's program, run it, judge it.
public struct CheckOrder: Equatable, Sendable {
    public var checkID: Int
    public var page: Page
    public var challenge: Challenge

    /// Two orders are the same when they are the same check of the same challenge: a challenge's judge is a function.
    public static func == (a: CheckOrder, b: CheckOrder) -> Bool {
        a.checkID == b.checkID && a.page == b.page && a.challenge.id == b.challenge.id
    }
}

/// What the exercise machinery reports: a check's progress and outcome, the learner's file changing, the solution read.
public enum ExerciseEvent: Sendable {
    /// The check's program is built and now runs.
    case checkRunning(checkID: Int)
    /// The check ended: the verdict says what held and what is wrong, `run` is the record of the program's run, nil
    /// when it was not built and so never ran.
    case checkFinished(checkID: Int, CheckVerdict, run: RunRecord?)
    /// The page's exercise file changed on disk: saved in the editor or anywhere else.
    case exerciseChanged(page: Page, files: [String])
    /// The exercise file is gone or unreadable.
    case exerciseUnavailable(page: Page)
    /// The reference solution as read and parsed, or why it could not be read.
    case solutionRead(page: Page, SolutionText)
}

/// The reference solution as a `.readSolution` effect found it.
public enum SolutionText: Sendable {
    case read(ParsedPageSource)
    case unreadable(String)
}
