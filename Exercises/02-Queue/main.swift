/*:
 # Exercise: Let the preview start first

 Three jobs go onto one queue, in this order: a backup, a filter and a preview. The user is looking at the screen, so the preview matters most, the filter next, and the backup can wait. As given, the queue starts them in the order they were added: the preview last.

 **Your task:** using `queuePriority` alone, make the preview start first, the filter next and the backup last. Keep the order they are added in, and add no dependencies.

 The queue is already set up so that its own choice decides the order, never timing: it runs one job at a time (`maxConcurrentOperationCount = 1`), and it is suspended while the jobs are added, so when it resumes all three are waiting and it picks among them (page 2, *Which operation starts next*). Leave that as it is.

 **What the check looks at:** the state changes Foundation made to the operations `backup`, `filter` and `preview`: when each began executing, against the marks `added backup`, `added filter` and `added preview` the program makes as it adds them; that no two ran at once; and that no job depends on another. It never reads what the program prints.

 Check your work with `tour check 2`; `tour hint 2` shows the next hint. The demo page stays as it was.
 */
import Foundation
import LessonKit

// Three jobs that only wait; `QueueJob.runOneAtATime`, in LessonKit, adds them in this order to a queue that runs one
// job at a time and is suspended while they are added, so its own choice decides which starts next.
let backup = QueueJob("backup")
let filter = QueueJob("filter")
let preview = QueueJob("preview")

// Your code: give the jobs priorities, so that the preview starts first, the filter next and the backup last.

QueueJob.runOneAtATime([backup, filter, preview])
