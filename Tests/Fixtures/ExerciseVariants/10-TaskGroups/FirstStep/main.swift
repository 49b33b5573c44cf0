/*:
 # Test variant: page 10's exercise with only the first step done

 The group adds the first `maxUploads` children and nothing more: no `group.next()` hands their places on, so the
 other photos are never sent, and the check must fail it.
 */
import LessonKit

let photos = UploadServer.photos
let maxUploads = UploadServer.maxUploads

//: ## Yours to change

await withTaskGroup(of: Void.self) { group in
    for photo in photos.prefix(maxUploads) {
        group.addTracedTask("upload \(photo)") { await UploadServer.upload(photo) }
    }
}
print("Uploaded \(photos.count) photos")
