@preconcurrency import Glibc
import Foundation
import PageProtocol
import TourCore
import TourInterface

/// `tour play <level>` on a terminal: the level's board full screen (`LevelBoard`, `LevelBoardView`), drawn with escapes
/// on the alternate screen. Keys are handled on the main queue; the level's program is run on a queue of its own, a
/// step or a replay at a time, so a level slow to answer never holds the keys. `u` and `r` replay the schedule (but its
/// last step, or none) in a fresh game: a real run cannot be stepped back.
public enum LevelPlayTerminal {
    /// Plays until q (or Ctrl-C, Ctrl-D), from the state `firstSteps` lead to, gives the terminal back, and ends the
    /// process with what `finish` makes of the last state: it prints the win and returns the status. `recordWin` is
    /// given each win of the level as written when it happens (once a run), off the main queue, before the process ends.
    public static func run(_ level: Level, description: LevelDescription, fixed: Bool, firstSteps: [Int], programs: LevelPrograms,
                           environment: [String: String], theme: ThemeName,
                           recordWin: @escaping @Sendable (PlayState) -> Void,
                           finish: @escaping @Sendable (PlayState?) -> Int32) -> Never {
        setlocale(LC_ALL, "")
        let source = ((try? String(contentsOf: level.sourceFolder.appendingPathComponent("main.swift"), encoding: .utf8)) ?? "")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let game = Game(board: LevelBoard(description: description, source: source, fixed: fixed), level: level, firstSteps: firstSteps,
                        programs: programs,
                        environment: environment, theme: theme, recordWin: recordWin, finish: finish)
        DispatchQueue.main.async { game.start() }
        dispatchMain()
    }

    /// The running game. `@unchecked Sendable`: `board`, `screen` and `sources` are touched only on the main queue,
    /// `game` only on `levelQueue`.
    private final class Game: @unchecked Sendable {
        private var board: LevelBoard
        private let screen: EscapeScreen
        private let glyphs: Glyphs
        private let level: Level
        /// The board's, for the level's queue.
        private let levelName: String
        private let fixed: Bool
        /// The schedule replayed first (`--schedule FILE`).
        private let firstSteps: [Int]
        private let programs: LevelPrograms
        private let finish: @Sendable (PlayState?) -> Int32
        private let recordWin: @Sendable (PlayState) -> Void
        /// Where wins are recorded: a progress write waits for the file's lock, and the keys must not wait with it.
        private let progressQueue = DispatchQueue(label: "tour-level-progress")
        private var sources: [DispatchSourceProtocol] = []
        private let levelQueue = DispatchQueue(label: "tour-level-play")
        private var game: LevelGame?

        init(board: LevelBoard, level: Level, firstSteps: [Int], programs: LevelPrograms, environment: [String: String],
             theme name: ThemeName, recordWin: @escaping @Sendable (PlayState) -> Void, finish: @escaping @Sendable (PlayState?) -> Int32) {
            self.board = board
            self.level = level
            levelName = board.description.name
            fixed = board.fixed
            self.firstSteps = firstSteps
            self.programs = programs
            self.finish = finish
            self.recordWin = recordWin
            glyphs = CursesScreen.localeIsUTF8 ? .unicode : .ascii
            screen = AlternateScreen.screen(environment: environment, theme: name)
        }

        func start() {
            AlternateScreen.enter()
            let resize = AlternateScreen.onResize(of: screen) { [self] in draw() }
            let keys = AlternateScreen.onKeys { [self] input in take(input) }
            sources = [resize, keys]
            draw()
            carryOut(.replay(firstSteps))
        }

        private func draw() {
            screen.draw(LevelBoardView.render(board, size: screen.size, glyphs: glyphs))
        }

        /// Ctrl-C and Ctrl-D end the game as q does (`AlternateScreen.onKeys`), and so does the end of input.
        private func take(_ input: AlternateScreen.KeyInput) {
            guard case .keys(let keys) = input else { return end() }
            for key in keys {
                if let command = board.press(key) { carryOut(command) }
            }
            draw()
        }

        private func carryOut(_ command: LevelBoard.Command) {
            switch command {
            case .quit: end()
            case .step(let thread):
                levelQueue.async { [self] in
                    answer { () throws(LevelProblem) in
                        guard let game else { throw LevelProblem(kind: .ended, description: "level \(levelName) is not running") }
                        return try game.step(thread)
                    }
                }
            case .replay(let steps):
                levelQueue.async { [self] in
                    answer { () throws(LevelProblem) in
                        game?.stop()
                        game = nil
                        let fresh = try programs.play(level, fixed: fixed)
                        game = fresh
                        for thread in steps { try fresh.step(thread) }
                        return fresh.state
                    }
                }
            }
        }

        /// Runs `play` on the level's queue and shows its state, or its problem, on the main queue.
        private func answer(_ play: () throws(LevelProblem) -> PlayState) {
            let outcome = Result { () throws(LevelProblem) in try play() }
            DispatchQueue.main.async { [self] in
                switch outcome {
                case .success(let state):
                    if board.show(state) { progressQueue.async { [recordWin] in recordWin(state) } }
                case .failure(let problem): board.fail(problem.description)
                }
                draw()
            }
        }

        private func end() {
            AlternateScreen.leave()
            levelQueue.sync { game?.stop() }
            progressQueue.sync {}
            exit(finish(board.state))
        }
    }
}
