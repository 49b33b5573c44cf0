/*:
 # Solution: Upload after the import

 The reference solution of `Exercises/04-Dependencies/main.swift`: each upload depends on its import, and an upload
 whose import was cancelled skips its work and cancels itself, so anything that waited for it would see that too.
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
        // A cancelled dependency still lets this operation run: it has to look, and pass the cancellation on.
        if let cancelled = dependencies.first(where: \.isCancelled) {
            print("upload photo \(photo): skipped, \(cancelled.name ?? "its import") was cancelled")
            cancel()
            return
        }
        let bytes = disk.size(of: photo)
        trace("send photo \(photo)") { Simulated.wait(0.2) }
        print("upload photo \(photo): sent \(bytes) bytes" + (bytes == 0 ? ", an empty file: the photo was not on the disk yet" : ""))
    }
}

// Each photo gets an import and an upload; then photo 3's import is cancelled, and the queue (two at a time) is given
// the uploads first: only dependencies make it start anything else before them.
PhotoCard.run(uploads: UploadOperation.init(photo:)) { importing, upload in
    // The dependent is told what it waits for.
    upload.addDependency(importing)
}
