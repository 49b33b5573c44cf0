@preconcurrency import Glibc
import CNcursesw
import TourInterface

/// The size of the terminal a file descriptor writes to, from the kernel (`TIOCGWINSZ`).
public enum TerminalSize {
    /// The terminal standard output is, or nil when it is not a terminal (a pipe, a file).
    public static func ofStandardOutput() -> Size? {
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard isatty(STDOUT_FILENO) == 1, sw_terminal_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0 else {
            return nil
        }
        return Size(width: Int(columns), height: Int(rows))
    }
}
