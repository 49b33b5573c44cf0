/*:
 # Exercise: Upload after the import

 A test variant of `Exercises/04-Dependencies/main.swift` with its body deleted: it imports and uploads nothing, and
 the check must fail it.
 */
import Foundation
import LessonKit
