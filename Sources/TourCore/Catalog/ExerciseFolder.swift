import Foundation

/// Where the learners' exercise files live, which the host's resets and builds need without knowing any exercise (the
/// exercises themselves are in `ExerciseJudging`).
extension Page {
    /// The package's folder of the learners' exercise files, beside `Lessons`.
    public static let exercisesFolder = "Exercises"

    /// Whether these are an exercise's files (`PageExercises.exerciseFiles`) rather than a page of the tour.
    public var isExerciseFiles: Bool { folder.hasPrefix(Self.exercisesFolder + "/") }

    /// How the learner undoes the last reset of these files: `tour reset --undo async`, or for an exercise's files
    /// `tour reset --undo async --exercise`, named as the learner types the page.
    public var undoResetCommand: String {
        "tour reset --undo \(Self.slug(ofFolder: (folder as NSString).lastPathComponent))" + (isExerciseFiles ? " --exercise" : "")
    }
}
