/*:
 # Test variant: page 9's exercise with only the first step done

 `thumbnailSize(_:)` is written as the reference solution writes it, but the tasks still call
 `ThumbnailService.size(blocking:)`: each blocks its thread and keeps one of the global executor's places, so the
 requests wait a queue's width at a time, and the check must fail it.
 */
import Foundation
import LessonKit

// The service, in LessonKit: `ThumbnailService.fetch(_:completion:)` calls back with the size 0.4 s (at 1×) later,
// from a thread of its own; `ThumbnailService.size(blocking:)` blocks its caller's thread on a semaphore until then.

func thumbnailSize(_ number: Int) async -> Int {
    await withCheckedContinuation { continuation in
        ThumbnailService.fetch(number) { size in
            continuation.resume(returning: size)
        }
    }
}

let tasks = (1...8).map { number in
    Task.detached {
        trace("await thumbnail \(number)") {
            ThumbnailService.size(blocking: number)
        }
    }
}
var sizes: [Int] = []
for task in tasks {
    sizes.append(await task.value)
}
print("Thumbnail sizes: \(sizes.map(String.init).joined(separator: ", "))")
