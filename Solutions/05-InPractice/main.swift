/*:
 # Solution: Each photo once, and only for rows in view

 The reference solution of `Exercises/05-InPractice/main.swift`. The loader keeps, under its lock, the download on its
 way for each photo and the photos that have arrived: a row coming into view takes either before it starts a download.
 A row that leaves cancels its photo's download only when no row in view shows that photo, and the download looks at
 `isCancelled` before each part, so it stops within one.
 */
import Foundation
import LessonKit

// The list, the network and the finger's script are in LessonKit (`PhotoList`, in
// `Sources/LessonKit/ExerciseScaffolding/InPracticeExercise.swift`): eight rows, three in view, each photo in four
// parts, the train in a tunnel as the list opens. No need to change them; these are the names your part uses.
let rowPhotos = PhotoList.rowPhotos
let partsPerPhoto = PhotoList.partsPerPhoto
let network = PhotoList.network
let screen = PhotoList.screen

// MARK: - Your part

/// Downloads one photo, part by part, and hands itself to `arrived` once every part is here.
final class DownloadOperation: ObservedOperation, @unchecked Sendable {
    let photo: Int
    private let arrived: @Sendable (DownloadOperation) -> Void

    init(photo: Int, arrived: @escaping @Sendable (DownloadOperation) -> Void) {
        self.photo = photo
        self.arrived = arrived
        super.init()
        name = "download photo \(photo)"
    }

    override func main() {
        for part in 1...partsPerPhoto {
            // cancel() only sets the flag: look before each part, so a download nobody wants stops within one.
            guard !isCancelled else { return }
            network.receive(part: part, of: photo)
        }
        arrived(self)
    }
}

/// Starts the downloads the rows need. The screen calls it on the main thread as rows come into view and leave; the
/// downloads call back on the queue's threads, so whatever both sides touch must be guarded by `lock`.
final class PhotoLoader: RowLoader, @unchecked Sendable {
    private let queue: OperationQueue
    private let lock = NSLock()
    /// Guarded by `lock`: the download on its way for each photo, and the photos that have arrived.
    private var downloads: [Int: DownloadOperation] = [:]
    private var arrivedPhotos: Set<Int> = []

    init(queue: OperationQueue) {
        self.queue = queue
    }

    func rowCameIntoView(_ row: Int) {
        let photo = rowPhotos[row]
        let download: DownloadOperation? = lock.withLock {
            if arrivedPhotos.contains(photo) {
                screen.showPhoto(photo, in: row)
                return nil
            }
            // On its way: it shows the photo in every row in view when it arrives.
            guard downloads[photo] == nil else { return nil }
            let download = DownloadOperation(photo: photo) { [self] in photoArrived(from: $0) }
            downloads[photo] = download
            return download
        }
        if let download { queue.addOperation(download) }
    }

    func rowLeftView(_ row: Int) {
        let photo = rowPhotos[row]
        lock.withLock {
            // Another row in view may still wait for the same download.
            guard let download = downloads[photo], !screen.rowsInView.contains(where: { rowPhotos[$0] == photo }) else { return }
            download.cancel()
            downloads[photo] = nil
        }
    }

    /// Called by a download that received every part: every row in view with that photo shows it.
    private func photoArrived(from download: DownloadOperation) {
        lock.withLock {
            // Cancelled after its last look at the flag: nobody waits for it, and a newer download may be on its way.
            guard !download.isCancelled else { return }
            downloads[download.photo] = nil
            arrivedPhotos.insert(download.photo)
            for row in screen.rowsInView where rowPhotos[row] == download.photo {
                screen.showPhoto(download.photo, in: row)
            }
        }
    }
}

// MARK: - The run

// The first screen, then the script: scroll three rows down, leave the tunnel, settle, scroll one back, settle.
PhotoList.run { queue in PhotoLoader(queue: queue) }
