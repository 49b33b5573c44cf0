// The exercise of page 7 with the code it asks you to change deleted: the jobs start, nothing waits for them or
// shows a summary, and the program ends at once, normally.
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
