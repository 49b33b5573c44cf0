/*:
 # Exercise: Each photo once, and only for rows in view

 A test variant of `Exercises/05-InPractice/main.swift` that prints what the reference solution prints, and even marks
 the rows as the screen would, without a download operation or a part received: the check reads operations and spans,
 not text, so it must fail it.
 */
import Foundation
import LessonKit

let rowPhotos = [1, 2, 3, 4, 4, 3, 5, 6]
print("8 rows, 3 in view; each photo arrives in 4 parts of \(Simulated.describe(0.1)).")
print("The train is in a tunnel: downloads stall after their first part.")
for row in 0..<3 { mark("row \(row) in view, photo \(rowPhotos[row])") }
for row in 3..<6 {
    mark("row \(row) in view, photo \(rowPhotos[row])")
    mark("row \(row - 3) out of view")
}
print("The train leaves the tunnel: the downloads that stalled go on.")
for row in 3..<6 { mark("row \(row) shows photo \(rowPhotos[row])") }
print("Rows 3 to 5 show photos 4, 4, 3.")
mark("row 2 in view, photo 3")
mark("row 5 out of view")
mark("row 2 shows photo 3")
print("Rows 2 to 4 show photos 3, 4, 4.")
print("Done: the list came to rest at rows 2 to 4.")
