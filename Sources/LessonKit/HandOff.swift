import PageProtocol

/// The passages of a batch's work from one step to the next, traced: `ready(item)` where a step's result is ready
/// (a download's end), `take(item)` where the next step starts with it (the filter), on whatever thread that is.
/// Each passage is a span in the trace, `hand-off <item>`, from one to the other (`HandOffSpans`), so the timeline's
/// phase view counts the hops between threads and reads what each cost; the page reads the same counts here.
///
/// It locks with a pthread mutex, which Thread Sanitizer follows, like `Gate`.
public final class HandOffs: Sendable {
    private struct State {
        var pending: [String: (span: OpenSpan, thread: Int32)] = [:]
        var taken = 0
        var hops = 0
    }

    private let state = SanitizerVisibleLock(State())

    public init() {}

    /// The result for `item` is ready on this thread: the hand-off begins.
    public func ready(_ item: String) {
        let span = OpenSpan(HandOffSpans.namePrefix + item)
        let thread = ThreadIdentity.current
        state.withLock { $0.pending[item] = (span, thread) }
    }

    /// The next step has `item`'s result on this thread: the hand-off ends. `item` must have been made `ready`.
    public func take(_ item: String) {
        let here = ThreadIdentity.current
        let span = state.withLock { state -> OpenSpan? in
            guard let pending = state.pending.removeValue(forKey: item) else { return nil }
            state.taken += 1
            if pending.thread != here { state.hops += 1 }
            return pending.span
        }
        precondition(span != nil, "take(\"\(item)\") without a ready(\"\(item)\") before it")
        span?.end()
    }

    /// How many hand-offs were taken.
    public var count: Int { state.withLock { $0.taken } }
    /// How many of them went to another thread than the one where the result was ready.
    public var hops: Int { state.withLock { $0.hops } }
}
