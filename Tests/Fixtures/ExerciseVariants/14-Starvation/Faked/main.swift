import LessonKit

print("Prices: \((1...6).map { String(100 + $0) }.joined(separator: ", "))")
