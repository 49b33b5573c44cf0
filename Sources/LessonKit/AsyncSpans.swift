/// Runs the asynchronous `body` as a named span, from its call until it returns, across every `await` inside it.
///
/// The span begins on the thread that calls it and ends on whichever thread the task resumed on last, so the host
/// draws it on the lane where it began. `body` runs in the caller's isolation (an actor's, or the main actor's for
/// top-level code), so it may use what the caller may: `await trace("fetch") { await photo(named: "coffee") }`.
@discardableResult
public func trace<T>(_ name: String, isolation: isolated (any Actor)? = #isolation,
                     _ body: () async throws -> T) async rethrows -> T {
    let span = OpenSpan(name)
    defer { span.end() }
    return try await body()
}
