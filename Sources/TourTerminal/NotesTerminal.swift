@preconcurrency import Glibc
import CNcursesw
import Foundation
import Presenting
import Synchronization
import TourCore
import TourInterface

/// `tour notes`: follows a presenter from a second terminal and shows the speaker what the room does not see
/// (`NotesView`). It draws with plain ANSI escapes on the terminal's alternate screen, ends on q (or Ctrl-C) or when
/// the presenter goes away, and gives the terminal back as it found it, saying why it ended.
public enum NotesTerminal {
    /// How often `tour notes`, started before its presenter, looks for one.
    static let presenterLookInterval: DispatchTimeInterval = .milliseconds(200)

    /// Follows `session`, or the newest live presenter when nil; returns only when it cannot start (status 1),
    /// after saying why. Started before any presenter (or before the one named), it waits for one, saying so: a
    /// speaker opens both windows at once.
    public static func run(session requested: String?, environment: [String: String], theme: ThemeName = .dark) -> Int32 {
        setlocale(LC_ALL, "")
        let folder: String
        do {
            folder = try NotesChannel.folder(environment: environment)
        } catch {
            return refuse("\(error)")
        }
        if let reason = follow(session: requested, in: folder, environment: environment, theme: theme) { return refuse(reason) }
        dispatchMain()
    }

    /// Starts following the presenter `requested` names, or the newest; if none is live yet, says it waits and looks
    /// again every `presenterLookInterval` until one is. Returns why it cannot follow, or nil once it follows or waits.
    private static func follow(session requested: String?, in folder: String, environment: [String: String], theme: ThemeName) -> String? {
        switch NotesChannel.chooseSession(requested, in: folder) {
        case .found(let chosen, let others):
            let stream: AsyncThrowingStream<PresenterSnapshot, Error>
            do {
                stream = try NotesFollower.snapshots(from: chosen.socketPath)
            } catch {
                return "\(error)"
            }
            let follower = Follower(session: chosen.name, others: others.map(\.name), environment: environment, theme: theme)
            follower.start(stream)
            return nil
        case .notYet(let live):
            let wanted = requested.map { "presenter session \($0)" } ?? "presenter"
            let others = live.isEmpty ? "" : " (live now: \(live.map(\.name).joined(separator: ", ")))"
            FileHandle.standardError.write(Data("tour notes: waiting for a \(wanted) in \(folder)\(others); start one with tour present, or Ctrl-C ends this\n".utf8))
            // One look at a time, on the main queue, until a presenter appears; the timer is kept by its own handler.
            let look = DispatchSource.makeTimerSource(queue: .main)
            look.schedule(deadline: .now() + presenterLookInterval, repeating: presenterLookInterval)
            look.setEventHandler {
                guard case .found = NotesChannel.chooseSession(requested, in: folder) else { return }
                look.cancel()
                if let reason = follow(session: requested, in: folder, environment: environment, theme: theme) { exit(refuse(reason)) }
            }
            look.resume()
            return nil
        }
    }

    private static func refuse(_ reason: String) -> Int32 {
        FileHandle.standardError.write(Data("tour notes: \(reason)\n".utf8))
        return 1
    }

    /// The running notes screen. `@unchecked Sendable`: everything but `ended` is touched only on the main queue.
    private final class Follower: @unchecked Sendable {
        private var state: NotesScreenState
        private let screen: EscapeScreen
        private let glyphs: Glyphs
        private let onTerminal: Bool
        private var receivedAt = Date()
        private var sources: [DispatchSourceProtocol] = []
        private let ended = Atomic<Bool>(false)

        init(session: String, others: [String], environment: [String: String], theme name: ThemeName) {
            state = NotesScreenState(session: session, otherSessions: others)
            glyphs = CursesScreen.localeIsUTF8 ? .unicode : .ascii
            screen = AlternateScreen.screen(environment: environment, theme: name)
            onTerminal = isatty(STDOUT_FILENO) == 1
        }

        func start(_ stream: AsyncThrowingStream<PresenterSnapshot, Error>) {
            if onTerminal { AlternateScreen.enter() }
            for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
                source.setEventHandler { [self] in end("Notes ended by a signal; the presenter goes on.", status: 128 + signalNumber) }
                source.resume()
                sources.append(source)
            }
            sources.append(AlternateScreen.onResize(of: screen) { [self] in draw() })
            if onTerminal {
                sources.append(AlternateScreen.onKeys { [self] input in take(input) })
            }
            let clock = DispatchSource.makeTimerSource(queue: .main)
            clock.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(50))
            clock.setEventHandler { [self] in
                state.secondsSinceSnapshot = Date().timeIntervalSince(receivedAt)
                if onTerminal { draw() }
            }
            clock.resume()
            sources.append(clock)
            if onTerminal { draw() }
            Task { @MainActor [self] in
                do {
                    for try await snapshot in stream {
                        // Off a terminal a snapshot is printed whole, so one that moved only the clock is left out:
                        // a log of a talk holds each change once, not a screen a second.
                        let changed = !onTerminal && state.snapshot.map { $0.withoutClock != snapshot.withoutClock } ?? true
                        state.snapshot = snapshot
                        receivedAt = Date()
                        state.secondsSinceSnapshot = 0
                        if onTerminal || changed { draw() }
                    }
                    end("The presenter (session \(state.session)) has gone: its talk ended or it quit. Notes ended.", status: 0)
                } catch {
                    end("The notes stopped: \(error)", status: 1)
                }
            }
        }

        private func draw() {
            let buffer = NotesView.render(state, size: screen.size, glyphs: glyphs)
            if onTerminal {
                screen.draw(buffer)
            } else {
                // Off a terminal (a pipe, a log), each snapshot is the screen's text, once.
                let rows = (0..<buffer.size.height).map { y in
                    String((0..<buffer.size.width).map { buffer[$0, y] }.filter { !$0.isContinuation }.map(\.character))
                        .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
                }
                AlternateScreen.write(rows.joined(separator: "\n") + "\n\n")
            }
        }

        /// q, Q, Ctrl-C or Ctrl-D ends the notes, as the terminal closing does.
        private func take(_ input: AlternateScreen.KeyInput) {
            switch input {
            case .closed:
                end("The terminal closed; notes ended.", status: 0)
            case .keys(let keys):
                if keys.contains(.character("q")) || keys.contains(.character("Q")) {
                    end("Notes ended; the presenter (session \(state.session)) goes on.", status: 0)
                }
            }
        }

        private func end(_ message: String, status: Int32) {
            guard !ended.exchange(true, ordering: .sequentiallyConsistent) else { return }
            AlternateScreen.leave()
            FileHandle.standardError.write(Data("tour notes: \(message)\n".utf8))
            exit(status)
        }
    }
}

private extension PresenterSnapshot {
    /// The snapshot with its clock at zero: what is left is what the speaker has to read.
    var withoutClock: PresenterSnapshot {
        var copy = self
        copy.elapsedSeconds = 0
        return copy
    }
}
