/*:
 # Exercise: three uploads at a time

 Eight photos go to a server that takes at most three uploads at once. `UploadServer.upload(_:)`, in LessonKit,
 sends one photo: it suspends, as an `async` network call does, for 0.6 s at 1×, and holds no thread meanwhile.

 As written, the task group below adds a child for every photo at once, so all eight uploads are in flight together.
 A task group has no `maxConcurrentOperationCount`: every `addTask` starts its child straight away.

 Your task: keep the group to `maxUploads` children at a time, the way the page does. Add the first `maxUploads`
 children, then add the next photo's child each time `group.next()` says one has finished, until every photo is sent.
 Keep the uploads in the group's children: waiting for each upload before starting the next is one at a time.

 ## What the check looks at

 `tour check 10` (or `c` in the tutorial) runs this program and reads its trace, never what it prints:

 - every photo's `upload N` span ran to its end;
 - no more than `maxUploads` of those spans were open at any one moment;
 - each upload ran in a child task of its own, added with `group.addTracedTask`.

 - note: So that uploads that may overlap always do, on any machine, `UploadServer.upload(_:)` (in LessonKit)
   holds still at its end until the next upload has begun (the last one excepted). Two uploads therefore always
   overlap, and an upload that must end before the next can begin never ends: the check stops such a run and says
   which upload it stopped in.

 Keep the names given to `trace` and `addTracedTask`: the check reads them. `tour hint 10` gives a hint;
 `tour solution 10` opens the reference solution once the check has passed, or after two hints.
 */
import LessonKit

let photos = UploadServer.photos
let maxUploads = UploadServer.maxUploads

//: ## Yours to change

await withTaskGroup(of: Void.self) { group in
    for photo in photos {
        group.addTracedTask("upload \(photo)") { await UploadServer.upload(photo) }
    }
}
print("Uploaded \(photos.count) photos")
