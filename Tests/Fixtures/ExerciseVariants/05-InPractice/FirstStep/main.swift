/*:
 # Test variant: page 5's exercise with only the first step done

 The loader never downloads a photo twice: a row whose photo is here or on its way takes that. But nothing is ever
 cancelled, so a download whose rows all scrolled away goes on to its last part for nobody, and the check must fail
 it.
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
            guard downloads[photo] == nil else { return nil }
            let download = DownloadOperation(photo: photo) { [self] in photoArrived(from: $0) }
            downloads[photo] = download
            return download
        }
        if let download { queue.addOperation(download) }
    }

    /// Called by a download that received every part: every row in view with that photo shows it.
    private func photoArrived(from download: DownloadOperation) {
        lock.withLock {
            downloads[download.photo] = nil
            arrivedPhotos.insert(download.photo)
            for row in screen.rowsInView where rowPhotos[row] == download.photo {
                screen.showPhoto(download.photo, in: row)
            }
        }
    }

    func rowLeftView(_ row: Int) {
    }
}

// MARK: - The run

// The first screen, then the script: scroll three rows down, leave the tunnel, settle, scroll one back, settle.
PhotoList.run { queue in PhotoLoader(queue: queue) }
