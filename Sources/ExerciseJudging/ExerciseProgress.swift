import TourCore

/// What a learner's progress says about one page's exercises: hints seen, passed, whether the solution is open.
extension ProgressRecord {
    /// How many hints needed before the reference solution opens without a pass.
    public static let hintsBeforeSolution = 2

    /// What the learner did towards `exercises`' challenge.
    public func attempts(on exercises: PageExercises) -> ExerciseAttempts {
        pages[exercises.page]?.attempts[exercises.challenge.id] ?? ExerciseAttempts()
    }

    /// Whether the check of `exercises`' challenge has passed.
    public func hasPassed(_ exercises: PageExercises) -> Bool {
        pages[exercises.page]?.exercises[exercises.challenge.id] != nil
    }

    /// The reference solution opens after the check has passed, or after `hintsBeforeSolution` hints: the one rule,
    /// for the record here and for the interface's model of a session.
    public static func solutionOpens(passed: Bool, hintsShown: Int) -> Bool {
        passed || hintsShown >= hintsBeforeSolution
    }

    /// Whether the record opens `exercises`' reference solution (`solutionOpens(passed:hintsShown:)`).
    public func solutionIsOpen(for exercises: PageExercises) -> Bool {
        Self.solutionOpens(passed: hasPassed(exercises), hintsShown: attempts(on: exercises).hintsShown)
    }

    /// The learner's answer to `exercises`' prediction, if any.
    public func answer(to exercises: PageExercises) -> PredictionAnswer? {
        pages[exercises.page]?.predictions[exercises.prediction.id]
    }
}

extension Challenge {
    /// The hint to show after `shown` hints: number (1-based) and text. After the last, the last again.
    public func hint(after shown: Int) -> (number: Int, text: String) {
        let number = min(max(shown, 0) + 1, hints.count)
        return (number, hints[number - 1])
    }
}
