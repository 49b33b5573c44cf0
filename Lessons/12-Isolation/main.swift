/*:
 # Isolation

 Swift 6 checks at compile time that no two pieces of code can touch the same mutable state at once, except where a programmer vouches for it (`@unchecked Sendable`, `nonisolated(unsafe)`). It does it with *isolation*: every function, closure and global variable belongs to one place where its code runs, the main actor, one actor instance, or none at all (*nonisolated*), and a value may cross from one isolation to another only when it is `Sendable` or when the compiler can prove that nothing left behind still uses it. This page shows the errors that check gives most often, each beside its fix; then where `@MainActor` code runs and the three ways onto the main actor; and last, which thread a nonisolated `async` function runs on, a rule Swift 6.2 gave two spellings.
 */
import Dispatch
import Foundation
import LessonKit
import Synchronization

/// Where the page's decode runs: the question of the last section.
enum DecodeIsolation: String, CaseIterable {
    /// `nonisolated(nonsending)`: on the executor of whoever calls it, here the main actor.
    case nonsending
    /// `@concurrent`: on the global pool, whoever calls it.
    case concurrent
}

//: - experiment: Set `decode` to `concurrent`: the decode span moves from the main queue (`com.apple.main-thread`) to the global pool (`Swift global concurrent queue`), and the main actor's `frame` marks, which stop for the whole decode at `nonsending`, go on beside it.
let decode = knob("decode", default: DecodeIsolation.nonsending, "nonsending: the decode runs on its caller's actor, the main actor; concurrent: on the global pool")
//: - experiment: Set `assumeIsolatedOffMain` to true: the save's callback comes on a global queue, `MainActor.assumeIsolated` finds it is not on the main actor, and the page crashes.
let assumeIsolatedOffMain = knob("assumeIsolatedOffMain", default: false, "the save calls back on a global queue, where MainActor.assumeIsolated crashes")

/*:
 - speaker: Say: Swift 6 turns page 8's data races into compile errors, and this page is the map of those errors. Ask who has met "sending risks causing data races". The first half is about what the compiler says, the second about where the code then runs, read from the lanes.

 ## The errors Swift 6 shows most

 Each mistake below sits in the code as a comment, beside the code that works, with the compiler's message for it: the words of Swift 6.3.1, which a test of the tour compiles and compares, so they stay true. Take the `//` away from the front of one and the edit loop shows the error under the line it names; put it back and the page runs again.

 **Sending a value that is not `Sendable`.** `Thumbnail` is a class with a `var`, so it is not `Sendable`: two isolations holding it could both change it. `addCover` makes one and hands it to the `Album` actor. That is allowed, because of *region-based isolation*: a value made here and reachable from nothing else is in a region of its own, and the compiler lets it cross to the actor as long as this side never touches it again. Use it after the `await` and the compiler refuses the send, on the send's line, with a note on the use: "access can happen concurrently".

 `Task { … }` takes its closure the same way, as a `sending` argument: the closure and everything it captures go to the new task. Read `draft` after starting the task and the task's line is refused, since the closure, the value that is sent, holds `draft`.

 A parameter is another matter: it belongs to the caller, who may still hold it, so a function may not send its parameter on to another isolation unless the parameter is marked `sending`. Then the caller gives the value up, and the compiler checks at each call that the caller never touches it again. `publish` takes its thumbnail so; `publishKept`, the commented line under it, does not, and its send is refused.
 */
/// A photo's thumbnail: a class with mutable state, so not `Sendable`.
final class Thumbnail {
    var caption: String

    init(caption: String) {
        self.caption = caption
    }
}

actor Album {
    private var thumbnails: [Thumbnail] = []

    func add(_ thumbnail: Thumbnail) {
        trace("album adds \(thumbnail.caption)") { thumbnails.append(thumbnail) }
    }

    var captions: [String] { thumbnails.map(\.caption) }
}

