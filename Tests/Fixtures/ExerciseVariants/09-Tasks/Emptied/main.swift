// The exercise of page 9 with the code it asks you to change deleted: the service and the blocking wait are there,
// but no task asks for a thumbnail, and the program ends at once, normally.
import Foundation
import LessonKit
import Synchronization

/// The callback-style service: returns at once, waits on a thread of its own, then calls back there with the size.
func fetchThumbnail(_ number: Int, completion: @escaping @Sendable (Int) -> Void) {
    Thread {
        trace("fetch thumbnail \(number)") { Simulated.wait(0.4) }
        completion(60 + number)
    }.start()
}

/// The old way to wait for a callback: block the calling thread until it has answered.
func thumbnailSize(blocking number: Int) -> Int {
    let answered = DispatchSemaphore(value: 0)
    let size = Mutex(0)
    fetchThumbnail(number) { value in
        size.withLock { $0 = value }
        answered.signal()
    }
    trace("blocked waiting for \(number)") { answered.wait() }
    return size.withLock { $0 }
}
