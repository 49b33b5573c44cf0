/// Where each part of the screen goes for a terminal size: shared by rendering and by mouse handling,
/// so a click lands on what was drawn.
public struct ScreenLayout: Equatable, Sendable {
    public enum Mode: Equatable, Sendable {
        /// Every pane at once (about 120×40 and up).
        case full
        /// The page above, and output, timeline or knobs as tabs below (80×24 and up).
        case compact
        /// Smaller than 80×24: only a message.
        case tooSmall
    }

    public static let minimum = Size(width: 80, height: 24)

    /// Whether a screen of `size` is smaller than any layout: the tutorial and the stage then ask for more room.
    public static func isTooSmall(_ size: Size) -> Bool {
        size.width < minimum.width || size.height < minimum.height
    }

    /// Below this the full layout's panes get too small to read, so the compact one is used.
    public static let fullLayoutMinimum = Size(width: 112, height: 34)

    public var mode: Mode
    /// Full layout: the boxed list of pages. Compact: the one-row strip of page numbers.
    public var sidebar: Rect?
    /// The boxes of the panes on screen, border included.
    public var panes: [Pane: Rect]
    public var status: Rect

    /// `liveView`: the current page draws in the live view, which then gets a pane of its own.
    public init(size: Size, sidebarRows: Int, focus: Pane, compactTab: Pane, zoomed: Bool, liveView: Bool = false) {
        status = Rect(x: 0, y: size.height - 1, width: size.width, height: 1)
        panes = [:]
        if Self.isTooSmall(size) {
            mode = .tooSmall
            return
        }
        let full = size.width >= Self.fullLayoutMinimum.width && size.height >= Self.fullLayoutMinimum.height
        mode = full ? .full : .compact
        if zoomed {
            panes[focus] = Rect(x: 0, y: 0, width: size.width, height: size.height - 1)
            return
        }
        if full {
            layOutFull(size: size, sidebarRows: sidebarRows, liveView: liveView)
        } else {
            layOutCompact(size: size, tab: compactTab, liveView: liveView)
        }
    }

    private mutating func layOutFull(size: Size, sidebarRows: Int, liveView: Bool) {
        let bottomHeight = max(10, size.height / 3 + 1)
        let upperHeight = size.height - 1 - bottomHeight
        let leftWidth = size.width >= 140 ? 30 : 26
        let sidebarBox = Rect(x: 0, y: 0, width: leftWidth, height: min(upperHeight - 6, max(4, sidebarRows + 2)))
        sidebar = sidebarBox
        panes[.knobs] = Rect(x: 0, y: sidebarBox.maxY, width: leftWidth, height: upperHeight - sidebarBox.height)
        placePage(in: Rect(x: leftWidth, y: 0, width: size.width - leftWidth, height: upperHeight), liveView: liveView)
        let outputWidth = size.width * 37 / 100
        panes[.output] = Rect(x: 0, y: upperHeight, width: outputWidth, height: bottomHeight)
        panes[.timeline] = Rect(x: outputWidth, y: upperHeight, width: size.width - outputWidth, height: bottomHeight)
    }

    private mutating func layOutCompact(size: Size, tab: Pane, liveView: Bool) {
        sidebar = Rect(x: 0, y: 0, width: size.width, height: 1)
        let bottomHeight = max(7, (size.height - 2) * 2 / 5)
        let pageHeight = size.height - 2 - bottomHeight
        placePage(in: Rect(x: 0, y: 1, width: size.width, height: pageHeight), liveView: liveView)
        panes[Self.bottomTabs.contains(tab) ? tab : .output] = Rect(x: 0, y: 1 + pageHeight, width: size.width, height: bottomHeight)
    }

    /// The page pane fills `area`, or shares it with the live view: the picture beside the code that draws it,
    /// the prose keeping the larger share.
    private mutating func placePage(in area: Rect, liveView: Bool) {
        guard liveView else {
            panes[.page] = area
            return
        }
        let liveWidth = area.width * 9 / 20
        panes[.page] = Rect(x: area.x, y: area.y, width: area.width - liveWidth, height: area.height)
        panes[.live] = Rect(x: area.maxX - liveWidth, y: area.y, width: liveWidth, height: area.height)
    }

    /// The panes that take turns below the page in the compact layout, as tabs in its frame.
    public static let bottomTabs: [Pane] = [.output, .timeline, .knobs]

    /// The columns of each tab's label on the top row of the compact layout's bottom box.
    public static func tabColumns(in box: Rect) -> [(pane: Pane, columns: Range<Int>)] {
        var x = box.x + 2
        return bottomTabs.map { pane in
            let width = pane.title.count + 2
            defer { x += width + 1 }
            return (pane, x..<(x + width))
        }
    }

    /// The columns of each page's entry, such as ` 3✓ `, in the compact layout's strip of pages. Before each page of
    /// `partStarts` (indices into `pageNumbers`) the strip leaves two columns, where a bar divides the parts.
    public static func stripColumns(pageNumbers: [Int], partStarts: Set<Int> = []) -> [Range<Int>] {
        var x = 0
        return pageNumbers.enumerated().map { index, number in
            if partStarts.contains(index) { x += stripPartGap }
            let width = String(number).count + 3
            defer { x += width }
            return x..<(x + width)
        }
    }

    /// The columns left before the first page of a part after the first, in the strip of pages.
    static let stripPartGap = 2

    /// The pane whose box holds the cell (`x`, `y`).
    public func pane(atX x: Int, y: Int) -> Pane? {
        panes.first { $0.value.contains(x: x, y: y) }?.key
    }
}
