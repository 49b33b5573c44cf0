/// The edit loop of one page as a pure state machine, driven by `tour watch` and by the interface alike:
/// a change seen stops the old run and rebuilds just that page; the new run starts once the build has succeeded
/// and the old run has ended, so the two never overlap; a failed build starts nothing, and the caller shows its errors.
///
/// It decides; it does nothing. Each call returns the `Action`s its caller carries out (stop a process, start a build),
/// and what those report back (a build's end, a run's end) comes in through the next call.
public struct RebuildCycle: Sendable, Equatable {
    /// What the caller must do, in order.
    public enum Action: Equatable, Sendable {
        /// Tell the page's run in flight to stop; its end comes back through `runEnded()`.
        case stopRun
        /// Stop the build with this id; its end, if it still arrives, is ignored.
        case cancelBuild(id: Int)
        /// Build the page's program; its end comes back through `buildFinished(id:succeeded:runIsLive:)`.
        case startBuild(id: Int)
        /// Run the newly built program.
        case startRun
    }

    public enum State: Equatable, Sendable {
        /// Nothing in flight, nothing waiting.
        case idle
        /// A build with this id is in flight; `rerun` when the page runs once it succeeds.
        case building(id: Int, rerun: Bool)
        /// The build succeeded; the run waits for the old one, already told to stop, to end.
        case awaitingRunEnd
    }

    public private(set) var state = State.idle

    public init() {}

    /// The id of the build in flight, if any.
    public var buildInFlight: Int? {
        if case .building(let id, _) = state { return id }
        return nil
    }

    /// The page's source changed: stop the old run, cancel the old build, build anew (`buildID`), and rerun after.
    public mutating func changeSeen(buildID: Int, runIsLive: Bool) -> [Action] {
        (runIsLive ? [.stopRun] : []) + build(buildID: buildID, thenRun: true)
    }

    /// A build with no change behind it (a stale program, the first build of `tour watch`): cancels one in flight.
    public mutating func build(buildID: Int, thenRun: Bool) -> [Action] {
        let cancel = cancelBuild()
        state = .building(id: buildID, rerun: thenRun)
        return cancel + [.startBuild(id: buildID)]
    }

    /// The learner asked for a run while a build is in flight: it runs once the build succeeds. False when none is.
    public mutating func runWhenBuilt() -> Bool {
        guard case .building(let id, _) = state else { return false }
        state = .building(id: id, rerun: true)
        return true
    }

    /// A build ended. Nil when `id` is not the build in flight (one cancelled since): the caller ignores its outcome.
    /// `runIsLive`: the old run has not ended yet, so a rerun waits for `runEnded()`.
    public mutating func buildFinished(id: Int, succeeded: Bool, runIsLive: Bool) -> [Action]? {
        guard case .building(id, let rerun) = state else { return nil }
        guard succeeded, rerun else {
            state = .idle
            return []
        }
        if runIsLive {
            state = .awaitingRunEnd
            return []
        }
        state = .idle
        return [.startRun]
    }

    /// The page's run ended: a rebuilt program waiting for it starts now.
    public mutating func runEnded() -> [Action] {
        guard state == .awaitingRunEnd else { return [] }
        state = .idle
        return [.startRun]
    }

    /// The source is gone or unreadable: stop the old run and the build; nothing waits to run.
    public mutating func sourceLost(runIsLive: Bool) -> [Action] {
        (runIsLive ? [.stopRun] : []) + cancel()
    }

    /// Stops the build in flight and forgets any rerun waiting.
    public mutating func cancel() -> [Action] {
        let cancel = cancelBuild()
        state = .idle
        return cancel
    }

    private func cancelBuild() -> [Action] {
        buildInFlight.map { [.cancelBuild(id: $0)] } ?? []
    }
}
