import Foundation
import PageProtocol
import TourCore

/// The exercises of one page: a prediction answered before the page's own run, and a code challenge the learner
/// writes in a file of its own, each judged from what the threads of a real run did.
public struct PageExercises: Sendable {
    /// The slug of the page these belong to (`Page.slug`): "operation", "in-practice".
    public let page: String
    public let prediction: Prediction
    public let challenge: Challenge

    public init(page: String, prediction: Prediction, challenge: Challenge) {
        self.page = page
        self.prediction = prediction
        self.challenge = challenge
    }
}

/// A question the learner answers before running the page, graded from the record of that run.
///
/// The right answer is never written down: `observe` reads it from the run, so a changed knob or a different machine
/// is graded by what actually happened there.
public struct Prediction: Sendable {
    /// One answer the learner can pick, by its key ("a", "b"…).
    public struct Choice: Sendable, Equatable {
        public let key: String
        public let text: String

        public init(key: String, text: String) {
            self.key = key
            self.text = text
        }
    }

    /// What one run showed about the question.
    public struct Observation: Sendable, Equatable {
        /// The key of the choice the run bore out, or nil when this run cannot tell (it crashed before the moment in
        /// question, or a knob took away what the question is about).
        public let rightChoice: String?
        /// What happened, in concurrency terms, written to follow "you said …;": "it ran on T3, a pool thread".
        public let happened: String

        public init(rightChoice: String?, happened: String) {
            self.rightChoice = rightChoice
            self.happened = happened
        }
    }

    /// Unique on its page; the key of the answer in the progress record.
    public let id: String
    public let question: String
    public let choices: [Choice]
    /// Reads the answer from the record of a run of the page.
    public let observe: @Sendable (RunRecord) -> Observation

    public init(id: String, question: String, choices: [Choice], observe: @escaping @Sendable (RunRecord) -> Observation) {
        self.id = id
        self.question = question
        self.choices = choices
        self.observe = observe
    }
}

/// A piece of concurrent code the learner writes in `Exercises/NN-Name/main.swift`, a program of its own, judged from
/// the record of its run: spans, operation states, threads and the ending, never its printed text.
public struct Challenge: Sendable {
    /// Unique on its page; the key of the pass in the progress record.
    public let id: String
    /// One line: "Finish the asynchronous operation".
    public let title: String
    /// What to do, in a short paragraph; the file's own header says it at length.
    public let task: String
    /// The folder under `Exercises/` and `Solutions/`, the page's own: "03-Async".
    public let folder: String
    /// Hints in order, from a nudge to nearly the answer; at least two.
    public let hints: [String]
    /// Knob settings and speed the check runs the program with.
    public let knobs: [KnobSetting]
    public let speed: Double
    /// How long the check lets the program sit still before it is called stuck: a challenge whose untouched file
    /// hangs or deadlocks must be judged in seconds.
    public let stuckAfter: Double
    /// Whether the check builds the program with Thread Sanitizer and counts its reports.
    public let threadSanitizer: Bool
    /// What holds and what is still wrong in this run, each in concurrency terms.
    public let judge: @Sendable (RunRecord) -> [CheckFinding]

    public init(id: String, title: String, task: String, folder: String, hints: [String],
                knobs: [KnobSetting] = [], speed: Double = 1, stuckAfter: Double = 3, threadSanitizer: Bool = false,
                judge: @escaping @Sendable (RunRecord) -> [CheckFinding]) {
        self.id = id
        self.title = title
        self.task = task
        self.folder = folder
        self.hints = hints
        self.knobs = knobs
        self.speed = speed
        self.stuckAfter = stuckAfter
        self.threadSanitizer = threadSanitizer
        self.judge = judge
    }

    /// The learner's file, relative to the package root.
    public var file: String { "\(Page.exercisesFolder)/\(folder)/main.swift" }
    /// The reference solution, relative to the package root.
    public var solutionFile: String { "Solutions/\(folder)/main.swift" }
    /// The learner's program: `Exercise03Async` for the folder `03-Async`.
    public var product: String { "Exercise" + folder.filter { $0 != "-" } }
    /// The reference solution's program, built with the package so that tests run it as it is.
    public var solutionProduct: String { "Solution" + folder.filter { $0 != "-" } }
}

/// One thing a check looked at in a run: whether it holds, and what the run showed, in words a learner acts on
/// ("two downloads ran at once from 0.42 s; the limit is one").
public struct CheckFinding: Sendable, Equatable {
    public let holds: Bool
    public let text: String

    public init(holds: Bool, _ text: String) {
        self.holds = holds
        self.text = text
    }
}
