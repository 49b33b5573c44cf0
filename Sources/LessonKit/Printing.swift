import PageProtocol

/// The page's `print`: the same as Swift's when the page runs alone, but when the host listens,
/// each printed line goes over the trace channel with the time and the thread that printed it.
///
/// Pages import LessonKit, so their `print` calls resolve here; the signature matches `Swift.print`.
///
/// In a level played or searched under the scheduler, standard output carries the protocol, and a print is work
/// outside the gates: it is recorded as such for the lanes (by the level's thread that printed, if it is one), not
/// written.
public func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { String(describing: $0) }.joined(separator: separator)
    if LevelRun.madeInThisProcess.load(ordering: .acquiring),
       let run = GateTicket.current?.run ?? LevelRun.current.withLock({ $0 }), run.controlled {
        run.recordUngated(thread: run.currentThread, "printed " + EchoedInput.quoted(text))
        return
    }
    let session = LessonSession.shared
    guard session.channel.isConnected else {
        Swift.print(text, terminator: terminator)
        return
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        session.emit(.out(text: String(line)))
    }
}
