/// How a hand-off travels in the trace: as a span whose name starts with `namePrefix`, begun on the thread where one
/// step's result was ready and ended on the thread where the next step took it up (LessonKit's `HandOff`). The
/// host's phase view counts them: a hand-off that ended on another thread is a hop, and its length is what the hop
/// cost.
public enum HandOffSpans {
    public static let namePrefix = "hand-off "

    /// Whether a span named `name` is a hand-off.
    public static func isHandOff(_ name: String) -> Bool { name.hasPrefix(namePrefix) }
}
