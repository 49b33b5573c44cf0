/*:
 # Solution: let eight requests wait at once

 `thumbnailSize(_:)` suspends its task with `withCheckedContinuation`; the service's callback resumes it, once, with the size. A suspended task holds no thread, so all eight requests wait at once, and the pool's threads stay free.
 */
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

/// The new way: suspend the task until the callback has answered, holding no thread.
func thumbnailSize(_ number: Int) async -> Int {
    await withCheckedContinuation { continuation in
        fetchThumbnail(number) { size in
            continuation.resume(returning: size)
        }
    }
}

let tasks = (1...8).map { number in
    Task.detached {
        await trace("await thumbnail \(number)") {
            await thumbnailSize(number)
        }
    }
}
var sizes: [Int] = []
for task in tasks {
    sizes.append(await task.value)
}
print("Thumbnail sizes: \(sizes.map(String.init).joined(separator: ", "))")
