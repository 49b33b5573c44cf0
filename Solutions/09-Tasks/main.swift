/*:
 # Solution: let eight requests wait at once

 `thumbnailSize(_:)` suspends its task with `withCheckedContinuation`; the service's callback resumes it, once, with the size. A suspended task holds no thread, so all eight requests wait at once, and the pool's threads stay free.
 */
import Foundation
import LessonKit

// The service, in LessonKit: `ThumbnailService.fetch(_:completion:)` calls back with the size 0.4 s (at 1×) later,
// from a thread of its own; `ThumbnailService.size(blocking:)` blocks its caller's thread on a semaphore until then.

/// The new way: suspend the task until the callback has answered, holding no thread.
func thumbnailSize(_ number: Int) async -> Int {
    await withCheckedContinuation { continuation in
        ThumbnailService.fetch(number) { size in
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
