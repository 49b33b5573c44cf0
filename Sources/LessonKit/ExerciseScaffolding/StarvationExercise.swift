import Dispatch
import Foundation
import Synchronization

// Page 14's exercise (`Exercises/14-Starvation`): a price service that answers from a task of the default priority,
// as a library built on Swift Concurrency but offering a callback does. The exercise, its solution and its test
// variants differ only in how the learner's tasks wait for its answer.

/// The price service of page 14's exercise.
public enum PriceService {
    /// Returns at once; a task of the default priority looks the price up (0.3 s at 1×, the span "look up price N",
    /// during which it suspends), marks "price N answered" and calls back from that task with the price.
    public static func request(_ item: Int, completion: @escaping @Sendable (Int) -> Void) {
        Task.detached(priority: .medium) {
            await trace("look up price \(item)") {
                try? await Task.sleep(for: .seconds(0.3 / Simulated.speed))
            }
            mark("price \(item) answered")
            completion(100 + item)
        }
    }

    /// The old way to wait for a callback: block the calling thread on a semaphore, as the span "blocked waiting for
    /// price N", until the service answers, or give up after 1 s at 1× (the mark "gave up waiting for price N") and
    /// return nil.
    public static func price(blocking item: Int) -> Int? {
        let answered = DispatchSemaphore(value: 0)
        let price = Mutex<Int?>(nil)
        request(item) { value in
            price.withLock { $0 = value }
            answered.signal()
        }
        let outcome = trace("blocked waiting for price \(item)") {
            answered.wait(timeout: .now() + 1.0 / Simulated.speed)
        }
        if outcome == .timedOut {
            mark("gave up waiting for price \(item)")
        }
        return price.withLock { $0 }
    }
}
