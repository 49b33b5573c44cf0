@preconcurrency import Glibc
import CNcursesw
import Foundation
import Synchronization
import TourCore
import TourInterface

/// `tour notes`: follows a presenter from a second terminal and shows the speaker what the room does not see
/// (`NotesView`). It draws with plain ANSI escapes on the terminal's alternate screen, ends on q (or Ctrl-C) or when
/// the presenter goes away, and gives the terminal back as it found it, saying why it ended.
public enum NotesTerminal {
    /// Follows `session`, or the newest live presenter when nil; returns only when it cannot start (status 1),
    /// after saying why.
    public static func run(session requested: String?, environment: [String: String]) -> Int32 {
        setlocale(LC_ALL, "")
        let folder: String
        do {
            folder = try NotesChannel.folder(environment: environment)
        } catch {
            return refuse("\(error)")
        }
        let sessions = NotesChannel.liveSessions(in: folder)
        let chosen: NotesChannel.Session
        if let requested {
            guard let match = sessions.first(where: { $0.name == requested }) else {
                return refuse("no presenter session \(requested) is live in \(folder); "
                              + (sessions.isEmpty ? "none is (start one with tour present)" : "the live ones are \(sessions.map(\.name).joined(separator: ", "))"))
            }
            chosen = match
        } else {
            guard let newest = sessions.first else {
                return refuse("no presenter is running for you on this machine (nothing in \(folder)); start one with tour present, then run tour notes again")
            }
            chosen = newest
        }
        let stream: AsyncThrowingStream<PresenterSnapshot, Error>
        do {
            stream = try NotesFollower.snapshots(from: chosen.socketPath)
        } catch {
            return refuse("\(error)")
        }
        let others = sessions.map(\.name).filter { $0 != chosen.name }
        let follower = Follower(session: chosen.name, others: others, environment: environment)
        follower.start(stream)
        dispatchMain()
    }

    private static func refuse(_ reason: String) -> Int32 {
        FileHandle.standardError.write(Data("tour notes: \(reason)\n".utf8))
        return 1
    }

    /// The running notes screen. `@unchecked Sendable`: everything but `ended` is touched only on the main queue.
    private final class Follower: @unchecked Sendable {
        private var state: NotesScreenState
        private var escapes: FrameEscapes
        private let glyphs: Glyphs
        private let onTerminal: Bool
        private var receivedAt = Date()
        private var sources: [DispatchSourceProtocol] = []
        private static let savedTerminal = Mutex<termios?>(nil)
        private let ended = Atomic<Bool>(false)

        init(session: String, others: [String], environment: [String: String]) {
            state = NotesScreenState(session: session, otherSessions: others)
            glyphs = CursesScreen.localeIsUTF8 ? .unicode : .ascii
            let terminal = environment["TERM"] ?? ""
            let theme = ColorTheme.choose(colors: terminal.contains("256color") ? 256 : 8,
                                          hasColors: !terminal.isEmpty && terminal != "dumb", environment: environment)
            escapes = FrameEscapes { theme.index(of: $0) }
            onTerminal = isatty(STDOUT_FILENO) == 1
        }

        func start(_ stream: AsyncThrowingStream<PresenterSnapshot, Error>) {
            if onTerminal { enterScreen() }
            for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
                source.setEventHandler { [self] in end("Notes ended by a signal; the presenter goes on.", status: 128 + signalNumber) }
                source.resume()
                sources.append(source)
            }
            signal(SIGWINCH, SIG_IGN)
            let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
            resize.setEventHandler { [self] in
                escapes.invalidate()
                draw()
            }
            resize.resume()
            sources.append(resize)
            if onTerminal {
                let keys = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
                keys.setEventHandler { [self] in readKeys() }
                keys.resume()
                sources.append(keys)
            }
            let clock = DispatchSource.makeTimerSource(queue: .main)
            clock.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(50))
            clock.setEventHandler { [self] in
                state.secondsSinceSnapshot = Date().timeIntervalSince(receivedAt)
                if onTerminal { draw() }
            }
            clock.resume()
            sources.append(clock)
            draw()
            Task { @MainActor [self] in
                do {
                    for try await snapshot in stream {
                        state.snapshot = snapshot
                        receivedAt = Date()
                        state.secondsSinceSnapshot = 0
                        draw()
                    }
                    end("The presenter (session \(state.session)) has gone: its talk ended or it quit. Notes ended.", status: 0)
                } catch {
                    end("The notes stopped: \(error)", status: 1)
                }
            }
        }

        private var size: Size {
            var rows: Int32 = 0
            var columns: Int32 = 0
            guard onTerminal, sw_terminal_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0 else {
                return Size(width: 80, height: 24)
            }
            return Size(width: Int(columns), height: Int(rows))
        }

        private func draw() {
            let buffer = NotesView.render(state, size: size, glyphs: glyphs)
            if onTerminal {
                write(escapes.escapes(for: buffer))
            } else {
                // Off a terminal (a pipe, a log), each snapshot is the screen's text, once.
                let rows = (0..<buffer.size.height).map { y in
                    String((0..<buffer.size.width).map { buffer[$0, y] }.filter { !$0.isContinuation }.map(\.character))
                        .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
                }
                write(rows.joined(separator: "\n") + "\n\n")
            }
        }

        private func readKeys() {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(STDIN_FILENO, &bytes, bytes.count)
            guard count > 0 else {
                if count == 0 { end("The terminal closed; notes ended.", status: 0) }
                return
            }
            // q, Q, Ctrl-C or Ctrl-D.
            if bytes[0..<count].contains(where: { [0x71, 0x51, 0x03, 0x04].contains($0) }) {
                end("Notes ended; the presenter (session \(state.session)) goes on.", status: 0)
            }
        }

        private func enterScreen() {
            var settings = termios()
            guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
            Self.savedTerminal.withLock { $0 = settings }
            atexit { Follower.leaveScreen() }
            var raw = settings
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            write("\u{1B}[?1049h\u{1B}[?25l")
        }

        /// The shell's screen back, the cursor shown and the terminal's settings as they were; once.
        private static func leaveScreen() {
            guard var settings = savedTerminal.withLock({ saved in defer { saved = nil }; return saved }) else { return }
            tcsetattr(STDIN_FILENO, TCSANOW, &settings)
            let text = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
            _ = text.withCString { Glibc.write(STDOUT_FILENO, $0, strlen($0)) }
        }

        private func end(_ message: String, status: Int32) {
            guard !ended.exchange(true, ordering: .sequentiallyConsistent) else { return }
            Self.leaveScreen()
            FileHandle.standardError.write(Data("tour notes: \(message)\n".utf8))
            exit(status)
        }

        private func write(_ text: String) {
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
}
