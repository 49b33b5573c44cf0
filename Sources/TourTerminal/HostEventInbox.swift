import Dispatch
import Synchronization
import TourCore

/// The one channel from the runners' threads to the interface: events pile up here and the interface
/// queue takes them in batches, so tens of thousands of events a second cost one queue hop per batch, not one each.
final class HostEventInbox: Sendable {
    private struct State {
        var events: [(runID: Int, event: HostEvent)] = []
        var drainScheduled = false
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let drain: @Sendable ([(runID: Int, event: HostEvent)]) -> Void

    /// `drain` runs on `queue` with every event posted since it last ran, in order.
    init(queue: DispatchQueue, drain: @escaping @Sendable ([(runID: Int, event: HostEvent)]) -> Void) {
        self.queue = queue
        self.drain = drain
    }

    func post(_ event: HostEvent, runID: Int) {
        let mustSchedule = state.withLock { state -> Bool in
            state.events.append((runID, event))
            defer { state.drainScheduled = true }
            return !state.drainScheduled
        }
        guard mustSchedule else { return }
        queue.async { [self] in
            let batch = state.withLock { state -> [(runID: Int, event: HostEvent)] in
                state.drainScheduled = false
                defer { state.events.removeAll(keepingCapacity: true) }
                return state.events
            }
            drain(batch)
        }
    }
}
