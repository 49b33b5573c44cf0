/*:
 # Test variant: a solution that only prints

 Prints what the reference solution of `Exercises/08-Barrier/main.swift` prints, in its order, without a person, a
 queue, a read or a write: the check reads spans and threads, never printed text, so it must fail.
 */
import Foundation
import LessonKit

for (number, name) in [(1, "Charlie Cheesecake"), (2, "Delia Dingle"), (3, "Eva Evershed"), (4, "Eva Evershed"), (5, "Eva Evershed")] {
    print("Reader \(number) read: \(name)")
}
print("Final name: Eva Evershed")
