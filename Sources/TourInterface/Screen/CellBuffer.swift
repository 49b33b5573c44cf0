/// How one cell looks: colours from the tutorial's palette and the attributes every terminal has.
public struct CellStyle: Hashable, Sendable {
    public var foreground: PaletteColor?
    public var background: PaletteColor?
    /// A colour of the 256-colour palette by its index, for pictures in the live view; it wins over `foreground`.
    public var pictureForeground: UInt8?
    /// The same for the background; it wins over `background`.
    public var pictureBackground: UInt8?
    public var bold = false
    public var dim = false
    public var reverse = false
    public var underline = false

    public init(foreground: PaletteColor? = nil, background: PaletteColor? = nil,
                pictureForeground: UInt8? = nil, pictureBackground: UInt8? = nil, bold: Bool = false,
                dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.pictureForeground = pictureForeground
        self.pictureBackground = pictureBackground
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = CellStyle()
}

/// One character cell of the screen.
public struct Cell: Hashable, Sendable {
    /// The character shown; empty for the right half of a double-width character drawn in the cell before.
    public var character: Character
    public var style: CellStyle

    public init(_ character: Character, _ style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }

    /// A cell of a picture, in colours of the 256-colour palette by index; nil is the terminal's default colour.
    public static func picture(_ character: Character, foreground: UInt8? = nil, background: UInt8? = nil) -> Cell {
        Cell(character, CellStyle(pictureForeground: foreground, pictureBackground: background))
    }

    public static let blank = Cell(" ")
    /// The right half of a double-width character.
    static let continuation = Cell("\u{0}")

    public var isContinuation: Bool { character == "\u{0}" }
}

/// A position and size in cells; `x` grows to the right, `y` downwards.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    /// The area inside a one-cell border.
    public var inside: Rect { Rect(x: x + 1, y: y + 1, width: width - 2, height: height - 2) }
}

/// Terminal size in cells.
public struct Size: Hashable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// A screenful of styled cells: what rendering produces and what the terminal backend draws.
public struct CellBuffer: Equatable, Sendable {
    public let size: Size
    public private(set) var cells: [Cell]

    public init(size: Size) {
        self.size = size
        cells = Array(repeating: .blank, count: max(0, size.width * size.height))
    }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * size.width + x]
    }

    /// Sets one cell, ignoring positions outside the buffer or `clip`.
    public mutating func set(_ cell: Cell, x: Int, y: Int, clip: Rect? = nil) {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
        if let clip, !clip.contains(x: x, y: y) { return }
        cells[y * size.width + x] = cell
    }

    /// Writes `text` from (`x`, `y`) on one row, cut at `clip`'s right edge (or the buffer's);
    /// returns the column after the last cell written.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: CellStyle = .plain, clip: Rect? = nil) -> Int {
        let limit = min(clip?.maxX ?? size.width, size.width)
        var column = x
        for character in text {
            let width = TextWidth.of(character)
            guard width > 0 else { continue }
            guard column + width <= limit else { break }
            set(Cell(character, style), x: column, y: y, clip: clip)
            if width == 2 { set(.continuation, x: column + 1, y: y, clip: clip) }
            column += width
        }
        return column
    }

    /// Writes a row of cells already laid out, such as a wrapped line of a page.
    public mutating func write(_ row: [Cell], x: Int, y: Int, clip: Rect? = nil) {
        for (offset, cell) in row.enumerated() {
            set(cell, x: x + offset, y: y, clip: clip)
        }
    }

    /// Fills `rect` with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        for row in max(0, rect.y)..<min(size.height, rect.maxY) {
            for column in max(0, rect.x)..<min(size.width, rect.maxX) {
                cells[row * size.width + column] = cell
            }
        }
    }

    /// The characters of row `y` as text, trailing spaces removed: what a snapshot test compares.
    public func text(ofRow y: Int) -> String {
        var line = ""
        for x in 0..<size.width where !self[x, y].isContinuation {
            line.append(self[x, y].character)
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// Every row as text.
    public var lines: [String] {
        (0..<size.height).map(text(ofRow:))
    }
}
