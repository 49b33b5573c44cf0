import Synchronization
import TourCore
import TourInterface

/// A `Screen` that keeps every frame it is given instead of drawing it, as ratatui's `TestBackend`: a test drives the
/// loop and reads what the learner would have seen. Its size is what the test says the terminal's is.
public final class TestScreen: Screen, Sendable {
    private struct State {
        var size: Size
        var frames: [CellBuffer] = []
        /// When each frame was drawn, on `clock`.
        var drawnAt: [UInt64] = []
        /// What the last frame changed, from the frame before it (`FrameDiff`): nil before the first.
        var lastDiff: FrameDiff?
        /// Whether what is on screen is forgotten, so the next frame is drawn whole.
        var forgotten = true
        var terminalSize: Size
    }

    private let state: Mutex<State>
    private let clock: any HostClock

    /// A terminal of `size`, stamping each frame with the time on `clock` (`drawnAt`).
    public init(size: Size = Size(width: 120, height: 40), clock: any HostClock = SystemClock()) {
        state = Mutex(State(size: size, terminalSize: size))
        self.clock = clock
    }

    public var size: Size { state.withLock { $0.size } }

    /// Every frame drawn, first to last.
    public var frames: [CellBuffer] { state.withLock { $0.frames } }

    /// When each frame was drawn, on the screen's clock.
    public var drawnAt: [UInt64] { state.withLock { $0.drawnAt } }

    /// The last frame drawn as lines of text (trailing blanks kept), empty before the first.
    public var lines: [String] { state.withLock { $0.frames.last?.lines ?? [] } }

    /// The changes the last frame drew (`FrameDiff`): every cell after a resize or `invalidate()`, else what differs.
    public var lastDiff: FrameDiff? { state.withLock { $0.lastDiff } }

    /// The terminal now has `size`; the screen takes it at the next `adoptTerminalSize()`, as after SIGWINCH.
    public func resizeTerminal(to size: Size) {
        state.withLock { $0.terminalSize = size }
    }

    public func adoptTerminalSize() -> Size {
        state.withLock { state in
            state.size = state.terminalSize
            state.forgotten = true
            return state.size
        }
    }

    public func invalidate() {
        state.withLock { $0.forgotten = true }
    }

    public func draw(_ frame: CellBuffer) {
        state.withLock { state in
            state.lastDiff = FrameDiff(from: state.forgotten ? nil : state.frames.last, to: frame)
            state.frames.append(frame)
            state.drawnAt.append(clock.now)
            state.forgotten = false
        }
    }
}
