import PageProtocol

/// Runs `body` as the phase `name` of the run: one of several runs of one workload, written different ways, that
/// the timeline's phase view (`t`, after the tasks) lays over one another, aligned at their starts, with the threads
/// each used and what each hand-off cost. The phase holds whatever the trace records from its start to its end, on
/// any thread, so a page runs its phases one after another.
public func phase<T>(_ name: String, isolation: isolated (any Actor)? = #isolation,
                     _ body: () async throws -> T) async rethrows -> T {
    let session = LessonSession.shared
    session.emit(.phase(name: name, phase: .start))
    session.narrate("phase \(name) begins")
    defer {
        session.emit(.phase(name: name, phase: .end))
        session.narrate("phase \(name) ends")
    }
    return try await body()
}
