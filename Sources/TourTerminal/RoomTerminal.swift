@preconcurrency import Glibc
import Foundation
import RoomProtocol
import TourCore
import TourInterface

/// `tour room` on a terminal: the leader's dashboard full screen (`RoomBoard`, `RoomBoardView`), drawn with escapes on
/// the alternate screen as a level's board is. What the link hears is folded in on the main queue; the screen is drawn
/// at most ten times a second however fast the room talks, and once a second the board is told the time, so "no
/// progress for 10 minutes" comes without a message.
public enum RoomTerminal {
    /// Opens the room with `open` (said on standard error, exit 3, when it cannot be), shows the dashboard until q,
    /// Ctrl-C, Ctrl-D or a signal, then leaves the room, which stops the broker it started, and exits.
    public static func run(board: RoomBoard, environment: [String: String], theme: ThemeName,
                           open: (@escaping @Sendable (RoomFeed) -> Void) throws(RoomInputError) -> OpenedRoom) -> Never {
        setlocale(LC_ALL, "")
        let dashboard = Dashboard(board: board, environment: environment, theme: theme)
        let opened: OpenedRoom
        do {
            opened = try open { feed in
                let time = Date()
                DispatchQueue.main.async { dashboard.take(feed, at: time) }
            }
        } catch {
            FileHandle.standardError.write(Data("tour: \(error.description)\n".utf8))
            exit(3)
        }
        dashboard.start(opened)
        dispatchMain()
    }

    /// The dashboard on screen. `@unchecked Sendable`: everything in it is touched only on the main queue.
    private final class Dashboard: @unchecked Sendable {
        private var board: RoomBoard
        private let screen: EscapeScreen
        private let glyphs: Glyphs
        private var opened: OpenedRoom?
        private var sources: [DispatchSourceProtocol] = []
        /// Something changed since the screen was last drawn.
        private var stale = true

        init(board: RoomBoard, environment: [String: String], theme: ThemeName) {
            self.board = board
            glyphs = CursesScreen.localeIsUTF8 ? .unicode : .ascii
            screen = AlternateScreen.screen(environment: environment, theme: theme)
        }

        func start(_ room: OpenedRoom) {
            opened = room
            board.address = room.address
            board.password = room.password
            AlternateScreen.enter()
            let resize = AlternateScreen.onResize(of: screen) { [self] in draw() }
            let keys = AlternateScreen.onKeys { [self] input in take(input) }
            let frames = DispatchSource.makeTimerSource(queue: .main)
            frames.schedule(deadline: .now(), repeating: .milliseconds(100), leeway: .milliseconds(20))
            frames.setEventHandler { [self] in if stale { draw() } }
            frames.resume()
            let clock = DispatchSource.makeTimerSource(queue: .main)
            clock.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
            clock.setEventHandler { [self] in
                board.tick(Date())
                stale = true
            }
            clock.resume()
            sources = [resize, keys, frames, clock]
            for number in [SIGTERM, SIGHUP] {
                signal(number, SIG_IGN)
                let stop = DispatchSource.makeSignalSource(signal: number, queue: .main)
                stop.setEventHandler { [self] in end() }
                stop.resume()
                sources.append(stop)
            }
            draw()
        }

        func take(_ feed: RoomFeed, at time: Date) {
            switch feed {
            case .event(let event): board.receive(event, at: time)
            case .status(let status): board.linkChanged(status, at: time)
            case .notice(let text): board.noticed(text, at: time)
            case .caughtUp: return
            }
            stale = true
        }

        private func draw() {
            stale = false
            screen.draw(RoomBoardView.render(board, size: screen.size, glyphs: glyphs))
        }

        /// q (Ctrl-C, Ctrl-D) quits, the arrows and Page Up/Down scroll; the end of input quits too.
        private func take(_ input: AlternateScreen.KeyInput) {
            guard case .keys(let keys) = input else { return end() }
            for key in keys {
                if board.press(key, rowsShown: max(screen.size.height - 12, 1)) == .quit { return end() }
            }
            draw()
        }

        private func end() {
            AlternateScreen.leave()
            opened?.close()
            exit(0)
        }
    }
}
