@preconcurrency import Glibc
import Synchronization

/// The terminal's alternate screen with keys read raw, for a screen drawn with escapes (`EscapeScreen`) rather than
/// ncurses: `tour notes` and a level played full screen. `leave` gives the terminal back as `enter` found it, once,
/// and runs at exit too.
enum AlternateScreen {
    private static let savedTerminal = Mutex<termios?>(nil)

    /// Keys come one at a time, unechoed, Ctrl-C among them; the shell's screen is kept aside and the cursor hidden.
    static func enter() {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
        savedTerminal.withLock { $0 = settings }
        atexit { AlternateScreen.leave() }
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        write("\u{1B}[?1049h\u{1B}[?25l")
    }

    /// The shell's screen back, the cursor shown and the terminal's settings as they were; once.
    static func leave() {
        guard var settings = savedTerminal.withLock({ saved in defer { saved = nil }; return saved }) else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        let text = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
        _ = text.withCString { Glibc.write(STDOUT_FILENO, $0, strlen($0)) }
    }

    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            // `&bytes[offset]` would hand write(2) a pointer to a one-byte temporary, and it would send what follows
            // that byte in memory: the rest of the text must come from the array's own storage.
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
