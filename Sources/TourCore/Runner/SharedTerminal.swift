@preconcurrency import Glibc
import Synchronization

/// The terminal on the host's standard input as a page that shares it (`TerminalAccess.shared`) found it: a page may
/// leave it in raw mode or without echo when it crashes or is killed, so the host puts the modes back however the run ends.
public enum SharedTerminal {
    private static let saved = Mutex<termios?>(nil)

    /// Whether standard input is a terminal a page can share.
    public static var isAvailable: Bool { isatty(STDIN_FILENO) == 1 }

    /// Remembers the terminal's modes, before the page runs.
    static func save() {
        var modes = termios()
        guard tcgetattr(STDIN_FILENO, &modes) == 0 else { return }
        saved.withLock { $0 = modes }
    }

    /// Puts the remembered modes back; does nothing when none were saved, or when the host is not in the terminal's
    /// foreground (run with `&`), where changing them would stop the host with SIGTTOU.
    public static func restore() {
        guard var modes = saved.withLock({ $0 }), tcgetpgrp(STDIN_FILENO) == getpgrp() else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &modes)
    }
}
