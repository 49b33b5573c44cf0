/// What changed on a screen from one frame to the next: the one comparison of frames, which every `Screen` draws
/// from: the terminal (`CursesScreen`), the escape writer (`FrameEscapes`: `EscapeScreen` for `tour notes`, and
/// recordings) and the tests' `TestScreen`.
public struct FrameDiff: Equatable, Sendable {
    /// One cell to draw, at its column and row.
    public struct Change: Equatable, Sendable {
        public var x: Int
        public var y: Int
        public var cell: Cell
    }

    /// Whether the screen is to be cleared first: there was no frame before, or it had another size. The changes are
    /// then every cell that is not blank.
    public var clearsFirst: Bool
    /// The cells to draw, row by row, left to right; the right halves of wide characters are never among them.
    public var changes: [Change]

    /// The changes that take a screen showing `previous` (nil: unknown, or nothing) to `frame`.
    public init(from previous: CellBuffer?, to frame: CellBuffer) {
        let full = previous?.size != frame.size
        clearsFirst = full
        var changes: [Change] = []
        for y in 0..<frame.size.height {
            for x in 0..<frame.size.width {
                let cell = frame[x, y]
                if cell.isContinuation { continue }
                if full ? cell == .blank : previous![x, y] == cell { continue }
                changes.append(Change(x: x, y: y, cell: cell))
            }
        }
        self.changes = changes
    }
}
