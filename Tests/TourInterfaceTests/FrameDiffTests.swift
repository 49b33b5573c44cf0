import Testing
import TourTestSupport
@testable import TourInterface

/// The one comparison of frames the terminal and the escape writer draw from.
@Suite("Frame diff", .bodiesBelowTheRunner)
struct FrameDiffTests {
    static func frame(_ rows: [String], width: Int = 6) -> CellBuffer {
        var buffer = CellBuffer(size: Size(width: width, height: rows.count))
        for (y, row) in rows.enumerated() { buffer.write(row, x: 0, y: y) }
        return buffer
    }

    @Test("With no frame before, or one of another size, the screen is cleared and every cell that is not blank drawn")
    func firstFrameIsWhole() {
        let first = Self.frame(["ab", " c"])
        let diff = FrameDiff(from: nil, to: first)
        #expect(diff.clearsFirst)
        #expect(diff.changes.map { "\($0.x),\($0.y),\($0.cell.character)" } == ["0,0,a", "1,0,b", "1,1,c"])
        #expect(FrameDiff(from: Self.frame(["ab"], width: 5), to: first).clearsFirst, "another size")
    }

    @Test("Between frames of one size, only the cells that changed, in their style, and never a wide character's right half")
    func onlyWhatChanged() {
        let before = Self.frame(["abc", "def"])
        var after = before
        after.write("X", x: 1, y: 1, style: CellStyle(bold: true))
        after.write("界", x: 3, y: 0)
        let diff = FrameDiff(from: before, to: after)
        #expect(!diff.clearsFirst)
        #expect(diff.changes.map { "\($0.x),\($0.y),\($0.cell.character)" } == ["3,0,界", "1,1,X"])
        #expect(diff.changes.last?.cell.style.bold == true)
        #expect(FrameDiff(from: after, to: after).changes.isEmpty)
    }

    @Test("The escape screen writes only what changed, nothing for an unchanged frame, and all of it after a resize")
    func escapeScreenDrawsTheDiff() {
        var written: [String] = []
        var terminalSize = Size(width: 6, height: 2)
        let screen = EscapeScreen(measure: { terminalSize }, colorIndex: { _ in nil }, write: { written.append($0) })
        var terminal = TerminalEmulator(width: 6, height: 2)
        let before = Self.frame(["abc", "def"])
        var after = before
        after.write("X", x: 1, y: 1)
        for frame in [before, after, after] {
            screen.draw(frame)
        }
        #expect(written.count == 2, "an unchanged frame writes nothing")
        #expect(written.last == "\u{1B}[2;2H\u{1B}[0mX", "a move to the one cell, its style, and it")
        written.forEach { terminal.feed($0) }
        #expect(terminal.text == ["abc", "dXf"])

        terminalSize = Size(width: 5, height: 2)
        #expect(screen.adoptTerminalSize() == terminalSize)
        screen.draw(Self.frame(["abc", "dXf"], width: 5))
        #expect(written.last?.hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J") == true, "cleared and drawn whole")
    }
}
