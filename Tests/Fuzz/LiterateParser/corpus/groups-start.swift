/*:
 # Groups

 A dispatch group counts work that is still going on, wherever it runs. You can block until the count is zero, block with a time limit, or ask to be called when it gets there. That is how you do one thing after a set of unrelated jobs have all finished, without tracking them yourself.

 Work you send with `queue.async(group:)` is counted for you. The real strength of groups is work you do not send yourself: an asynchronous function of someone else's that calls you back when it is done. `enter()` and `leave()` let you count that too.
 */
import Foundation
import LessonKit

//: - experiment: Change `photos`: the group counts one filter per photo, and `wait()` returns only when the last is done. Each filter keeps a core busy, so once the photos outnumber the cores they share them and the wait grows: on two cores, four photos take about twice as long as one (the page prints the cores it found).
let photoCount = knob("photos", default: 3, in: 1...4, "how many photos the first group filters concurrently")
//: - experiment: Set `unbalancedLeave` to true: the page calls `leave()` once more than `enter()`, and libdispatch stops the process instead of printing "Done".
let unbalancedLeave = knob("unbalancedLeave", default: false, "call leave() on the group once more than enter()")

/*:
 ## Counting work you send

 Each block given to `async(group:)` adds one to the group's count, and takes it away again when it returns. Here each block tilt-shifts a photo on a global queue; `wait()` blocks the main thread until every one of them is done.
 */
let photos = try Photos.names.prefix(photoCount).map { name in (name, try Photos.load(name)) }
let filters = DispatchGroup()
for (name, photo) in photos {
    DispatchQueue.global().async(group: filters) {
        trace("tilt-shift \(name)") {
            _ = tiltShift(photo)
        }
    }
}
let filterTime = duration {
    filters.wait()
}
mark("all photos filtered")
print("The group waited \(formatSeconds(filterTime)) for \(photos.count) filter\(photos.count == 1 ? "" : "s") on \(ProcessInfo.processInfo.activeProcessorCount) cores")

/*:
 ## Counting work someone else does

 The live view (`Animation.swift` beside this page) shows a 40-point box on a red 200-point square. Its `animate` function works like UIKit's animations: it returns at once, computes the animation frame by frame, 30 frames a second, on the queue it is given, and calls a completion handler at the end. It has never heard of dispatch groups.

 Animations on two queues change one scene at the same time, so `Scene` keeps its state in a `Mutex` and every change and every look at it goes through `withLock`, one thread at a time. That is what lets `Scene` be `Sendable` with no `@unchecked`: the compiler checks it.

 So wrap it. This version takes a group as well: it calls `enter()` before the animation starts, and `leave()` in the completion handler, after the caller's own completion has run. Every `enter()` must be matched by exactly one `