import Foundation
import Testing
import TourCore
import TourInterface
import PageProtocol
import TourTestSupport

@Suite("Live view: the pane", .bodiesBelowTheRunner)
struct LivePaneRendererTests {
    static func event(_ kind: EventKind) -> PageEvent {
        PageEvent(time: 1, thread: 1, queue: "", kind: kind)
    }

    static func picture(_ width: Int, _ height: Int, _ rgb: [UInt8]) -> PagePicture {
        PagePicture(width: width, height: height, base64: Data(Array((0..<width * height).map { _ in rgb }.joined())).base64EncodedString())
    }

    static func lines(_ picture: CellPicture) -> [String] {
        (0..<picture.height).map { y in String((0..<picture.width).map { picture[$0, y].character }) }
    }

    @Test func aFrameIsCentredInThePane() {
        var tall = LiveViewState()
        tall.apply(Self.event(.frame(Self.picture(1, 2, [255, 0, 0]))))
        // 1×2 pixels in 6×2 cells (4 pixel rows): twice as large, 2×4 pixels, so 2×2 cells in the middle.
        let narrow = LivePaneRenderer.render(tall, width: 6, height: 2, depth: .colors256)
        #expect(Self.lines(narrow) == ["  ▀▀  ", "  ▀▀  "])
        #expect(narrow[2, 0] == Cell.picture("▀", foreground: 196, background: 196))
        #expect(narrow[1, 0] == Cell.picture(" "))

        var wide = LiveViewState()
        wide.apply(Self.event(.frame(Self.picture(2, 1, [0, 0, 255]))))
        // 2×1 pixels in 6×4 cells: three times as large, 6×3 pixels, so 6×2 cells with the last lower half empty.
        let pane = LivePaneRenderer.render(wide, width: 6, height: 4, depth: .colors256)
        #expect(pane.width == 6 && pane.height == 4)
        #expect(Self.lines(pane) == ["      ", "▀▀▀▀▀▀", "▀▀▀▀▀▀", "      "])
        #expect(pane[0, 2] == Cell.picture("▀", foreground: 21, background: nil))
    }

