/// Every page's exercises, in page order.
public enum ExerciseCatalog {
    public static let all: [PageExercises] = [
        .async,
        .barrier,
    ]

    /// The exercises of the page with this slug, if it has any.
    public static func exercises(forPage slug: String) -> PageExercises? {
        all.first { $0.page == slug }
    }
}
