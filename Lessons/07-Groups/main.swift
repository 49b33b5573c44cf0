/*:
 # Groups

 A dispatch group counts work that is still going on, wherever it runs. You can block until the count is zero, block with a time limit, or ask to be called when it gets there. That is how you do one thing after a set of unrelated jobs have all finished, without tracking them yourself.

 Work you send with `queue.async(group:)` is counted for you. The real strength of groups is work you do not send yourself: an asynchronous function of someone else's that calls you back when it is done. `enter()` and `leave()` let you count that too.

 - speaker: Say: a group counts work still going on, wherever it runs, and tells you when the count reaches zero. Point at the photos' filter spans on the worker lanes and main's wait ending with the last of them.
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
print("The group waited \(formatSeconds(filterTime)) for \(photos.count) filter\(photos.count == 1 ? "" : "s") on \(usableCores()) cores")

/*:
 ## Counting work someone else does

 The live view (`Animation.swift` beside this page) shows a 40-point box on a red 200-point square. Its `animate` function works like UIKit's animations: it returns at once, computes the animation frame by frame, 30 frames a second, on the queue it is given, and calls a completion handler at the end. It has never heard of dispatch groups.

 Animations on two queues change one scene at the same time, so `Scene` keeps its state in a `Mutex` and every change and every look at it goes through `withLock`, one thread at a time. That is what lets `Scene` be `Sendable` with no `@unchecked`: the compiler checks it.

 So wrap it. This version takes a group as well: it calls `enter()` before the animation starts, and `leave()` in the completion handler, after the caller's own completion has run. Every `enter()` must be matched by exactly one `leave()`.

 - speaker: Point at the live view: three animations on two queues, counted by one group through `enter()` and `leave()`, though `animate` has never heard of groups. Usual question: "what if the callback never comes?" Then the count never reaches zero; that is what `wait(timeout:)` is for.
 */
let scene = Scene()

func animate(_ name: String, seconds: Double, on queue: DispatchQueue, group: DispatchGroup,
             changes: @escaping @Sendable (inout SceneState) -> Void,
             completion: (@Sendable () -> Void)? = nil) {
    mark("enter: \(name)")
    group.enter()
    animate(name, seconds: seconds, on: queue, in: scene, changes: changes) { frames in
        print("\(name): done after \(frames) frames")
        completion?()
        mark("leave: \(name)")
        group.leave()
    }
}

/*:
 Three animations on two queues of their own: on the box's queue the box moves for one second and, when that is done, turns by 45° for two; meanwhile, on the background's queue, the background turns from red to blue over four. The turn is started from the move's completion handler, so its `enter()` comes **before** the move's `leave()`: the count never touches zero in between, and the group cannot report "all done" between the two.
 */
let animations = DispatchGroup()
let boxQueue = DispatchQueue(label: "tour.groups.box")
let backgroundQueue = DispatchQueue(label: "tour.groups.background")

animate("move box", seconds: 1, on: boxQueue, group: animations, changes: { $0.boxCenter = Point(x: 150, y: 150) }) {
    animate("turn box", seconds: 2, on: boxQueue, group: animations, changes: { $0.boxAngle = 45 })
}
animate("change background", seconds: 4, on: backgroundQueue, group: animations, changes: { $0.background = .blue })

/*:
 ## Being told when all are done

 `notify(queue:)` hands a block to a queue once the count reaches zero; it does not block anyone. Register it after the work has entered the group: on a group whose count is already zero, the block is sent at once.

 This one goes to the main queue, where UI work belongs. As the GCD page showed, the main queue runs only while the main thread serves it, so the page calls `dispatchMain()` at the end. That makes the main queue an ordinary serial queue, on Apple platforms as on Linux: a pool thread runs the block, still on the main queue, and the timeline shows it off the `main` lane.
 */
animations.notify(queue: .main) {
    mark("notify")
    print("Animations completed")
    let final = scene.snapshot
    print("The box is at \(final.boxCenter), turned \(Int(final.boxAngle))°, on a \(final.background) background")
    print("Done: three animations counted by one group, and one notify when the last of them left.")
    exit(0)
}

/*:
 ## Waiting, with a time limit

 `wait(timeout:)` blocks until the count is zero or the time is up, and says which: `.success` or `.timedOut`. The animations need four seconds, so a one-second wait times out; a thirty-second wait returns as soon as the last animation leaves. (These are the times at 1×: the speed factor scales the timeouts as it scales the animations.)

 - note: Blocking the main thread is what the wait does. In an app that would freeze the interface for as long as the wait lasts; `notify` is the way that does not.

 - speaker: Point at the two results: the one-second wait says `timedOut`, the thirty-second one `success`. Say: a timed-out wait cancels nothing; the animations go on. Usual question: "should I wait on the main thread?" In an app, no: that freezes the interface; use `notify`.
 */
let firstLook = animations.wait(timeout: .now() + 1 / Simulated.speed)
peek(firstLook)
let secondLook = animations.wait(timeout: .now() + 30 / Simulated.speed)
peek(secondLook)

/*:
 ## One `leave()` too many

 A group's count cannot go below zero. A `leave()` without its `enter()` (a completion handler that is called twice is the usual culprit) is a bug libdispatch refuses to carry on with: it stops the process with an illegal instruction, `SIGILL`. On Linux nothing is printed (the message is not in the Linux build of libdispatch at all); on Apple platforms the crash report says `Unbalanced call to dispatch_group_leave()`.

 Here the page first waits, with no time limit, until all three animations have left, so the count is zero and the extra `leave()` crashes at once. Had it come earlier, it would first have done something worse than crashing: brought the count to zero while an animation was still running, so `notify` would have announced "completed" too soon.

 Next, readers and writers sharing one object safely: [Barrier](@next)

 - speaker: Demo: set `unbalancedLeave` to true. The page stops with SIGILL and prints nothing: the Linux build of libdispatch has no message for it (Apple's crash report says "Unbalanced call to dispatch_group_leave()"). Usual question: "why crash rather than ignore it?" A count below zero means the counting is wrong, and `notify` may already have fired too soon.
 */
if unbalancedLeave {
    expectEnding(.crash, because: "leave() is called on a group whose count is already zero, once more than enter()")
    animations.wait()
    animations.leave()
}
dispatchMain()
