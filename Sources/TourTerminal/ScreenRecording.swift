import TourCore
import TourInterface

/// Records the interface as an asciicast (`--record FILE.cast`): each frame drawn becomes the ANSI escapes that take
/// the screen from the frame before to it (`FrameEscapes`), stamped with its real time. A replay shows what the
/// room saw, frame by frame, whatever ncurses itself chose to send.
///
/// A resize of the terminal is recorded as one (`"r"`), so a replay's frames after it fit; a page shown and a run started
/// are markers (`"m"`) a replay can jump to.
///
/// Touched only on the loop's queue, like the screen.
final class ScreenRecording {
    private let recorder: AsciicastRecorder
    private var escapes: FrameEscapes
    private var size: Size
    /// The page and the run last marked, so each is marked once.
    private var markedPage: Int?
    private var markedRun: Int?

    /// Starts the recording at `path` for a screen of `size`, in the colours of `theme`, titled `title`.
    init(path: String, size: Size, theme: ColorTheme, title: String) throws(AsciicastRecorder.Failure) {
        recorder = try AsciicastRecorder(path: path, width: size.width, height: size.height, title: title)
        escapes = FrameEscapes { theme.index(of: $0) }
        self.size = size
    }

    var path: String { recorder.path }

    /// Adds the frame about to be drawn, after a resize event when its size changed and a marker when `model` shows
    /// another page or has started another run.
    func record(_ frame: CellBuffer, of model: TourModel) {
        if frame.size != size {
            size = frame.size
            recorder.resize(width: size.width, height: size.height)
        }
        let page = model.currentPage
        if markedPage != model.current {
            markedPage = model.current
            recorder.mark("page \(page.page.number): \(page.page.title)")
        }
        if let run = page.runID, run != markedRun {
            markedRun = run
            recorder.mark("run of page \(page.page.number)")
        }
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
