import LessonKit

/// What a row of the list shows, in the order a row normally goes through them.
enum RowState: String {
    /// The row is in view but has no picture yet.
    case placeholder
    /// The downloaded photo is shown, not yet filtered.
    case loaded
    /// The tilt-shift of this row's photo has begun.
    case filtering
    /// The tilt-shifted picture is shown: the row is done.
    case filtered
    /// The photo could not be loaded; the row shows why.
    case failed
    /// The row scrolled out of view.
    case away
}

/// The face of the list: what each row has shown, announced change by change, and the list drawn as text.
///
/// Every change is a mark on the timeline, in a fixed form a reader (or a picture-drawing view) can parse:
/// - `row <index> <photo>: <state>`, optionally followed by ` (<note>)`, for example
///   `row 6 astronaut: filtered (from cache)` or `row 3 hubble: away (2 operations cancelled)`;
/// - `view <first>-<last>` whenever the rows in view change.
///
/// The rows in view are also drawn in the tutorial's live view, each with a thumbnail of what it shows, or a
/// placeholder, and its photo before and after the tilt-shift for the view's full size (`f`); LessonKit sends only
/// what changed, scaled to what the view shows, and nothing when the page runs alone.
///
/// Not thread-safe: the list calls it while holding its lock, so the order of the marks is the order of the changes.
struct ListDisplay {
    /// The size of a row's thumbnail in the live view: the photos' 4:3, small enough for several rows at once.
    static let thumbnailWidth = 64
    static let thumbnailHeight = 48

    let photoNames: [String]
    private var shown: [[String]]
    private var states: [RowState?]
    private var thumbnails: [RGBImage?]
    /// What each row offers at full size: its photo, then its tilt-shifted picture once it has one.
    private var fullSize: [[LivePicture]]
    /// Each photo as downloaded, by name, for the "before" of rows that show its filtered picture from the cache.
    private var photos: [String: RGBImage] = [:]
    private var rowsInView = 0..<0

    init(photoNames: [String]) {
        self.photoNames = photoNames
        shown = Array(repeating: [], count: photoNames.count)
        states = Array(repeating: nil, count: photoNames.count)
        thumbnails = Array(repeating: nil, count: photoNames.count)
        fullSize = Array(repeating: [], count: photoNames.count)
    }

    /// The latest state of `row`, nil if it was never in view.
    func state(of row: Int) -> RowState? {
        states[row]
    }

    /// Records that `row` now shows `state`; `picture` is the photo it shows from now on, when it has a new one.
    mutating func show(_ row: Int, _ state: RowState, note: String? = nil, picture: RGBImage? = nil) {
        states[row] = state
        let text = state.rawValue + (note.map { " (\($0))" } ?? "")
        shown[row].append(text)
        mark("row \(row) \(photoNames[row]): \(text)")
        switch state {
        case .placeholder, .failed, .away:
            thumbnails[row] = nil
            fullSize[row] = []
        case .loaded, .filtering, .filtered:
            // Filtering keeps showing the loaded photo until the filtered one arrives.
            if let picture {
                thumbnails[row] = LiveView.scaled(picture, width: Self.thumbnailWidth, height: Self.thumbnailHeight)
                if state == .loaded { photos[photoNames[row]] = picture }
                let before = photos[photoNames[row]].map { LivePicture(caption: "before", image: $0) }
                let after = state == .filtered ? LivePicture(caption: "after tilt-shift", image: picture) : nil
                fullSize[row] = [before, after].compactMap { $0 }
            }
        }
        if rowsInView.contains(row) { drawLiveView() }
    }

    mutating func viewMoved(to rows: Range<Int>) {
        rowsInView = rows
        mark("view \(rows.lowerBound)-\(rows.upperBound - 1)")
        drawLiveView()
    }

    /// Sends the rows in view to the live view, each captioned with its number, photo and state.
    private func drawLiveView() {
        guard LiveView.isActive else { return }
        LiveView.rows(rowsInView.map { row in
            LiveRow(caption: "\(row)  \(photoNames[row])  \(states[row]?.rawValue ?? "blank")", picture: thumbnails[row],
                    fullSize: fullSize[row])
        })
    }

    /// The rows in view, one line each: what they show right now.
    func snapshot(of rows: Range<Int>) -> [String] {
        rows.map { row in "  \(rowLabel(row))  \(states[row]?.rawValue ?? "blank")" }
    }

    /// The whole list as text: `>` marks the rows in view, and each row lists everything it showed.
    func picture(inView rows: Range<Int>) -> [String] {
        var lines = ["The list, rows \(rows.lowerBound) to \(rows.upperBound - 1) in view (marked >):"]
        for row in photoNames.indices {
            let history = shown[row].isEmpty ? "never in view" : shown[row].joined(separator: " → ")
            lines.append("\(rows.contains(row) ? ">" : " ") \(rowLabel(row))  \(history)")
        }
        if let photo = photos.values.first {
            lines.append("The photos are \(photo.width)×\(photo.height) pixels; in the tutorial, f in the live view shows a row "
                         + "at the pane's full size, before and after its tilt-shift.")
        }
        return lines
    }

    private func rowLabel(_ row: Int) -> String {
        let width = photoNames.map(\.count).max() ?? 0
        let number = String(row)
        return String(repeating: " ", count: 2 - min(number.count, 2)) + number + "  "
            + photoNames[row].padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
