import Synchronization

// Page 10's exercise (`Exercises/10-TaskGroups`): the upload server the learner's task group sends photos to. The
// exercise, its solution and its test variants differ only in how the group adds its children.

/// The server of page 10's exercise: eight photos to send, at most three uploads at once.
public enum UploadServer {
    /// The photos to upload, by number.
    public static let photos = Array(1...8)
    /// How many uploads the server takes at once.
    public static let maxUploads = 3

    private static let holds = UploadHolds(total: photos.count)

    /// Sends one photo as the span "upload N": 0.6 s of suspended waiting at 1×, then the hold that makes each upload
    /// overlap the next: it ends only once the next upload has begun (the last excepted).
    public static func upload(_ photo: Int) async {
        await trace("upload \(photo)") {
            let place = holds.begin()
            try? await Task.sleep(for: .seconds(0.6 / Simulated.speed))
            await holds.waitForTheNext(after: place)
        }
    }
}

/// The hold behind `UploadServer.upload`: the k-th upload to begin ends only once the (k+1)-th has begun. It counts
/// uploads in the order they began, whichever photos they are, so any group at least two wide goes on, and one that
/// starts each upload only after the last one ended never ends.
final class UploadHolds: Sendable {
    private struct State {
        var begun = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let total: Int
    private let state = Mutex(State())

    init(total: Int) {
        self.total = total
    }

    /// Counts an upload as begun, lets the one before it end, and returns its place in the order they began.
    func begin() -> Int {
        let (place, previous) = state.withLock { state in
            state.begun += 1
            return (state.begun, state.waiting.removeValue(forKey: state.begun - 1))
        }
        previous?.resume()
        return place
    }

    /// The places of the uploads held right now, waiting for the next to begin.
    var heldPlaces: Set<Int> { state.withLock { Set($0.waiting.keys) } }

    /// Suspends the upload at `place` until the next has begun; the last of `total` goes on at once.
    func waitForTheNext(after place: Int) async {
        await withCheckedContinuation { continuation in
            let goesOn = state.withLock { state in
                let goesOn = place >= total || state.begun > place
                if !goesOn { state.waiting[place] = continuation }
                return goesOn
            }
            if goesOn { continuation.resume() }
        }
    }
}
