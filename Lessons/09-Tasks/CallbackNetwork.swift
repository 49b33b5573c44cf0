import Dispatch
import LessonKit

/// The pretend network of page 3, in the style written before `async`: it returns at once and calls `completion` later,
/// on a Dispatch thread, with the photo, or `nil` for a name it does not know.
///
/// `answersTwice` makes it a buggy service that answers with the photo and then once more, as a callback API that
/// reports both a cached and a fresh copy might.
func downloadPhoto(_ name: String, seconds: Double = 0.3, answersTwice: Bool = false,
                   completion: @escaping @Sendable (RGBImage?) -> Void) {
    DispatchQueue.global().async {
        Simulated.networkLoad(name, seconds: seconds)
        let photo = try? Photos.load(name)
        completion(photo)
        if answersTwice {
            mark("\(name): answering a second time")
            completion(photo)
        }
    }
}