/// Passes a thumbnail on to the album. Its caller gives the thumbnail up (`sending`), so this function may send it on.
func publish(_ thumbnail: sending Thumbnail, to album: Album) async {
    await album.add(thumbnail)
}
// func publishKept(_ thumbnail: Thumbnail, to album: Album) async { await album.add(thumbnail) }  // error: sending 'thumbnail' risks causing data races

func addCover(to album: Album) async {
    let cover = Thumbnail(caption: "coffee")
    await album.add(cover)
    // cover.caption = "espresso"  // error: sending 'cover' risks causing data races
    let draft = Thumbnail(caption: "draft")
    let renaming = Task {
        trace("task renames the draft") { draft.caption = "chelsea" }
        return draft.caption
    }
    // print(draft.caption)  // error: sending value of non-Sendable type '() async -> String' risks causing data races
    await album.add(Thumbnail(caption: await renaming.value))
    await publish(Thumbnail(caption: "astronaut"), to: album)
}

let album = Album()
await addCover(to: album)
let captions = await album.captions
print("The album holds \(captions.count) thumbnails, \(captions.joined(separator: ", ")), each sent to the actor and never touched here again")

/*:
 - experiment: Take the `//` from `cover.caption = "espresso"` in `addCover`. The edit loop refuses the page and shows "error: sending 'cover' risks causing data races" under `await album.add(cover)`, and "note: access can happen concurrently" under the line you changed. Put the `//` back and the page runs again.

 - speaker: Point at the three `album adds` spans: three thumbnails crossed into the actor, and the compiler let each through because nothing on this side kept it. Take the `//` from `cover.caption = "espresso"` with the audience: the error lands on the `await album.add(cover)` line, with the note on the line they changed. Usual question: "it is one line, after the await, where is the race?" The album keeps the thumbnail and may read it on another thread at that very moment; the compiler reasons about what could happen, never about timing.

 The fix, when this side must go on using the value: send a copy (a `struct` is copied, and within its module the compiler infers `Sendable` for one whose fields all are), or make the type `Sendable`, or keep it inside the actor and ask the actor for what you need. A result can be marked `sending` too (`func makeThumbnail() -> sending Thumbnail`): the function promises that nothing it keeps still holds the value, so the caller may send it wherever it likes.

 **A `Sendable` class with a `var`.** A class that says it is `Sendable` promises that any isolation may hold it at once, so the compiler checks that nothing in it can change: every stored property a `let` of a `Sendable` type, and the class `final`. A `var` breaks the promise. The fixes are page 11's: a `Mutex` around the state (the class stays `Sendable` with no `@unchecked`), or an actor.
 */
final class AlbumSettings: Sendable {
    let columns: Int
    // var theme = "dark"  // error: stored property 'theme' of 'Sendable'-conforming class 'AlbumSettings' is mutable

    init(columns: Int) {
        self.columns = columns
    }
}

let settings = AlbumSettings(columns: 3)

/*:
 **Calling the main actor from a nonisolated function.** `showCaptions` is `@MainActor`: it may run only on the main actor. `albumSaved` is the callback of a save that calls back on a Dispatch queue it is given: a plain synchronous function, nonisolated, so the compiler cannot let it call into the main actor, since that would mean running main-actor code on whatever thread the callback came on.

 Here the save calls back on the main queue, so the callback *is* on the main actor, but the compiler cannot know that. `MainActor.assumeIsolated { … }` says so, and the runtime checks it when it runs: called anywhere but on the main actor, the check fails inside libdispatch's `dispatch_assert_queue` and the program stops with SIGILL (the tour says libdispatch stopped it; run alone, the page's crash backtrace names `dispatch_assert_queue`). (A closure written straight into `DispatchQueue.main.async { … }` needs none of this: the compiler knows that one runs on the main actor. It does not follow a queue handed over in a parameter, as here.) From `async` code the way onto the main actor is an `await`: `await showCaptions(…)`, or `await MainActor.run { … }` for a few lines at once, as the last section does.
 */
@MainActor func showCaptions(_ captions: [String]) {
    trace("show \(captions.count) captions, \(settings.columns) columns") {
        Simulated.wait(0.05)
    }
}

