/*:
 # Solution: be told when all three are done

 `notify(queue: .main)` hands the summary to the main queue once the group's count reaches zero, and blocks no one. It is registered after the three jobs entered the group, so the count is not already zero. `dispatchMain()` then keeps the main thread serving the main queue: it parks the main thread for good and hands the main queue to pool threads, so the third job's `DispatchQueue.main.sync` runs, and later the summary does, on the main queue, off the `main` lane. Since `dispatchMain()` never returns, the summary's block ends the program.
 */
import Foundation
import LessonKit

// The three jobs, started on a global queue and counted by `jobs`: fetch the photos, read the albums, and make the
// thumbnails, whose size the third reads with DispatchQueue.main.sync. `ThreeJobs` is in LessonKit.
let jobs = DispatchGroup()
ThreeJobs.start(in: jobs)

jobs.notify(queue: .main) {
    trace("show the summary") {
        print("All three jobs are done: photos fetched, albums read, thumbnails made.")
    }
    exit(0)
}
dispatchMain()
