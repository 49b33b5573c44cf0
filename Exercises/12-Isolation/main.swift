/*:
 # Exercise: the decode that froze the screen

 `refreshGallery` runs on the main actor: it decodes the gallery's thumbnails, then shows them. While it runs, the
 screen (a task on the main actor) draws a frame every 25 ms. But `decodeThumbnails` is `nonisolated(nonsending)`:
 it runs on the executor of whoever calls it, and its caller is the main actor. So the 0.4 s decode holds the main
 actor, and not one frame is drawn until it is over.

 Your task: move the decode off the main actor, onto the global pool, so the frames go on while it runs, and keep
 the drawing on the main actor: `Gallery.show` is a drawing call, meant for the main actor only, and it checks
 nothing: called elsewhere, it draws from the wrong thread. The decode must still run inside the refresh, as part of
 its task.

 ## What the check looks at

 `tour check 12` (or `c` in the tutorial) runs this program and reads its trace, never what it prints:

 - the span "decode thumbnails" ran in the refresh's task, on the global pool (`Swift global concurrent queue`), not
   on the main actor's queue (`com.apple.main-thread`);
 - the span "show thumbnails" ran after it, on the main actor's queue;
 - how many frames the main actor drew while the decode ran (it says so, and it varies with the machine's load).

 Keep the calls to `Gallery`: they make the spans and marks the check reads. `tour hint 12` gives a hint;
 `tour solution 12` opens the reference solution once the check has passed, or after two hints.
 */
import LessonKit

//: ## Yours to change

/// Decodes the gallery's thumbnails: 0.4 s of work for a core at 1×.
nonisolated(nonsending) func decodeThumbnails() async -> [String] {
    Gallery.decode()
}

/// Refreshes the gallery: decodes the thumbnails, then shows them.
@MainActor func refreshGallery() async {
    let thumbnails = await decodeThumbnails()
    Gallery.show(thumbnails)
}

//: ## The screen (leave it as it is)

// Runs refreshGallery in the traced task "refresh" while the main actor draws frames. `Gallery` is in LessonKit.
await Gallery.run(refresh: refreshGallery)
