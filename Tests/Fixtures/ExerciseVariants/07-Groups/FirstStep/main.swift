/*:
 # Test variant: page 7's exercise with only the first step done

 The group is asked to call the summary on the main queue when its count reaches zero, and nothing waits on the
 main thread; but nothing keeps the main thread serving the main queue either, so the program reaches its end and
 exits before the jobs are done and before the summary runs. The check must fail it.
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
