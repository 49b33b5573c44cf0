// Runs page 12's screen with a refresh that only pretends: it shows six made-up thumbnails on the main actor and prints
// what the reference solution prints, without decoding anything. Calling the harness is not enough: the check must
// still fail.
import LessonKit

@MainActor func refreshGallery() async {
    Gallery.show(["coffee", "chelsea", "astronaut", "rocket", "camera", "horse"])
}

await Gallery.run(refresh: refreshGallery)
