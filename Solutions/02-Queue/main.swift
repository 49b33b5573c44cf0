/*:
 # Solution: Let the preview start first

 The queue is suspended while the jobs are added, so when it resumes all three are ready and waiting, and with room for one job at a time it picks among them: the highest `queuePriority` first, and among equal priorities the one added first. Raising the preview to `.high` and lowering the backup to `.low` orders them preview, filter, backup, whatever the order they were added in and however loaded the machine.

 Two things would have made the order a matter of timing instead: a queue that is not suspended starts the backup the moment it is added, before the others are there to choose from; and a queue wider than one starts them all at once, so there is no "next" to choose.
 */
import Foundation
import LessonKit

// Three jobs that only wait; `QueueJob.runOneAtATime`, in LessonKit, adds them in this order to a queue that runs one
// job at a time and is suspended while they are added, so its own choice decides which starts next.
let backup = QueueJob("backup")
let filter = QueueJob("filter")
let preview = QueueJob("preview")

// The queue picks the ready job with the highest queuePriority; among equals, the one added first. All three
// start at .normal, so the preview goes up, the backup goes down, and the filter stays where it is.
preview.queuePriority = .high
backup.queuePriority = .low

QueueJob.runOneAtATime([backup, filter, preview])
