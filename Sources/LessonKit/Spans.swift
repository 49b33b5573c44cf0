import PageProtocol

/// Runs `body` as a named span: the host draws it on the lane of the thread that ran it, from start to end.
///
/// Returns whatever `body` returns, so it wraps existing code without changing it:
/// `let image = trace("tilt-shift") { tiltShift(photo) }`.
@discardableResult
public func trace<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
    let span = OpenSpan(name)
    defer { span.end() }
    return try body()
}

/// A span that has begun and not yet ended, for a span whose two ends are not one closure's start and return,
/// such as an operation's executing and finished (`ObservedOperation`). Its lane is the thread that began it.
struct OpenSpan: Sendable {
    let id: Int
    let name: String
    /// When the span began, for the narration's "took"; only read when there is narration, since the host has the
    /// `begin` event's own stamp.
    let start: UInt64
    /// The thread's processor time as the span began, for the `end` event's `cpu`; read only while a host listens.
    /// A span that ends on another thread than it began (an operation finished from elsewhere) has no CPU time.
    let startCPU: UInt64
    let thread: Int32

    init(_ name: String) {
        let session = LessonSession.shared
        id = session.makeSpanID()
        self.name = name
        start = session.narrates ? monotonicNanoseconds() : 0
        let listened = session.channel.isConnected
        thread = listened ? ThreadIdentity.current : 0
        session.emit(.begin(id: id, name: name, task: TracedTaskIdentity.current?.number))
        // Read after the `begin` is sent, so the span's CPU time leaves out the cost of sending it.
        startCPU = listened ? threadCPUNanoseconds() : 0
    }

    func end() {
        let session = LessonSession.shared
        if session.channel.isConnected {
            let now = thread == ThreadIdentity.current ? threadCPUNanoseconds() : 0
            let cpu = now >= startCPU && now > 0 ? Int(now - startCPU) : nil
            session.emit(.end(id: id, name: name, cpu: cpu))
        }
        session.narrate("\(name) took \(formatSeconds(Double(monotonicNanoseconds() - start) / 1e9))")
    }
}

/// Records an instant on the current thread's lane, such as "cancel requested".
public func mark(_ name: String) {
    let session = LessonSession.shared
    session.emit(.mark(name: name))
    session.narrate("• \(name)")
}

/// Seconds as a learner reads them: "0.213 s", "4.1 ms", "250 µs", as the tutorial writes them too.
public func formatSeconds(_ seconds: Double) -> String {
    DurationText.seconds(seconds)
}
