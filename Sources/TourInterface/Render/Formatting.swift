import Foundation
import TourCore
import PageProtocol

/// Times and names as a learner reads them.
enum Formatting {
    /// "1.234 s", "48.2 ms", "250 µs": the same units the pages use for their results.
    static func duration(_ seconds: Double, glyphs: Glyphs) -> String {
        DurationText.seconds(seconds, micro: glyphs.micro)
    }

    /// "12.3 s" for the status line's running clock.
    static func elapsed(_ seconds: Double) -> String {
        String(format: "%.1f s", seconds)
    }

    /// "0.512": when an output line was printed, in seconds from the start of the run.
    static func timestamp(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }

    /// A lane's title, its name ("main", "T3") cut to `width`.
    static func laneTitle(_ lane: ThreadLane, width: Int, glyphs: Glyphs) -> String {
        TextWidth.truncated(lane.name, to: width, ellipsis: glyphs.ellipsis)
    }

    /// A queue's label in at most `width` columns: whole when it fits, else (or when `short`) without the
    /// `com.apple.` that the main and global queues' labels share, then cut at the end.
    static func queueLabel(_ label: String, width: Int, short: Bool = false, glyphs: Glyphs) -> String {
        let shown = QueueLabel.shown(label)
        guard short || TextWidth.of(shown) > width else { return shown }
        let apple = "com.apple."
        let shorter = shown.hasPrefix(apple) ? String(shown.dropFirst(apple.count)) : shown
        return TextWidth.truncated(shorter, to: width, ellipsis: glyphs.ellipsis)
    }

    /// The colour of the queue `label` in `record`: the colour of its spans and marks, its legend entry and its printed lines.
    static func queueColor(_ label: String, in record: RunRecord) -> PaletteColor {
        PaletteColor.queue(record.queueNumber(of: label) ?? 0)
    }

    /// The queue's swatch: its letter, reversed in its colour, so it reads on a terminal without colours too.
    static func queueSwatch(_ label: String, in record: RunRecord) -> Cell {
        Cell(QueueLabel.key(record.queueNumber(of: label) ?? 0), CellStyle(foreground: queueColor(label, in: record), bold: true, reverse: true))
    }
}
