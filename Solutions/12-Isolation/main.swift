/*:
 # Solution: the decode that froze the screen

 `decodeThumbnails` is `@concurrent`: whoever calls it, it runs on the global pool, so the main actor is free to draw
 frames while it decodes. `refreshGallery` stays on the main actor: it suspends at the `await`, and when the decode
 returns it resumes on the main actor, where `Gallery.show` draws. The thumbnails' names cross back as a `[String]`,
 which is `Sendable`.
 */
import LessonKit

//: ## Yours to change

/// Decodes the gallery's thumbnails: 0.4 s of work for a core at 1×. `@concurrent`: on the global pool, whoever calls it,
/// where a plain `async` function's place would depend on a compiler setting (`NonisolatedNonsendingByDefault`).
@concurrent func decodeThumbnails() async -> [String] {
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
