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

    /// The reference solution opens after the check has passed, or after the learner asked for a hint twice.
    public func solutionIsOpen(for exercises: PageExercises) -> Bool {
        hasPassed(exercises) || attempts(on: exercises).hintsShown >= Self.hintsBeforeSolution
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
