import TourCore
import TourInterface

/// Records the interface as an asciicast (`--record FILE.cast`): each frame drawn becomes the ANSI escapes that take
/// the screen from the frame before to it (`FrameEscapes`), stamped with its real time. A replay shows what the
/// room saw, frame by frame, whatever ncurses itself chose to send.
///
/// Touched only on the loop's queue, like the screen.
final class ScreenRecording {
    private let recorder: AsciicastRecorder
    private var escapes: FrameEscapes

    /// Starts the recording at `path` for a screen of `size`, in the colours of `theme`.
    init(path: String, size: Size, theme: ColorTheme) throws(AsciicastRecorder.Failure) {
        recorder = try AsciicastRecorder(path: path, width: size.width, height: size.height)
        escapes = FrameEscapes { theme.index(of: $0) }
    }

    var path: String { recorder.path }

    /// Adds the frame about to be drawn.
    func record(_ frame: CellBuffer) {
        recorder.record(escapes.escapes(for: frame))
    }

    /// Closes the file; the problem, if a line could not be written.
    func finish() -> String? {
        do {
            try recorder.finish()
            return nil
        } catch {
            return error.description
        }
    }
}
