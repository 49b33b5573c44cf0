import Foundation
import PageProtocol

/// A game of a level: its program in `--play` mode, a step at a time, and the state it last sent. Plain play and the
/// board play through it.
///
/// A step the program does not answer in time is a thread that was let go and never reached its next gate (a loop
/// between gates, or a wait no gate knows of): the host's watchdog stops the program, and the problem names that
/// thread and where it was last seen, from the state before the step.
public final class LevelGame: @unchecked Sendable {
    private let process: LevelProcess
    /// The state the level sent last: after its start, then after each step.
    public private(set) var state: PlayState

    /// Starts the game, and reads its first state.
    init(_ process: LevelProcess) throws(LevelProblem) {
        self.process = process
        do {
            state = try process.next(PlayState.self)
        } catch {
            process.stop()
            throw error
        }
    }

    /// Sends `thread`'s number and returns the state the level sends back.
    @discardableResult
    public func step(_ thread: Int) throws(LevelProblem) -> PlayState {
        let before = state
        process.send(thread: thread)
        do {
            state = try process.next(PlayState.self)
        } catch where error.kind == .silent {
            throw LevelProblem(kind: .silent, description: "\(error.description): \(Self.lastSeen(thread, in: before))")
        }
        return state
    }

    /// Stops the level's program, if it still runs.
    public func stop() {
        process.stop()
    }

    /// "T2 was let go at line 14 (load count) and reached no gate after it: an endless loop between gates?"
    static func lastSeen(_ thread: Int, in state: PlayState) -> String {
        guard let column = state.threads.first(where: { $0.id == thread }) else { return "no thread \(thread) was there to step" }
        let name = TerminalText.sanitized(column.name)
        let place = column.line.map { "at line \($0)" } ?? "where it stood"
        let step = column.next.map { " (\(TerminalText.sanitized($0)))" } ?? ""
        return "\(name) was let go \(place)\(step) and reached no gate after it: an endless loop between gates?"
    }
}
