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

// The card, the disk (`disk`), the imports and the queue are in LessonKit (`PhotoCard`); your part is the upload.
let disk = PhotoCard.disk

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

// Each photo gets an import and an upload; then photo 3's import is cancelled, and the queue (two at a time) is given
// the uploads first: only dependencies make it start anything else before them.
PhotoCard.run(uploads: UploadOperation.init(photo:)) { importing, upload in
    // Part 1: make the upload wait for its import here.
}
