/*:
 # Exercise: Each photo once, and only for rows in view

 A list of eight rows, three in view, each row showing a photo: rows 3 and 4 show the same photo, and so do rows 2
 and 5. A finger scrolls it by a script, and each photo arrives over the network in four parts, as an operation on a
 queue. The phone is on a train: while it is in a tunnel, each download receives its first part and then stalls until
 the train is out.

 Run it as it is: every row that comes into view downloads its own photo, so rows of the same photo download it again,
 and a row that scrolls away keeps its download going to the end for nobody. Then change `DownloadOperation` and
 `PhotoLoader` (the rest of the file can stay as it is):

 1. **Never download a photo twice.** A row whose photo is already here, or on its way, takes that instead of starting
    another download.
 2. **Cancel what scrolled away.** When a row leaves the view and no row in view shows its photo, cancel that download.
    `cancel()` only sets a flag: a download that has begun stops only if it looks at `isCancelled`, so look before
    each part.

 The check runs this file and reads its operations, spans and marks, not what it printed: no photo may be downloaded to
 the end twice, a download may begin at most one more part once no row in view shows its photo, and every row in view
 at the end must show its photo. Check it with `tour check 5`; `tour hint 5` gives a hint.
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

    init(queue: OperationQueue) {
        self.queue = queue
    }

    func rowCameIntoView(_ row: Int) {
        let photo = rowPhotos[row]
        let download = DownloadOperation(photo: photo) { download in
            screen.showPhoto(download.photo, in: row)
        }
        queue.addOperation(download)
    }

    func rowLeftView(_ row: Int) {
    }
}

// MARK: - The run

// The first screen, then the script: scroll three rows down, leave the tunnel, settle, scroll one back, settle.
PhotoList.run { queue in PhotoLoader(queue: queue) }