/// Saves the album and calls `completion` on `queue`, as a library with a completion queue does.
func save(_ album: Album, calling queue: DispatchQueue, completion: @escaping @Sendable ([String]) -> Void) {
    Task {
        let captions = await trace("save album") { await album.captions }
        queue.async { completion(captions) }
    }
}

func albumSaved(_ captions: [String]) {
    // showCaptions(captions)  // error: call to main actor-isolated global function 'showCaptions' in a synchronous nonisolated context
    MainActor.assumeIsolated {
        showCaptions(captions)
    }
}

let saved = Gate()
if assumeIsolatedOffMain {
    expectEnding(.crash, because: "MainActor.assumeIsolated runs on a global queue, not on the main actor, and the runtime's check stops the program")
}
save(album, calling: assumeIsolatedOffMain ? .global() : .main) { captions in
    albumSaved(captions)
    saved.open()
}
await saved.wait()

/*:
 - speaker: Point at `show 3 captions` in the lanes: it ran on the main queue, on a `T` lane, not the `main` lane (page 11: after the first `await`, a pool thread serves the main queue). Usual question: "why not just mark everything `@MainActor`?" It is the right default for UI code, and it is what the errors push you to; the price is that all of it then runs one piece at a time, which the last section measures. With `assumeIsolatedOffMain` the page stops with SIGILL and no message: the check failed inside libdispatch's `dispatch_assert_queue`, and the tour says libdispatch stopped it.

 ## What code inherits

 Isolation is inferred far more than it is written. A type marked `@MainActor` makes all its methods and properties main-actor; a method can leave with `nonisolated`. A closure that is not `@Sendable` takes the isolation of the code it is written in; a `@Sendable` one, which may run anywhere, is nonisolated unless it says otherwise (`{ @MainActor in … }`). `Task { … }` is made to inherit: written in main-actor code, its closure runs on the main actor (page 9 showed it), while `Task.detached { … }`'s does not. Top-level code in `main.swift` is main-actor, and so are its global variables; the functions it declares are not.

 `GalleryScreen` below is `@MainActor`; `refresh()` is inferred main-actor, `caption(for:)` is marked `nonisolated` and is not, and the spans say where each ran.
 */
@MainActor final class GalleryScreen {
    func refresh() {
        trace("GalleryScreen.refresh (inferred @MainActor)") { Simulated.wait(0.01) }
    }

    nonisolated func caption(for name: String) async -> String {
        trace("GalleryScreen.caption (nonisolated)") { "\(name).jpg" }
    }
}

let screen = GalleryScreen()
screen.refresh()
let caption = await screen.caption(for: "coffee")
print("refresh ran on the main actor, caption(for:) elsewhere: the lanes show which queue ran each, and it gave \(caption)")

/*:
 - speaker: The two spans carry their queues: `refresh` on `com.apple.main-thread`, `caption` on `Swift global concurrent queue`. The second is the surprise, and the next section explains it: a nonisolated `async` method leaves its caller's actor in this package's Swift 6 mode.

 ## Where a nonisolated `async` function runs

 A nonisolated *synchronous* function runs on its caller's thread, like any function. A nonisolated `async` function has a choice, and Swift 6.2 gave it two spellings:

 - `nonisolated(nonsending)`: it runs on the executor of whoever calls it. Called from the main actor, it runs on the main actor, and can take the caller's non-`Sendable` values without sending them.
 - `@concurrent`: it leaves for the global pool, whoever calls it (unless its task asked for an executor of its own with `withTaskExecutorPreference`), so its arguments and result are sent.

 A function with neither, a plain `func load() async`, gets one of the two by a setting of the compiler: `@concurrent` in Swift 6 language mode, which this package uses (SwiftPM builds the pages with `-swift-version 6` and no upcoming feature); `nonisolated(nonsending)` with the upcoming feature `NonisolatedNonsendingByDefault` on (in a package, `.enableUpcomingFeature("NonisolatedNonsendingByDefault")`). So the same line of code runs on another thread depending on a build setting. Spell it out where it matters.

 The main actor calls one of each below, and each span records its queue.
 */
