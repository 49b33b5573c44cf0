/// The tutorial's colours by what they mean; the terminal backend maps each to a 256-colour or an 8-colour
/// index, or drops colour altogether, so rendering never depends on what the terminal can do.
public enum PaletteColor: Int, Hashable, Sendable {
    /// Titles, the focused frame, the selection.
    case accent
    /// Frames and text that stays in the background.
    case muted
    case heading
    case keyword
    case string
    case comment
    case number
    /// Inline `code` in prose.
    case inlineCode
    case link
    /// The shade behind code blocks.
    case codeBackground
    /// Results beside code lines.
    case result
    case stderr
    case success
    case failure
    case warning
    case running
    case note
    case important
    case experiment
    case example
    /// The colours of queues: a span or mark is drawn in the colour of the queue it ran on (`queue(_:)`).
    case queue1, queue2, queue3, queue4, queue5, queue6
    /// A deep dive's folded row and its frame when open.
    case deepDive
    case selectedSpan
    case mark
    /// The status line and other bars.
    case bar
}

extension PaletteColor {
    private static let queues: [PaletteColor] = [.queue1, .queue2, .queue3, .queue4, .queue5, .queue6]

    /// The colour of the queue numbered `number` in a run's `queues`; past six they come round again.
    static func queue(_ number: Int) -> PaletteColor {
        queues[number % queues.count]
    }
}
