import Dispatch
import Foundation
import Synchronization

// Page 9's exercise (`Exercises/09-Tasks`): the callback-style thumbnail service the learner's tasks ask. The
// exercise, its solution and its test variants differ only in how the tasks wait for its answer.

/// The thumbnail service of page 9's exercise, in the style of part one.
public enum ThumbnailService {
    /// Returns at once, waits on a thread of its own as a network request would (0.4 s at 1×, the span "fetch
    /// thumbnail N"), then calls back there with the size.
    public static func fetch(_ number: Int, completion: @escaping @Sendable (Int) -> Void) {
        Thread {
            trace("fetch thumbnail \(number)") { Simulated.wait(0.4) }
            completion(60 + number)
        }.start()
    }

    /// The old way to wait for a callback: block the calling thread, as the span "blocked waiting for N", until it has
    /// answered.
    public static func size(blocking number: Int) -> Int {
        let answered = DispatchSemaphore(value: 0)
        let size = Mutex(0)
        fetch(number) { value in
            size.withLock { $0 = value }
            answered.signal()
        }
        trace("blocked waiting for \(number)") { answered.wait() }
        return size.withLock { $0 }
    }
}
