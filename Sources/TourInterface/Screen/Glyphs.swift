/// The characters for frames, bars and state markers: Unicode when the locale is UTF-8, ASCII otherwise.
public struct Glyphs: Sendable, Equatable {
    public var horizontal: Character
    public var vertical: Character
    public var topLeft: Character
    public var topRight: Character
    public var bottomLeft: Character
    public var bottomRight: Character
    public var bullet: Character
    public var ellipsis: String
    public var continuation: Character
    public var pointer: Character
    public var mark: Character
    public var tick: Character
    public var notRun: Character
    /// A page whose program is still to be built (`swift run tour` builds none).
    public var notBuilt: Character
    public var running: Character
    public var expected: Character
    public var crashed: Character
    public var stuck: Character
    public var stopped: Character
    public var failed: Character
    public var building: Character
    public var doesNotCompile: Character
    /// A page's exercises in the list of pages: both done, or not yet.
    public var exercisesDone: Character
    public var exercisesOpen: Character
    public var times: String
    public var arrow: String
    /// The up and down arrow keys, as help texts name them.
    public var upDown: String
    /// The prefix of microseconds.
    public var micro: String
    /// A timeline cell where the thread was sampled waiting (inside a span), and running outside any span.
    public var threadWaiting: Character = "░"
    public var threadRunning: Character = "▁"
    /// A cell filled from empty to full, in equal steps: the concurrency meter's bars.
    public var levels: [Character]

    public static let unicode = Glyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        bullet: "•", ellipsis: "…", continuation: "↪", pointer: "▸", mark: "◆",
        tick: "┼", notRun: "·", notBuilt: "◌", running: "▶", expected: "✓", crashed: "✗", stuck: "⊘", stopped: "■", failed: "!",
        building: "↻", doesNotCompile: "✘", exercisesDone: "●", exercisesOpen: "○", times: "×", arrow: "→", upDown: "↑↓", micro: "µ",
        levels: [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    )

    public static let ascii = Glyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        bullet: "*", ellipsis: "...", continuation: "\\", pointer: ">", mark: "*",
        tick: "+", notRun: ".", notBuilt: "-", running: ">", expected: "+", crashed: "x", stuck: "?", stopped: "#", failed: "!",
        building: "~", doesNotCompile: "E", exercisesDone: "*", exercisesOpen: "o", times: "x", arrow: "->", upDown: "Up/Down", micro: "u",
        threadWaiting: ":", threadRunning: "_",
        levels: [" ", ".", "_", "-", "=", "+", "*", "%", "#"]
    )
}
