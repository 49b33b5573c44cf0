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
/// placeholder; LessonKit sends only the rows that changed, and nothing when the page runs alone.
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
    private var rowsInView = 0..<0

    init(photoNames: [String]) {
        self.photoNames = photoNames
        shown = Array(repeating: [], count: photoNames.count)
        states = Array(repeating: nil, count: photoNames.count)
        thumbnails = Array(repeating: nil, count: photoNames.count)
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
        case .loaded, .filtering, .filtered:
            // Filtering keeps showing the loaded photo until the filtered one arrives.
            if let picture {
                thumbnails[row] = LiveView.scaled(picture, width: Self.thumbnailWidth, height: Self.thumbnailHeight)
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
            LiveRow(caption: "\(row)  \(photoNames[row])  \(states[row]?.rawValue ?? "blank")", picture: thumbnails[row])
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
        return lines
    }

    private func rowLabel(_ row: Int) -> String {
        let width = photoNames.map(\.count).max() ?? 0
        let number = String(row)
        return String(repeating: " ", count: 2 - min(number.count, 2)) + number + "  "
            + photoNames[row].padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
