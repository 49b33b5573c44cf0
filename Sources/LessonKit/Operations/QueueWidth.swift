import Foundation
import PageProtocol

/// Tells the host how many operations `queue` may run at once (its `maxConcurrentOperationCount`), so the
/// timeline's concurrency meter can draw it as a ceiling. Call it after setting the queue's name and width.
///
/// Narrates the width when the page runs alone.
public func announceWidth(of queue: OperationQueue) {
    let session = LessonSession.shared
    let name = queue.name ?? ""
    let width = queue.maxConcurrentOperationCount
    session.emit(.queue(name: name, width: width))
    session.narrate("\(name) runs " + (width < 1 ? "as many at once as the system allows" : "at most \(width) at once"))
}
