/*:
 # Exercise: Finish the asynchronous operation (test variant: the body deleted)

 The exercise of page 3 with everything after its imports deleted: it ends at once and does nothing, and the check
 must fail it.
 */
import Foundation
import LessonKit