    @Test func rowsShowThumbnailsOrPlaceholdersWithCaptions() {
        var state = LiveViewState()
        state.apply(Self.event(.rows(count: 2)))
        state.apply(Self.event(.row(index: 0, caption: "0 coffee: placeholder", picture: nil, parts: nil)))
        state.apply(Self.event(.row(index: 1, caption: "1 rocket: filtered", picture: Self.picture(4, 3, [0, 0, 255]), parts: nil)))
        let pane = LivePaneRenderer.render(state, width: 20, height: 4, depth: .colors256)
        // Rows of 2 lines: thumbnails 5 columns wide (2 × 8/3), room for 5×4 pixels; a 4×3 picture fits as 5×3
        // (aspect kept), so 2 lines whose last lower halves are empty. Captions are cut to the 14 columns left.
        #expect(Self.lines(pane) == [
            "░░░░░ 0 coffee: pla…",
            "░░░░░               ",
            "▀▀▀▀▀ 1 rocket: fil…",
            "▀▀▀▀▀               ",
        ])
        #expect(pane[0, 0] == Cell.picture("░", foreground: 240))
        #expect(pane[0, 2].style.pictureForeground == 21)
        #expect(pane[0, 3].style.pictureBackground == nil, "an odd last pixel row leaves the lower half empty")
    }

    /// A list of two rows; the second offers a red "before" and a blue "after" of 4×3 pixels at full size.
    static func listWithFullSizePictures(parts: Int = 2) -> LiveViewState {
        var state = LiveViewState()
        state.apply(event(.rows(count: 2)))
        state.apply(event(.row(index: 0, caption: "0 coffee: placeholder", picture: nil, parts: nil)))
        state.apply(event(.row(index: 1, caption: "1 rocket: filtered", picture: picture(1, 1, [9, 9, 9]), parts: parts)))
        for (part, (caption, color)) in [("before", [UInt8(255), 0, 0]), ("after", [0, 0, 255])].prefix(parts).enumerated() {
            state.apply(event(.detail(index: 1, part: part, caption: caption, picture: picture(4, 3, color))))
        }
        return state
    }

    @Test func aRowAtFullSizeStacksItsPicturesInATallPane() {
        let state = Self.listWithFullSizePictures()
        // 8×9 cells: the caption, then two parts of 1 caption line and 3 lines (6 pixel rows) each, with a blank line
        // between. 4×3 pixels fit 8×6 as 8×6: twice as large, all 3 lines of each part.
        let pane = LivePaneRenderer.render(state, width: 8, height: 9, depth: .colors256, fullSizeRow: 1)
        #expect(Self.lines(pane).first?.hasPrefix("1 rock") == true, "the row's caption, cut to the pane")
        #expect(Array(Self.lines(pane).dropFirst()) == [
            "before  ",
            "▀▀▀▀▀▀▀▀",
            "▀▀▀▀▀▀▀▀",
            "▀▀▀▀▀▀▀▀",
            "after   ",
            "▀▀▀▀▀▀▀▀",
            "▀▀▀▀▀▀▀▀",
            "▀▀▀▀▀▀▀▀",
        ])
        #expect(pane[0, 2] == Cell.picture("▀", foreground: 196, background: 196), "before: red")
        #expect(pane[0, 6] == Cell.picture("▀", foreground: 21, background: 21), "after: blue")
    }

    @Test func aRowAtFullSizeSetsItsPicturesSideBySideInAWidePane() {
        let state = Self.listWithFullSizePictures()
        // 17×5 cells: stacked, each part would get 1 line (4×2 pixels); side by side each gets 8 columns × 3 lines,
        // 8×6 pixels, so the pictures go side by side with one blank column between.
        let pane = LivePaneRenderer.render(state, width: 17, height: 5, depth: .colors256, fullSizeRow: 1)
        #expect(Array(Self.lines(pane).dropFirst()) == [
            "before   after   ",
            "▀▀▀▀▀▀▀▀ ▀▀▀▀▀▀▀▀",
            "▀▀▀▀▀▀▀▀ ▀▀▀▀▀▀▀▀",
            "▀▀▀▀▀▀▀▀ ▀▀▀▀▀▀▀▀",
        ])
        #expect(pane[0, 2].style.pictureForeground == 196 && pane[9, 2].style.pictureForeground == 21)
    }

    @Test func aRowWithoutFullSizePicturesSaysSo() {
        let state = Self.listWithFullSizePictures()
        let pane = LivePaneRenderer.render(state, width: 30, height: 4, depth: .colors256, fullSizeRow: 0)
        #expect(Self.lines(pane)[0].hasPrefix("0 coffee: placeholder"))
        #expect(Self.lines(pane)[2].hasPrefix(LivePaneRenderer.noFullSizeText))
        // A row past the end of the list shows the last one.
        let past = LivePaneRenderer.render(state, width: 30, height: 4, depth: .colors256, fullSizeRow: 7)
        #expect(Self.lines(past)[0].hasPrefix("1 rocket: filtered"))
    }

    @Test func aPaneTooSmallForEveryRowShowsThoseThatFit() {
        var state = LiveViewState()
        state.apply(Self.event(.rows(count: 5)))
        for index in 0..<5 {
            state.apply(Self.event(.row(index: index, caption: "row \(index)", picture: nil, parts: nil)))
        }
        let pane = LivePaneRenderer.render(state, width: 12, height: 3, depth: .monochrome)
        #expect(Self.lines(pane) == ["░░ row 0    ", "░░ row 1    ", "░░ row 2    "])
    }

    @Test func anEmptyStateIsABlankPane() {
        let pane = LivePaneRenderer.render(LiveViewState(), width: 3, height: 2, depth: .colors8)
        #expect(pane.cells == Array(repeating: Cell.picture(" "), count: 6))
    }
}
