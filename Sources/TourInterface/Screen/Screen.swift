/// Where the interface's frames are drawn, as the loop sees it (compare ratatui's `Backend`): `tour` draws on the
/// terminal through ncurses (`CursesScreen`), `tour notes` writes escape sequences (`EscapeScreen`), and a test keeps
/// the frames it is given (`TestScreen` in TourTestSupport). Each draws from `FrameDiff`, the one comparison of frames.
public protocol Screen: AnyObject {
    /// The size the next frame is to have.
    var size: Size { get }
    /// Reads the size again after the terminal was resized, forgets what is on screen, and returns the new size.
    func adoptTerminalSize() -> Size
    /// Forgets what is on screen, so the next frame is drawn whole (Ctrl-L, or after the editor had the terminal).
    func invalidate()
    /// Draws `frame`, sending only what changed since the last one.
    func draw(_ frame: CellBuffer)
}

/// A screen drawn by writing escape sequences (`FrameEscapes`), for a terminal the program drives itself without
/// ncurses: `tour notes`.
public final class EscapeScreen: Screen {
    private var escapes: FrameEscapes
    private let measure: () -> Size
    private let write: (String) -> Void
    public private(set) var size: Size

    /// `measure` reads the terminal's size, `write` sends bytes to it, and `colorIndex` gives a palette colour's
    /// terminal colour (nil for the terminal's default).
    public init(measure: @escaping () -> Size, colorIndex: @escaping (PaletteColor?) -> Int16?, write: @escaping (String) -> Void) {
        self.measure = measure
        self.write = write
        escapes = FrameEscapes(colorIndex: colorIndex)
        size = measure()
    }

    public func adoptTerminalSize() -> Size {
        size = measure()
        escapes.invalidate()
        return size
    }

    public func invalidate() {
        escapes.invalidate()
    }

    public func draw(_ frame: CellBuffer) {
        let text = escapes.escapes(for: frame)
        if !text.isEmpty { write(text) }
    }
}
