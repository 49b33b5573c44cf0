@preconcurrency import Glibc
import Dispatch
import Synchronization
import TourCore
import TourInterface

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

    /// A screen on standard output, in the colours of theme `name` that the terminal (`TERM`) can show.
    static func screen(environment: [String: String], theme name: ThemeName) -> EscapeScreen {
        let terminal = environment["TERM"] ?? ""
        let theme = ColorTheme.choose(colors: terminal.contains("256color") ? 256 : 8,
                                      hasColors: !terminal.isEmpty && terminal != "dumb", environment: environment, name: name)
        return EscapeScreen(measure: { TerminalSize.ofStandardOutput() ?? Size(width: 80, height: 24) },
                            colorIndex: { theme.index(of: $0) }, write: write)
    }

    /// After each resize of the terminal, `screen` reads its size again and `redraw` runs, on the main queue; the
    /// source is the caller's to keep.
    static func onResize(of screen: EscapeScreen, redraw: @escaping () -> Void) -> DispatchSourceSignal {
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler {
            _ = screen.adoptTerminalSize()
            redraw()
        }
        resize.resume()
        return resize
    }

    /// What reading the keyboard gave: keys, or the end of its input (the terminal closed).
    enum KeyInput {
        case keys([Key])
        case closed
    }

    /// Reads the keys as they come, on the main queue, and hands them to `handle`; the source is the caller's to keep.
    /// The keys are raw (`enter` turns signals off), so Ctrl-C and Ctrl-D come as `q`, which quits every screen drawn
    /// this way. A read that fails (interrupted, or nothing to read after all) is waited out.
    static func onKeys(_ handle: @escaping (KeyInput) -> Void) -> DispatchSourceRead {
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(STDIN_FILENO, &bytes, bytes.count)
            if count == 0 { return handle(.closed) }
            guard count > 0 else { return }
            handle(.keys(keys(in: Array(bytes[0..<count]))))
        }
        source.resume()
        return source
    }

    /// The keys in raw input: the arrows and Page Up/Down by their escape sequences, Ctrl-C and Ctrl-D as `q`, any
    /// other character as itself.
    static func keys(in bytes: [UInt8]) -> [Key] {
        let sequences: [(String, Key)] = [("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown)]
        var rest = Substring(String(decoding: bytes, as: UTF8.self))
        var keys: [Key] = []
        while let first = rest.first {
            if let (sequence, key) = sequences.first(where: { rest.hasPrefix($0.0) }) {
                keys.append(key)
                rest = rest.dropFirst(sequence.count)
            } else {
                keys.append(first == "\u{03}" || first == "\u{04}" ? .character("q") : .character(first))
                rest = rest.dropFirst()
            }
        }
        return keys
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
