/*:
 # Test variant: page 2's exercise with only the first step done

 The preview is raised to `.high`, so it starts first; the backup is left at `.normal`, so among the two jobs of
 equal priority the queue starts the one added first, the backup, before the filter. The check must fail it.
 */
import Foundation
import LessonKit

// Three jobs that only wait; `QueueJob.runOneAtATime`, in LessonKit, adds them in this order to a queue that runs one
// job at a time and is suspended while they are added, so its own choice decides which starts next.
let backup = QueueJob("backup")
let filter = QueueJob("filter")
let preview = QueueJob("preview")

// The first step only: the preview goes up; nothing puts the backup after the filter.
preview.queuePriority = .high

QueueJob.runOneAtATime([backup, filter, preview])
