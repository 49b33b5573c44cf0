/*:
 # Solution: be told when all three are done

 `notify(queue: .main)` hands the summary to the main queue once the group's count reaches zero, and blocks no one. It is registered after the three jobs entered the group, so the count is not already zero. `dispatchMain()` then keeps the main thread serving the main queue: it parks the main thread for good and hands the main queue to pool threads, so the third job's `DispatchQueue.main.sync` runs, and later the summary does, on the main queue, off the `main` lane. Since `dispatchMain()` never returns, the summary's block ends the program.
 */
import Foundation
import LessonKit

/// What the person chose in the interface.
///
/// `@unchecked Sendable`: the compiler cannot see that the main queue guards `thumbnailSize`; it is touched only there.
final class Interface: @unchecked Sendable {
    var thumbnailSize = 96
}

let interface = Interface()
let jobs = DispatchGroup()
print("Starting three jobs in one group")

DispatchQueue.global().async(group: jobs) {
    trace("fetch the photos") { Simulated.wait(0.3) }
}
DispatchQueue.global().async(group: jobs) {
    trace("read the albums") { Simulated.wait(0.2) }
}
DispatchQueue.global().async(group: jobs) {
    trace("make the thumbnails") {
        let size = DispatchQueue.main.sync {
            trace("read the thumbnail size") { interface.thumbnailSize }
        }
        print("Making thumbnails of \(size) points")
        Simulated.wait(0.2)
    }
}

jobs.notify(queue: .main) {
    trace("show the summary") {
        print("All three jobs are done: photos fetched, albums read, thumbnails made.")
    }
    exit(0)
}
dispatchMain()
