/*:
 # Test variant: page 4's exercise with only the first step done

 Each upload depends on its import, so no upload sends before its photo is on the disk; but `main()` never looks at
 its dependencies, so the upload of photo 3, whose import was cancelled, still runs and sends an empty file. The
 check must fail it.
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
        let bytes = disk.size(of: photo)
        trace("send photo \(photo)") { Simulated.wait(0.2) }
        print("upload photo \(photo): sent \(bytes) bytes" + (bytes == 0 ? ", an empty file: the photo was not on the disk yet" : ""))
    }
}

// Each photo gets an import and an upload; then photo 3's import is cancelled, and the queue (two at a time) is given
// the uploads first: only dependencies make it start anything else before them.
PhotoCard.run(uploads: UploadOperation.init(photo:)) { importing, upload in
    upload.addDependency(importing)
}
