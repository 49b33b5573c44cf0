/*:
 # Exercise: let eight requests wait at once

 `ThumbnailService.fetch(_:completion:)`, in LessonKit, is a service in the style of part one: it returns at once, waits on a thread of its own as a network request would (0.4 s at 1×), and then calls back with the thumbnail's size.

 Eight tasks need those sizes in `async` code. As written, each gets its answer the old way, with `ThumbnailService.size(blocking:)`: it starts the request, then blocks its thread on a semaphore until the callback signals. A task that blocks keeps its thread and one of the places of the global executor, whose queue runs only as many tasks at once as the machine has CPUs (page 9), however long they block; so the eight requests wait a queue's width at a time.

 Your task: write `thumbnailSize(_:)`, an `async` function that suspends with `withCheckedContinuation` instead of blocking, and whose callback resumes the continuation exactly once with the size. Then call it from the eight tasks in place of `ThumbnailService.size(blocking:)`.

 What the check looks at (`tour check 9`, or `c` in the tutorial): it builds and runs this file and reads what its threads did, not what it prints. It passes when the program ends normally; each of the eight tasks ran its `await thumbnail N` span to its end; more of them waited at once than the global executor runs tasks at once; and no thread sat in a `blocked waiting for N` span. Keep the names given to `trace`: the check reads them. `tour hint 9` gives a hint; `tour solution 9` opens the reference solution once the check has passed, or after two hints.
 */
import Foundation
import LessonKit

// The service, in LessonKit: `ThumbnailService.fetch(_:completion:)` calls back with the size 0.4 s (at 1×) later,
// from a thread of its own; `ThumbnailService.size(blocking:)` blocks its caller's thread on a semaphore until then.

// Write thumbnailSize(_:) here: async, waiting with withCheckedContinuation.

let tasks = (1...8).map { number in
    Task.detached {
        // Change this call: await thumbnailSize(number) instead (and await the trace around it).
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