func plainAsync() async -> String {
    trace("plain async") { ThreadIdentity.currentQueueLabel }
}

nonisolated(nonsending) func nonsendingAsync() async -> String {
    trace("nonisolated(nonsending)") { ThreadIdentity.currentQueueLabel }
}

@concurrent func concurrentAsync() async -> String {
    trace("@concurrent") { ThreadIdentity.currentQueueLabel }
}

print("From the main actor, a plain async function ran on \(await plainAsync())")
print("nonisolated(nonsending) ran on \(await nonsendingAsync())")
print("@concurrent ran on \(await concurrentAsync())")

/*:
 - speaker: Ask before running: "where does the plain one run?" Most say "where it was called": that is what the upcoming feature `NonisolatedNonsendingByDefault` makes the rule, not what this build does. The three spans answer it: `plain async` and `@concurrent` on the global pool's queue, `nonisolated(nonsending)` on the main queue. The usual follow-up: "so which should I write?" `nonisolated(nonsending)` for code that only awaits other things, `@concurrent` for real work that must leave the caller's actor.

 Why it matters: work that runs on the main actor holds it. The page decodes for 0.4 s (at 1×) while a task on the main actor marks a `frame` every 25 ms, as a screen redraws. With `decode` set to `nonsending` the decode runs on the main actor, and not one frame is drawn while it runs; set to `concurrent`, it runs on the pool, and the frames go on. Either way the result is shown with `MainActor.run`, back on the main actor.
 */
nonisolated(nonsending) func decodeOnCallersActor() async {
    trace("decode (nonisolated(nonsending))") { _ = Simulated.compute(0.4) }
}

@concurrent func decodeOnPool() async {
    trace("decode (@concurrent)") { _ = Simulated.compute(0.4) }
}

/// How many frames the screen draws before the decode starts, and about how many after it: a steady beat around it.
let framesAround = 4
let redrawing = Atomic<Bool>(true)
let framesBeforeDecode = Gate()
let redraw = Task { @MainActor in
    var frames = 0
    while redrawing.load(ordering: .relaxed) {
        mark("frame")
        frames += 1
        if frames == framesAround { framesBeforeDecode.open() }
        try? await Task.sleep(for: .seconds(0.025 / Simulated.speed))
    }
    return frames
}

await framesBeforeDecode.wait()
switch decode {
case .nonsending: await decodeOnCallersActor()
case .concurrent: await decodeOnPool()
}
await MainActor.run {
    trace("show decoded thumbnails") { screen.refresh() }
}
try await Task.sleep(for: .seconds(0.025 * Double(framesAround) / Simulated.speed))
redrawing.store(false, ordering: .relaxed)
print("With decode \(decode.rawValue) the main actor drew \(await redraw.value) frames in all; the timeline shows which came during the decode")

/*:
 - speaker: Point at the `frame` marks on the main queue's lane and the decode span. At `nonsending` the frames stop for as long as the decode runs: the decode held the main actor. Switch `decode` to `concurrent` and run again: the decode moves to another lane, and the frames go on beside it. How many frames fall inside varies with the machine's load; that none do at `nonsending` does not.

 - deep dive: Where the two queues come from. On Linux the main actor's executor enqueues its jobs on the main dispatch queue, `com.apple.main-thread`; the global executor's jobs go on a concurrent dispatch queue the Swift runtime creates, `Swift global concurrent queue` (`DispatchGlobalExecutor.cpp` in the runtime's Concurrency library). A hop is an `await`: the task is suspended on one executor and enqueued on the other, which is why a `nonisolated(nonsending)` function, which never leaves its caller's executor, takes no hop at all.
 */

//: Next, values that arrive over time, and stopping the work that waits for them: [Streams and cancellation](@next)
print("Done: five compile errors and their fixes, main-actor code on the main queue, and where a nonisolated async function runs.")
