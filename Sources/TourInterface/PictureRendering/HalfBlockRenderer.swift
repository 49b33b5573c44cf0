import TourCore

/// A picture converted to cells, row by row from the top left.
public struct CellPicture: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public let cells: [Cell]

    public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }
}

/// What the terminal can show, which decides how a picture is drawn.
public enum PictureColorDepth: Sendable {
    /// Half blocks in the nearest colours of the 256-colour palette.
    case colors256
    /// Shade characters by brightness: eight colours are too few for a recognisable photo, grey levels are not.
    case colors8
    /// Shade characters by brightness, no colour at all.
    case monochrome
    /// ASCII characters by brightness, for a terminal whose locale is not UTF-8, where block characters cannot show.
    case ascii

    /// The characters for brightness at this depth, darkest first.
    var shades: [Character] {
        self == .ascii ? [" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"] : [" ", "░", "▒", "▓", "█"]
    }
}

/// Converts live view frames to terminal cells: pure, so it is tested cell by cell and timed without a terminal.
///
/// In colour, each cell is `▀` with the upper pixel as its foreground and the lower one as its background, so a
/// cell holds two pixel rows; since a cell is about twice as tall as wide, each pixel comes out square.
public enum HalfBlockRenderer {
    public static let upperHalf: Character = "▀"

    /// The size in pixels `frame` is drawn at in a pane of `width`×`height` cells: as large as fits, aspect kept.
    public static func pixelSize(ofFrameWidth frameWidth: Int, height frameHeight: Int,
                                 inPaneWidth width: Int, height: Int) -> (width: Int, height: Int) {
        guard frameWidth > 0, frameHeight > 0, width > 0, height > 0 else { return (0, 0) }
        let scale = min(Double(width) / Double(frameWidth), Double(height * 2) / Double(frameHeight))
        return (max(1, min(width, Int(Double(frameWidth) * scale))), max(1, min(height * 2, Int(Double(frameHeight) * scale))))
    }

    /// `frame` as cells, scaled to fit a pane of `width`×`height` cells keeping its aspect ratio. The result is
    /// at most that size and no larger than the fitted picture; the caller centres it. An odd last pixel row
    /// leaves the lower halves of the last cell row in the default background.
    public static func render(_ frame: LiveFrame, width: Int, height: Int, depth: PictureColorDepth) -> CellPicture {
        let size = pixelSize(ofFrameWidth: frame.width, height: frame.height, inPaneWidth: width, height: height)
        let scaled = resample(frame, width: size.width, height: size.height)
        let rows = (size.height + 1) / 2
        var cells = [Cell]()
        cells.reserveCapacity(size.width * rows)
        for row in 0..<rows {
            let top = row * 2
            let hasBottom = top + 1 < size.height
            for x in 0..<size.width {
                let upper = (top * size.width + x) * 3
                let lower = ((top + 1) * size.width + x) * 3
                switch depth {
                case .colors256:
                    let foreground = nearestXterm(red: scaled[upper], green: scaled[upper + 1], blue: scaled[upper + 2])
                    let background = hasBottom ? nearestXterm(red: scaled[lower], green: scaled[lower + 1], blue: scaled[lower + 2]) : nil
                    cells.append(.picture(upperHalf, foreground: foreground, background: background))
                case .colors8, .monochrome, .ascii:
                    var brightness = luminance(scaled[upper], scaled[upper + 1], scaled[upper + 2])
                    if hasBottom {
                        brightness = (brightness + luminance(scaled[lower], scaled[lower + 1], scaled[lower + 2])) / 2
                    }
                    let shades = depth.shades
                    cells.append(Cell(shades[min(shades.count - 1, brightness * shades.count / 256)]))
                }
            }
        }
        return CellPicture(width: size.width, height: rows, cells: cells)
    }

    /// Perceived brightness 0...255 (ITU-R BT.601 weights, in integers).
    static func luminance(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        (299 * Int(red) + 587 * Int(green) + 114 * Int(blue)) / 1000
    }

    /// The RGB bytes of `frame` at `width`×`height`: each target pixel averages the source pixels it covers,
    /// or repeats the one it falls on when enlarging.
    static func resample(_ frame: LiveFrame, width: Int, height: Int) -> [UInt8] {
        if width == frame.width && height == frame.height { return frame.pixels }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let columns = (0..<width).map { x -> Range<Int> in
            let left = x * frame.width / width
            return left..<max(left + 1, (x + 1) * frame.width / width)
        }
        frame.pixels.withUnsafeBufferPointer { source in
            for y in 0..<height {
                let top = y * frame.height / height
                let bottom = max(top + 1, (y + 1) * frame.height / height)
                for x in 0..<width {
                    let span = columns[x]
                    var red = 0, green = 0, blue = 0
                    for sourceY in top..<bottom {
                        var index = (sourceY * frame.width + span.lowerBound) * 3
                        for _ in span {
                            red += Int(source[index])
                            green += Int(source[index + 1])
                            blue += Int(source[index + 2])
                            index += 3
                        }
                    }
                    let count = (bottom - top) * span.count
                    let target = (y * width + x) * 3
                    out[target] = UInt8(red / count)
                    out[target + 1] = UInt8(green / count)
                    out[target + 2] = UInt8(blue / count)
                }
            }
        }
        return out
    }

    // MARK: The 256-colour palette

    /// The six levels of each channel in the 6×6×6 colour cube (indexes 16...231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]
    /// For each byte, the nearest cube level's position 0...5.
    private static let nearestLevel: [UInt8] = (0...255).map { value in
        UInt8(cubeLevels.indices.min { abs(cubeLevels[$0] - value) < abs(cubeLevels[$1] - value) }!)
    }

    /// The nearest colour to (`red`, `green`, `blue`) among the colour cube and the grey ramp (indexes 16...255);
    /// the first 16 are left out because terminals give them colours of their own choosing.
    public static func nearestXterm(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        // The cube is a grid, so its nearest point is the nearest level in each channel separately.
        let r = Int(nearestLevel[Int(red)]), g = Int(nearestLevel[Int(green)]), b = Int(nearestLevel[Int(blue)])
        let cubeDistance = squared(cubeLevels[r] - Int(red)) + squared(cubeLevels[g] - Int(green)) + squared(cubeLevels[b] - Int(blue))
        // Grey ramp 232...255 runs 8, 18, ... 238; the nearest grey to a colour is the one nearest its mean.
        let mean = (Int(red) + Int(green) + Int(blue)) / 3
        let step = min(23, max(0, (mean - 8 + 5) / 10))
        let grey = 8 + 10 * step
        let greyDistance = squared(grey - Int(red)) + squared(grey - Int(green)) + squared(grey - Int(blue))
        return greyDistance < cubeDistance ? UInt8(232 + step) : UInt8(16 + 36 * r + 6 * g + b)
    }

    /// The colour xterm shows for palette index 16...255.
    public static func rgb(ofXterm index: UInt8) -> (red: UInt8, green: UInt8, blue: UInt8) {
        if index >= 232 {
            let level = UInt8(8 + 10 * Int(index - 232))
            return (level, level, level)
        }
        let cube = Int(max(index, 16)) - 16
        return (UInt8(cubeLevels[cube / 36]), UInt8(cubeLevels[cube / 6 % 6]), UInt8(cubeLevels[cube % 6]))
    }

    private static func squared(_ value: Int) -> Int { value * value }
}
