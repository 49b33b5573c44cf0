/*:
 # Exercise: Upload after the import

 A photo library imports four photos from a camera's card and uploads each one. Every photo has two operations: an
 **import** copies it from the card to the disk, an **upload** sends the copy on the disk. They share one queue that
 runs two operations at once, and the uploads are handed to it first.

 Run it as it is: each upload sends an empty file, because nothing makes it wait for its import, and the queue starts
 whatever it was given first. Then, in this file:

 1. Make each upload **depend** on its import, so the queue holds it back until the photo is on the disk.
 2. The card is pulled out before photo 3 is imported, so its import is cancelled. A cancelled operation does not
    cancel the operations that depend on it: once it finishes (at once, without running), they run like any other.
    Make the upload look at its dependencies in `main()` and, when one was cancelled, **skip its work**.

 The check runs this file and reads what its operations did, not what it printed: each upload must have a dependency
 on its import, must begin sending only after the import finished, and the upload of photo 3 must send nothing.
 Check it with `tour check 4`; `tour hint 4` gives a hint.
 */
import Foundation
import LessonKit
import Synchronization

let photos = 1...4
/// The photo whose import is cancelled before it begins.
let cancelledPhoto = 3

/// The library's disk: what each import has copied so far. The operations run on the queue's threads, so it is
/// guarded by a lock.
final class Disk: Sendable {
    private let files = Mutex<[Int: Int]>([:])

    func store(photo: Int, bytes: Int) {
        files.withLock { $0[photo] = bytes }
    }

    /// The size of the photo's copy on the disk, 0 while there is none.
    func size(of photo: Int) -> Int {
        files.withLock { $0[photo] ?? 0 }
    }
}

let disk = Disk()

/// Copies one photo from the card to the disk.
final class ImportOperation: ObservedOperation, @unchecked Sendable {
    let photo: Int

    init(photo: Int) {
        self.photo = photo
        super.init()
        name = "import photo \(photo)"
    }

    override func main() {
        trace("copy photo \(photo) from the card") { Simulated.wait(0.2) }
        disk.store(photo: photo, bytes: 2_400_000 + photo * 1_000)
    }
}

/// Sends the disk's copy of one photo.
final class UploadOperation: ObservedOperation, @unchecked Sendable {
    let photo: Int

    init(photo: Int) {
        self.photo = photo
        super.init()
        name = "upload photo \(photo)"
    }

    override func main() {
        // Part 2: when one of `dependencies` was cancelled, skip the work below.
        let bytes = disk.size(of: photo)
        trace("send photo \(photo)") { Simulated.wait(0.2) }
        print("upload photo \(photo): sent \(bytes) bytes" + (bytes == 0 ? ", an empty file: the photo was not on the disk yet" : ""))
    }
}

let queue = OperationQueue()
queue.name = "transfers"
queue.maxConcurrentOperationCount = 2

var imports: [ImportOperation] = []
var uploads: [UploadOperation] = []
for photo in photos {
    let importing = ImportOperation(photo: photo)
    let upload = UploadOperation(photo: photo)
    // Part 1: make the upload wait for its import here.
    imports.append(importing)
    uploads.append(upload)
}

imports[cancelledPhoto - 1].cancel()
print("The card was pulled out: import photo \(cancelledPhoto) is cancelled.")

// The uploads go first: only dependencies make the queue start anything else before them.
queue.addOperations(uploads + imports, waitUntilFinished: false)
trace("waitUntilAllOperationsAreFinished") {
    queue.waitUntilAllOperationsAreFinished()
}
print("Done: \(uploads.filter { disk.size(of: $0.photo) > 0 }.count) photos are on the disk.")
