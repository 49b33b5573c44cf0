/*:
 # Solution: Upload after the import

 The reference solution of `Exercises/04-Dependencies/main.swift`: each upload depends on its import, and an upload
 whose import was cancelled skips its work and cancels itself, so anything that waited for it would see that too.
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

let queue = OperationQueue()
queue.name = "transfers"
queue.maxConcurrentOperationCount = 2

var imports: [ImportOperation] = []
var uploads: [UploadOperation] = []
for photo in photos {
    let importing = ImportOperation(photo: photo)
    let upload = UploadOperation(photo: photo)
    // The dependent is told what it waits for.
    upload.addDependency(importing)
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
