import PageProtocol

/// The page's `print`: the same as Swift's when the page runs alone, but when the host listens,
/// each printed line goes over the trace channel with the time and the thread that printed it.
///
/// Pages import LessonKit, so their `print` calls resolve here; the signature matches `Swift.print`.
public func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { String(describing: $0) }.joined(separator: separator)
    let session = LessonSession.shared
    guard session.channel.isConnected else {
        Swift.print(text, terminator: terminator)
        return
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        session.emit(.out(text: String(line)))
    }
}
