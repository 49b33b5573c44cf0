/*:
 # Test variant: page 12's exercise with only the first step done

 The decode is off the main actor: `refreshGallery` hands its whole body to a `@concurrent` function. But that
 function shows the thumbnails too, so the drawing runs on the global pool, off the main actor, and the check must
 fail it.
 */
import LessonKit

//: ## Yours to change

/// Decodes the gallery's thumbnails: 0.4 s of work for a core at 1×.
nonisolated(nonsending) func decodeThumbnails() async -> [String] {
    Gallery.decode()
}

/// Decodes the thumbnails and shows them, both on the global pool.
@concurrent func decodeAndShow() async {
    let thumbnails = await decodeThumbnails()
    Gallery.show(thumbnails)
}

/// Refreshes the gallery: decodes the thumbnails, then shows them.
@MainActor func refreshGallery() async {
    await decodeAndShow()
}

//: ## The screen (leave it as it is)

// Runs refreshGallery in the traced task "refresh" while the main actor draws frames. `Gallery` is in LessonKit.
await Gallery.run(refresh: refreshGallery)
