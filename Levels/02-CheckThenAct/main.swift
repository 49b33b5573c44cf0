// Level: check-then-act. Two rows of page 5's list show the same photo; each checks the cache and, finding nothing,
// downloads the photo and stores it. The check and the act are separate steps.
import LessonKit
import PageProtocol
import Foundation

let level = Level(LevelDescription(
    name: "check-then-act",
    version: 1,
    title: "Check, then act",
    page: 5,
    introduction: """
        Page 5's list shares downloads through a cache: a row looks the photo up, and only when the cache has none \
        does it download the photo and store it for the next row. Here two rows show the same three photos, a sunset, a harbour and a bridge, at once. Each \
        row's lookup and its store are separate steps, and the download happens between them. Step the rows so \
        that a photo is downloaded twice.
        """,
    hints: [
        "A row decides to download from what its lookup saw, not from what the cache holds when it stores.",
        "What does the second row's lookup see if the first row has looked but not yet stored?",
        "Step 1 then 2: both look up the sunset in an empty cache, and both download it.",
    ],
    goal: "a photo is downloaded more than once",
    fix: "a lock covers the lookup and the store together, so the second row looks only after the first has stored",
    threads: ["row 1", "row 2"]
)) { run in
    let photos = ["sunset", "harbour", "bridge"]
    let cache = photos.map { run.shared($0, "not cached") }
    let lock = run.lock("cache")
    let downloads = Downloads(photos.count)
    /// Looks the photo up and, when the cache has none, downloads it and stores it.
    @Sendable func show(_ photo: Int) {
        if cache[photo].load() == "not cached" {
            downloads.count(photo)
            cache[photo].store("cached")
        }
    }
    let showPhotos: @Sendable () -> Void = {
        for photo in photos.indices {
            if run.fixed {
                lock.withLock { show(photo) }
            } else {
                show(photo)
            }
        }
    }
    run.thread(1, showPhotos)
    run.thread(2, showPhotos)
    return {
        for (photo, times) in zip(photos, downloads.times) where times != 1 {
            return LevelFailure(kind: .assertion, message: "the \(photo) was downloaded \(times) times; the cache should make it once")
        }
        return nil
    }
}

/// How many times each photo was downloaded: the level's own bookkeeping, behind a plain lock and not a step, so
/// counting a download can never itself lose one.
final class Downloads: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int]

    init(_ photos: Int) { counts = Array(repeating: 0, count: photos) }

    func count(_ photo: Int) { lock.withLock { counts[photo] += 1 } }

    var times: [Int] { lock.withLock { counts } }
}

LevelMain.run(level)
