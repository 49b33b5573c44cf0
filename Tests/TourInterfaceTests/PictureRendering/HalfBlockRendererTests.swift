import Foundation
import Testing
import TourCore
import TourInterface
import TourTestSupport

/// Pictures small enough to check cell by cell, in colours that sit exactly on the xterm palette.
@Suite("Live view: half-block renderer", .bodiesBelowTheRunner)
struct HalfBlockRendererTests {
    /// A frame from rows of (r, g, b) pixels.
    static func frame(_ rows: [[(UInt8, UInt8, UInt8)]]) -> LiveFrame {
        LiveFrame(width: rows[0].count, height: rows.count, pixels: rows.flatMap { $0.flatMap { [$0.0, $0.1, $0.2] } })!
    }

    static let red: (UInt8, UInt8, UInt8) = (255, 0, 0)
    static let blue: (UInt8, UInt8, UInt8) = (0, 0, 255)
    static let white: (UInt8, UInt8, UInt8) = (255, 255, 255)
    static let black: (UInt8, UInt8, UInt8) = (0, 0, 0)

    @Test func twoByTwoBecomesTwoCellsWithTopAsForegroundAndBottomAsBackground() {
        let picture = HalfBlockRenderer.render(Self.frame([[Self.red, Self.white], [Self.blue, Self.black]]),
                                               width: 2, height: 1, depth: .colors256)
        #expect(picture.width == 2 && picture.height == 1)
        #expect(picture.cells == [Cell.picture("▀", foreground: 196, background: 21), Cell.picture("▀", foreground: 231, background: 16)])
    }

    @Test func anOddLastRowLeavesTheLowerHalfInTheDefaultBackground() {
        let picture = HalfBlockRenderer.render(Self.frame([[Self.red], [Self.blue], [Self.white]]),
                                               width: 1, height: 2, depth: .colors256)
        #expect(picture.cells == [Cell.picture("▀", foreground: 196, background: 21), Cell.picture("▀", foreground: 231, background: nil)])
    }

    @Test func shadesStandForBrightnessWithoutColour() {
        let grey: (UInt8, UInt8, UInt8) = (128, 128, 128)
        let picture = HalfBlockRenderer.render(Self.frame([[Self.black, Self.white, Self.black], [Self.black, Self.white, Self.white]]),
                                               width: 3, height: 1, depth: .monochrome)
        #expect(picture.cells.map(\.character) == [" ", "█", "▒"])
        #expect(picture.cells.allSatisfy { $0.style.pictureForeground == nil && $0.style.pictureBackground == nil })
        let eight = HalfBlockRenderer.render(Self.frame([[grey], [grey]]), width: 1, height: 1, depth: .colors8)
        #expect(eight.cells == [Cell.picture("▒")])
    }

    @Test func withoutUTF8ThePictureIsInASCIICharacters() {
        let picture = HalfBlockRenderer.render(Self.frame([[Self.black, Self.white, Self.black], [Self.black, Self.white, Self.white]]),
                                               width: 3, height: 1, depth: .ascii)
        #expect(picture.cells.map(\.character) == [" ", "@", "="])
        #expect(picture.cells.allSatisfy { $0.character.isASCII && $0.style.pictureForeground == nil })
    }

    @Test func aTwoByTwoBlockAveragesWhenHalved() {
        // Four pixels of 0 and 190 average to 95, a cube level: red 95 → index 16 + 36 = 52.
        let dark: (UInt8, UInt8, UInt8) = (190, 0, 0), none: (UInt8, UInt8, UInt8) = (0, 0, 0)
        let picture = HalfBlockRenderer.render(Self.frame([[dark, none], [none, dark], [dark, none], [none, dark]]),
                                               width: 1, height: 1, depth: .colors256)
        #expect(picture.cells == [Cell.picture("▀", foreground: 52, background: 52)])
    }

    // MARK: Nearest colours

