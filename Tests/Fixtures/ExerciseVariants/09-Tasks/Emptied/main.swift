// The exercise of page 9 with the code it asks you to change deleted: the service and the blocking wait are there,
// but no task asks for a thumbnail, and the program ends at once, normally.
import Foundation
import LessonKit

// The service, in LessonKit: `ThumbnailService.fetch(_:completion:)` calls back with the size 0.4 s (at 1×) later,
// from a thread of its own; `ThumbnailService.size(blocking:)` blocks its caller's thread on a semaphore until then.
