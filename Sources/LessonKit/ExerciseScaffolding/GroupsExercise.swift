import Dispatch

// Page 7's exercise (`Exercises/07-Groups`): the three jobs the learner's group counts. The exercise, its solution
// and its test variants differ only in what the main thread does once they are started.

/// The jobs of page 7's exercise: fetch the photos, read the albums, and make the thumbnails, whose size the third
/// reads on the main queue with `DispatchQueue.main.sync`, as code that touches the interface's state must.
public enum ThreeJobs {
    /// What the person chose in the interface.
    ///
    /// `@unchecked Sendable`: the compiler cannot see that the main queue guards `thumbnailSize`; it is touched only there.
    final class Interface: @unchecked Sendable {
        var thumbnailSize = 96
    }

    static let interface = Interface()

    /// Starts the three jobs on a global queue, each entered into `group`, and returns at once.
    public static func start(in group: DispatchGroup) {
        print("Starting three jobs in one group")
        DispatchQueue.global().async(group: group) {
            trace("fetch the photos") { Simulated.wait(0.3) }
        }
        DispatchQueue.global().async(group: group) {
            trace("read the albums") { Simulated.wait(0.2) }
        }
        DispatchQueue.global().async(group: group) {
            trace("make the thumbnails") {
                let size = DispatchQueue.main.sync {
                    trace("read the thumbnail size") { interface.thumbnailSize }
                }
                print("Making thumbnails of \(size) points")
                Simulated.wait(0.2)
            }
        }
    }
}
