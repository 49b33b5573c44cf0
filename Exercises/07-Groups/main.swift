/*:
 # Exercise: be told when all three are done

 Three jobs run on a global queue, counted by the dispatch group `jobs`: one fetches the photos, one reads the albums, one makes the thumbnails. The third needs the thumbnail size the person chose, which belongs to the interface, and the interface's state is touched only on the main queue: the job asks for it with `DispatchQueue.main.sync`.

 As written, the main thread blocks in `jobs.wait()` until all three are done, then shows the summary. But the main queue runs only while the main thread serves it, and the main thread is waiting for the third job, which is waiting for the main queue. Neither can go on: a deadlock. It is the classic way an app freezes, and here the tutorial's watchdog stops the program after a few seconds with both still open.

 Your task: show the summary on the main queue once all three jobs are done, with no wait on the main thread. Ask the group to call you when its count reaches zero, and keep the main thread serving the main queue, as page 7 does at its end; end the program from the summary's block with `exit(0)`.

 `tour check 7` runs this file and judges it by what its threads did, not by what it prints:
 - the program ends normally: no hang;
 - the three jobs ran to their end, and the third read the size on the main queue;
 - the summary began only after the last of the three had ended, and ran on the main queue, `com.apple.main-thread`;
 - the main thread never sat in `wait for the jobs`.

 Keep the names given to `trace`: the check reads them. `tour hint 7` gives a hint; `tour run` shows the timeline.
 */
import Foundation
import LessonKit

// The three jobs, started on a global queue and counted by `jobs`: fetch the photos, read the albums, and make the
// thumbnails, whose size the third reads with DispatchQueue.main.sync. `ThreeJobs` is in LessonKit.
let jobs = DispatchGroup()
ThreeJobs.start(in: jobs)

// Change what follows: no wait on the main thread.
trace("wait for the jobs") {
    jobs.wait()
}
trace("show the summary") {
    print("All three jobs are done: photos fetched, albums read, thumbnails made.")
}
