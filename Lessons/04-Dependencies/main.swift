//: # Dependencies
import LessonKit
print("This page is being written.")
