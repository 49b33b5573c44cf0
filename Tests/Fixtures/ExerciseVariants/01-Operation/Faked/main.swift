/*:
 # Test variant: page 1's solution faked

 Prints, on the main thread, the lines the reference solution prints, and runs no operation at all. A check that
 read the output would pass it; the check reads states, spans and threads, and must fail it.
 */
import LessonKit

print("\"uncancelled filter\" finished after 8 of 8 bands; isCancelled = false")
print("Saw the cancellation before band 2 of 8: the rest never runs")
print("\"banded filter\" finished after 1 of 8 bands; isCancelled = true")
