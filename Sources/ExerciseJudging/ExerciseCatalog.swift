import TourCore

/// Every page's exercises, in page order.
public enum ExerciseCatalog {
    public static let all: [PageExercises] = [
        .operation,
        .queue,
        .async,
        .dependencies,
        .inPractice,
        .gcd,
        .groups,
        .barrier,
        .tasks,
        .taskGroups,
        .actors,
        .isolation,
        .streams,
        .starvation,
    ]

    /// The names progress keeps each page's exercises under, in page order (`ProgressReport.table` and `.summary`).
    public static var ids: [PageExerciseIDs] {
        all.map { PageExerciseIDs(page: $0.page, prediction: $0.prediction.id, challenge: $0.challenge.id) }
    }

    /// The exercises of the page with this slug, if it has any.
    public static func exercises(forPage slug: String) -> PageExercises? {
        all.first { $0.page == slug }
    }
}
