/*:
 # Exercise: Each photo once, and only for rows in view

 A test variant of `Exercises/05-InPractice/main.swift` with its body deleted: no row comes into view and nothing
 downloads, and the check must fail it.
 */
import Foundation
import LessonKit