    @Test(arguments: [
        ((0, 0, 0), 16), ((255, 255, 255), 231), ((255, 0, 0), 196), ((0, 255, 0), 46), ((0, 0, 255), 21),
        ((95, 135, 175), 67), ((8, 8, 8), 232), ((238, 238, 238), 255), ((128, 128, 128), 244),
        ((100, 100, 100), 241), ((50, 52, 48), 236), ((200, 30, 30), 160),
    ] as [((Int, Int, Int), Int)])
    func nearestColour(rgb: (Int, Int, Int), index: Int) {
        #expect(HalfBlockRenderer.nearestXterm(red: UInt8(rgb.0), green: UInt8(rgb.1), blue: UInt8(rgb.2)) == UInt8(index))
    }

    @Test func nearestColourIsNoWorseThanAnyPaletteEntry() async {
        // An exhaustive check on a sample of colours against all 240 entries; it yields now and then, leaving the
        // cooperative pool's threads to the other tests.
        var generator = SystemRandomNumberGenerator()
        for sample in 0..<500 {
            if sample % 50 == 0 { await Task.yield() }
            let (r, g, b) = (UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                             UInt8.random(in: 0...255, using: &generator))
            func distance(_ index: UInt8) -> Int {
                let c = HalfBlockRenderer.rgb(ofXterm: index)
                return [(Int(c.red) - Int(r)), (Int(c.green) - Int(g)), (Int(c.blue) - Int(b))].map { $0 * $0 }.reduce(0, +)
            }
            let best = (16...255).map { distance(UInt8($0)) }.min()!
            #expect(distance(HalfBlockRenderer.nearestXterm(red: r, green: g, blue: b)) == best, "(\(r), \(g), \(b))")
        }
    }

    @Test func paletteEntriesMapToThemselves() {
        for index in UInt8(16)...255 {
            let c = HalfBlockRenderer.rgb(ofXterm: index)
            let back = HalfBlockRenderer.nearestXterm(red: c.red, green: c.green, blue: c.blue)
            #expect(HalfBlockRenderer.rgb(ofXterm: back) == c, "index \(index)")
        }
    }

    // MARK: Scaling

    @Test(arguments: [
        // frame w, h, pane w, h → pixels w, h
        (160, 96, 160, 48, 160, 96),  // exactly fits
        (160, 96, 80, 40, 80, 48),    // halved, width decides
        (160, 96, 160, 24, 80, 48),   // height decides
        (160, 96, 40, 100, 40, 24),   // a tall narrow pane
        (200, 200, 60, 20, 40, 40),   // a square frame comes out square
        (10, 6, 40, 12, 40, 24),      // small frames are enlarged
        (160, 96, 1, 1, 1, 1),
    ] as [(Int, Int, Int, Int, Int, Int)])
    func scalingKeepsTheAspectRatio(_ c: (Int, Int, Int, Int, Int, Int)) {
        let size = HalfBlockRenderer.pixelSize(ofFrameWidth: c.0, height: c.1, inPaneWidth: c.2, height: c.3)
        #expect(size.width == c.4 && size.height == c.5)
        let frame = LiveFrame(width: c.0, height: c.1, pixels: Array(repeating: 90, count: c.0 * c.1 * 3))!
        let picture = HalfBlockRenderer.render(frame, width: c.2, height: c.3, depth: .colors256)
        #expect(picture.width == c.4 && picture.height == (c.5 + 1) / 2)
        #expect(picture.width <= c.2 && picture.height <= c.3)
    }

    @Test func anEmptyPaneGetsNoCells() {
        let frame = Self.frame([[Self.red]])
        #expect(HalfBlockRenderer.render(frame, width: 0, height: 5, depth: .colors256).cells.isEmpty)
    }

    /// A full 160×96 frame becomes one cell per column and half a row each; how fast is a benchmark
    /// (`InterfaceBenchmarks.fullFrameToCells()`).
    @Test func aFullFrameFillsEveryCell() {
        let picture = HalfBlockRenderer.render(Self.fullFrame(), width: 160, height: 48, depth: .colors256)
        #expect(picture.cells.count == 160 * 48)
    }

    /// A 160×96 frame whose pixels all differ from their neighbours.
    static func fullFrame() -> LiveFrame {
        var pixels = [UInt8](repeating: 0, count: 160 * 96 * 3)
        for index in pixels.indices { pixels[index] = UInt8((index * 37) & 255) }
        return LiveFrame(width: 160, height: 96, pixels: pixels)!
    }
}
