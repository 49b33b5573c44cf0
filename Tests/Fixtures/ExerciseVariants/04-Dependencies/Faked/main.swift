/*:
 # Exercise: Upload after the import

 A test variant of `Exercises/04-Dependencies/main.swift` that prints what the reference solution prints, without an
 operation or a dependency: it even draws the spans of the copies and transfers, one after another on the main thread.
 The check reads operations, dependencies and the spans they ran, not text, so it must fail it.
 */
import Foundation
import LessonKit

print("The card was pulled out: import photo 3 is cancelled.")
for photo in [1, 2, 4] {
    trace("copy photo \(photo) from the card") {}
    trace("send photo \(photo)") {}
    print("upload photo \(photo): sent \(2_400_000 + photo * 1_000) bytes")
}
print("upload photo 3: skipped, import photo 3 was cancelled")
print("Done: 3 photos are on the disk.")
