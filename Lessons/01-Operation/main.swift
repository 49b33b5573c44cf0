import LessonKit
print("hi")
