/// How a page says it is going to end, when that is not a normal exit: the tutorial then counts
/// the crash or the hang as the lesson going to plan, and shows `reason` beside its own explanation.
public enum Ending: String, Sendable {
    /// The process will stop on a fatal error or a signal.
    case crash
    /// The page will stop making progress and wait forever; the tutorial's watchdog ends it.
    case stuck
}

/// Announces that the page is about to end in `ending` on purpose, for the reason given.
public func expectEnding(_ ending: Ending, because reason: String) {
    let session = LessonSession.shared
    session.emit("expect") { line in
        line.add("ending", ending.rawValue)
        line.add("why", reason)
    }
    session.narrate("expect this run to end with a \(ending.rawValue): \(reason)")
}
