import Foundation
import Synchronization

// Page 4's exercise (`Exercises/04-Dependencies`): the card, the disk, the imports and the queue around the
// learner's uploads. The exercise and its solution differ only in the upload and in how it is tied to its import.

/// The photo library of page 4's exercise: four photos on a card, each imported to the disk and then uploaded.
public enum PhotoCard {
    public static let photos = 1...4
    /// The photo whose import is cancelled before it begins.
    public static let cancelledPhoto = 3
    public static let disk = PhotoDisk()

    /// Runs the library: for each photo an import and the upload `makeUpload` makes, passed to `link` as a pair; then
    /// photo 3's import is cancelled, and everything goes to the queue "transfers" (two at a time), uploads first.
    public static func run<Upload: Operation>(uploads makeUpload: (Int) -> Upload,
                                              link: (_ importing: ImportOperation, _ upload: Upload) -> Void) {
        let queue = OperationQueue()
        queue.name = "transfers"
        queue.maxConcurrentOperationCount = 2

        var imports: [ImportOperation] = []
        var uploads: [Upload] = []
        for photo in photos {
            let importing = ImportOperation(photo: photo)
            let upload = makeUpload(photo)
            link(importing, upload)
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
        print("Done: \(photos.filter { disk.size(of: $0) > 0 }.count) photos are on the disk.")
    }
}

/// The library's disk: what each import has copied so far. The operations run on the queue's threads, so it is
/// guarded by a lock.
public final class PhotoDisk: Sendable {
    private let files = Mutex<[Int: Int]>([:])

    func store(photo: Int, bytes: Int) {
        files.withLock { $0[photo] = bytes }
    }

    /// The size of the photo's copy on the disk, 0 while there is none.
    public func size(of photo: Int) -> Int {
        files.withLock { $0[photo] ?? 0 }
    }
}

/// Copies one photo from the card to the disk (the span "copy photo N from the card").
public final class ImportOperation: ObservedOperation, @unchecked Sendable {
    public let photo: Int

    init(photo: Int) {
        self.photo = photo
        super.init()
        name = "import photo \(photo)"
    }

    override public func main() {
        trace("copy photo \(photo) from the card") { Simulated.wait(0.2) }
        PhotoCard.disk.store(photo: photo, bytes: 2_400_000 + photo * 1_000)
    }
}
