import Foundation
import Testing
import TourCore
import TourTestSupport

/// The live view in a real terminal: page 5's photos in coloured half blocks, scrolled with the arrow keys, and
/// page 7's animation, read back from tmux with their colours (`capture-pane -e`).
@Suite("Live view in tmux", .bodiesBelowTheRunner)
struct LiveViewInTmuxTests {
    @Test("Page 5 shows photos in 256-colour half blocks that arrive, get filtered, and scroll with the arrow keys",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func inPracticeScrollsItsPhotos() async throws {
        let tmux = try await Self.startTour()
        defer { tmux.stop() }
        try await tmux.send("n", "n", "n", "n")
        try await tmux.waitFor("page 5") { $0.contains("5 In Practice") && $0.contains("Live view") }
        try await tmux.runSkippingThePrediction()

        let colored = try await tmux.waitFor("photos in the live view", timeout: 120, colors: true) { screen in
            Self.pictureCells(in: screen).count >= 100
        }
        let cells = Self.pictureCells(in: colored)
        let colors = Set(cells.flatMap { [$0.foreground, $0.background] })
        #expect(colors.count >= 12, "a photo has many colours, not a flat fill: \(colors.sorted())")
        #expect(colors.allSatisfy { (16...255).contains($0) }, "pictures use the cube and the grey ramp, never the themable 16")
        try await tmux.waitFor("a tilt-shifted row", timeout: 120) { $0.contains("filtered") }

        try await tmux.send("Down", "Down", "Down")
        let scrolled = try await tmux.waitFor("the learner's scrolling taking over", timeout: 60) { screen in
            screen.contains("Finger lifted at rows") || screen.contains("You took over")
        }
        #expect(scrolled.contains("Enter lets go"), "the live view says how to let go")
        try await tmux.send("f")
        let fullSize = try await tmux.waitFor("a row at full size", timeout: 30) { $0.contains("f back") }
        // The live view's left edge meets the page pane's: its caption "before" starts right after both borders.
        #expect(fullSize.contains("││before ") || fullSize.contains("no photo yet"), "the row's photo, or why there is none")
        try await tmux.send("f")
        try await tmux.waitFor("the list again", timeout: 30) { !$0.contains("f back") }
        try await tmux.send("Enter")
        let ended = try await tmux.waitFor("the page to finish after letting go", timeout: 120) { $0.contains("ended normally") }
        #expect(ended.contains("operations cancelled") || ended.contains("Done:"))
    }

    @Test("Page 7 animates the box in the live view and then reports that the animations completed",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func groupsAnimates() async throws {
        let tmux = try await Self.startTour()
        defer { tmux.stop() }
        try await tmux.send("n", "n", "n", "n", "n", "n")
        try await tmux.waitFor("page 7") { $0.contains("7 Groups") && $0.contains("Live view") }
        try await tmux.runSkippingThePrediction()
        let first = try await tmux.waitFor("the first frames", timeout: 120, colors: true) { Self.pictureCells(in: $0).count >= 100 }
        let firstBackground = Self.mostCommonColor(in: first)
        let last = try await tmux.waitFor("the background to change colour", timeout: 120, colors: true) { screen in
            Self.pictureCells(in: screen).count >= 100 && Self.mostCommonColor(in: screen) != firstBackground
        }
        #expect(Self.mostCommonColor(in: last) != firstBackground)
        try await tmux.waitFor("the group's notify", timeout: 120) { $0.contains("Animations completed") && $0.contains("ended normally") }
    }

    private static func startTour() async throws -> Tmux {
        let tmux = Tmux()
        let tour = BuildProducts.executable(named: "tour")
        try await tmux.startInColor(tour)
        return tmux
    }

    /// A cell drawn as an upper half block with a 256-colour foreground and background.
    struct PictureCell {
        var foreground: Int
        var background: Int
    }

    /// Every upper-half-block cell with both colours set, read from a `capture-pane -e` screen.
    static func pictureCells(in screen: String) -> [PictureCell] {
        var cells: [PictureCell] = []
        for line in screen.split(separator: "\n") {
            var foreground: Int?
            var background: Int?
            var index = line.startIndex
            while index < line.endIndex {
                if line[index] == "\u{1B}", let end = line[index...].firstIndex(of: "m") {
                    let codes = line[line.index(after: index)..<end].dropFirst().split(separator: ";").compactMap { Int($0) }
                    apply(codes, foreground: &foreground, background: &background)
                    index = line.index(after: end)
                    continue
                }
                if line[index] == "▀", let foreground, let background {
                    cells.append(PictureCell(foreground: foreground, background: background))
                }
                index = line.index(after: index)
            }
        }
        return cells
    }

    /// Follows SGR codes: 38;5;N and 48;5;N set a colour, 39 and 49 reset one, 0 (or nothing) resets both.
    private static func apply(_ codes: [Int], foreground: inout Int?, background: inout Int?) {
        if codes.isEmpty { foreground = nil; background = nil }
        var position = 0
        while position < codes.count {
            switch codes[position] {
            case 0: foreground = nil; background = nil
            case 39: foreground = nil
            case 49: background = nil
            case 38 where position + 2 < codes.count && codes[position + 1] == 5:
                foreground = codes[position + 2]
                position += 2
            case 48 where position + 2 < codes.count && codes[position + 1] == 5:
                background = codes[position + 2]
                position += 2
            default: break
            }
            position += 1
        }
    }

    /// The colour most picture cells are drawn in: the animation's background.
    static func mostCommonColor(in screen: String) -> Int? {
        var counts: [Int: Int] = [:]
        for cell in pictureCells(in: screen) { counts[cell.background, default: 0] += 1 }
        return counts.max { $0.value < $1.value }?.key
    }
}
