@preconcurrency import Glibc
import Dispatch
import ExerciseJudging
import Foundation
import RoomProtocol
import Synchronization
import TourCore
import TourInterface
import TourTerminal

/// `tour room`: the workshop leader's side of a room. The broker and the link come from a `RoomHosting` (the MQTT one,
/// or a test's fake); what they hear goes through one `RoomBoard`, drawn full screen (`RoomTerminal`), printed one
/// event a line (`--plain`) or once as a snapshot (`--json`).
public enum RoomCommand {
    /// How long `--json` waits at most for the states already in the room: a safety net for a broker that never answers,
    /// never the way it normally ends (that is the link's `caughtUp`).
    static let snapshotPatience: TimeInterval = 30

    /// The analysis the board judges by: the catalog's pages and their exercises.
    static func board(catalog: PageCatalog, now: Date) -> RoomBoard {
        RoomBoard(analysis: WorkshopAnalysis(pages: catalog.pages, exercises: ExerciseCatalog.ids), now: now)
    }

    /// Runs `tour room` as `options` ask, until q (full screen), Ctrl-C or a signal (`--plain`), or the snapshot
    /// (`--json`); the broker it started is stopped on the way out.
    public static func run(_ options: TourCommand.RoomOptions, hosting: any RoomHosting, catalog: PageCatalog,
                           environment: [String: String], theme: ThemeName) -> Never {
        let board = board(catalog: catalog, now: Date())
        if options.json {
            let outcome = snapshot(options.request, hosting: hosting, board: board, patience: snapshotPatience)
            for message in outcome.messages { FileHandle.standardError.write(Data("tour: \(message)\n".utf8)) }
            for line in outcome.lines { print(line) }
            exit(outcome.status.rawValue)
        }
        guard !options.plain, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            plain(options.request, hosting: hosting, board: board, style: .detect(forceBare: options.plain))
        }
        RoomTerminal.run(board: board, environment: environment, theme: theme) { hear throws(RoomInputError) in
            try hosting.open(options.request, hear: hear)
        }
    }

    /// `--json`: opens the room, waits until the link has caught up with the states retained in it (at most
    /// `patience`), and returns the board as one document; a broker that refuses or cannot be reached is said instead.
    static func snapshot(_ request: RoomRequest, hosting: any RoomHosting, board: RoomBoard, patience: TimeInterval) -> ProgressCommand.Outcome {
        var outcome = ProgressCommand.Outcome()
        let state = Mutex((board: board, settled: false))
        let settled = DispatchSemaphore(value: 0)
        let opened: OpenedRoom
        do {
            opened = try hosting.open(request) { feed in
                let now = Date()
                let signal = state.withLock { state -> Bool in
                    switch feed {
                    case .event(let event): state.board.receive(event, at: now)
                    case .status(let status): state.board.linkChanged(status, at: now)
                    case .notice(let text): state.board.noticed(text, at: now)
                    case .caughtUp: break
                    }
                    let done: Bool = switch feed {
                    case .caughtUp, .status(.refused): true
                    default: false
                    }
                    guard done, !state.settled else { return false }
                    state.settled = true
                    return true
                }
                if signal { settled.signal() }
            }
        } catch {
            outcome.messages = [error.description]
            outcome.status = .couldNotStart
            return outcome
        }
        let caughtUp = settled.wait(timeout: .now() + patience) == .success
        opened.close()
        var final = state.withLock { $0.board }
        final.address = opened.address
        switch (final.status, caughtUp) {
        case (.refused(let problem), _):
            outcome.messages = ["the broker at \(opened.address) refused the leader's link: \(problem)"]
            outcome.status = .couldNotStart
            return outcome
        case (.connected, false):
            outcome.messages = ["the room's states were not all confirmed within \(Int(patience)) s; the snapshot holds those that came"]
            outcome.status = .endedOtherwise
        case (let status, false):
            outcome.messages = ["could not reach the broker at \(opened.address) within \(Int(patience)) s (\(status.words()))"]
            outcome.status = .couldNotStart
            return outcome
        default:
            break
        }
        do {
            outcome.lines = [try RoomSnapshot(final).json()]
        } catch {
            outcome.messages.append("cannot write the room's snapshot as JSON: \(error)")
            outcome.status = .endedOtherwise
        }
        return outcome
    }

    /// `--plain`: the room's events one a line on standard output, in `style` (ASCII only with `--plain`), until Ctrl-C
    /// or a signal ends it, or the broker refuses the link; the broker started is stopped on the way out.
    static func plain(_ request: RoomRequest, hosting: any RoomHosting, board: RoomBoard, style: PlainStyle) -> Never {
        // Lines heard before the room is open (the link may connect first) wait until the opening lines are out.
        let log = Mutex((log: RoomPlainLog(board: board), waiting: [String]?.some([])))
        let opened: OpenedRoom
        do {
            opened = try hosting.open(request) { feed in
                // Written under the lock, so lines come out in the order heard.
                log.withLock { state in
                    let lines = state.log.lines(for: feed, at: Date())
                    if state.waiting != nil {
                        state.waiting? += lines
                    } else if !lines.isEmpty {
                        FileHandle.standardOutput.write(Data(lines.map { style.printable($0) + "\n" }.joined().utf8))
                    }
                }
                // Ended from the main queue: leaving stops the link, which must not be waited for on its own thread.
                if case .status(.refused) = feed { DispatchQueue.main.async { exit(ExitStatus.couldNotStart.rawValue) } }
            }
        } catch {
            FileHandle.standardError.write(Data("tour: \(error.description)\n".utf8))
            exit(ExitStatus.couldNotStart.rawValue)
        }
        log.withLock { state in
            state.log.setRoom(opened.address, password: opened.password)
            let opening = state.log.opening + (state.waiting ?? [])
            state.waiting = nil
            FileHandle.standardOutput.write(Data(opening.map { style.printable($0) + "\n" }.joined().utf8))
        }
        atexit { RoomCommand.closeOnExit.withLock { $0?() } }
        closeOnExit.withLock { $0 = opened.close }
        var stops: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let stop = DispatchSource.makeSignalSource(signal: number, queue: .main)
            stop.setEventHandler { exit(ExitStatus.endedAsExpected.rawValue) }
            stop.resume()
            stops.append(stop)
        }
        withExtendedLifetime(stops) { dispatchMain() }
    }

    /// What stops the room's broker and link when the process exits, however it does.
    private static let closeOnExit = Mutex<(@Sendable () -> Void)?>(nil)
}
