// The exercise of page 12 with the body of refreshGallery deleted: the screen draws its frames, but nothing is decoded
// or shown, and the program ends at once, normally.
import LessonKit

@MainActor func refreshGallery() async {}

await Gallery.run(refresh: refreshGallery)
