/*:
 # Test variant: page 2's solution faked

 Prints the line the reference solution prints, and runs no queue and no operation. A check that read the output
 would pass it; the check reads operation states and marks, and must fail it.
 */
import LessonKit

print("The jobs started in this order: preview, filter, backup")
