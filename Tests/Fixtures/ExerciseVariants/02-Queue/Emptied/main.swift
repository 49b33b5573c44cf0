/*:
 # Test variant: the exercise of page 2 with its body deleted

 The program makes no job and no queue: nothing runs. The check must fail it.
 */
import LessonKit
