import PageProtocol

/// How a page says it is going to end (`crash`, `stuck`): the one type the host reads it as too.
public typealias Ending = PageProtocol.Ending

/// Announces that the page is about to end in `ending` on purpose, for the reason given.
public func expectEnding(_ ending: Ending, because reason: String) {
    let session = LessonSession.shared
    session.emit(.expect(ending: ending, why: reason))
    session.narrate("expect this run to end with a \(ending.rawValue): \(reason)")
}
