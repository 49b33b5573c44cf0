/*:
 # Solution: three uploads at a time

 The group starts `maxUploads` children, then one more each time `group.next()` hands back a finished one, so it
 never has more than `maxUploads` uploads in flight, and always has that many while photos are left to send: the
 task group's counterpart of an `OperationQueue` whose `maxConcurrentOperationCount` is 3.
 */
import LessonKit

let photos = UploadServer.photos
let maxUploads = UploadServer.maxUploads

//: ## Yours to change

await withTaskGroup(of: Void.self) { group in
    var waiting = photos[...]
    /// Adds the next photo's upload to the group, if any photo is left.
    func addNext() {
        guard let photo = waiting.popFirst() else { return }
        group.addTracedTask("upload \(photo)") { await UploadServer.upload(photo) }
    }
    for _ in 0..<maxUploads {
        addNext()
    }
    // next() returns as soon as any child has finished: its place goes to the next photo.
    while await group.next() != nil {
        addNext()
    }
}
print("Uploaded \(photos.count) photos")
