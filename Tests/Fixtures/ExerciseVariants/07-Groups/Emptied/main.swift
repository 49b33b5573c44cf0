// The exercise of page 7 with the code it asks you to change deleted: the jobs start, nothing waits for them or
// shows a summary, and the program ends at once, normally.
import Foundation
import LessonKit

// The three jobs, started on a global queue and counted by `jobs`: fetch the photos, read the albums, and make the
// thumbnails, whose size the third reads with DispatchQueue.main.sync. `ThreeJobs` is in LessonKit.
let jobs = DispatchGroup()
ThreeJobs.start(in: jobs)
