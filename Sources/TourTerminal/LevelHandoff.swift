@preconcurrency import Glibc
import CNcursesw
import Foundation
import TourCore

/// Lends the terminal to `tour play LEVEL`, this same program, as `EditorHandoff` lends it to an editor: the level's
/// board full screen until the player quits it, then the tutorial as it was. `tour play` records a win in progress
/// itself, when it happens.
enum LevelHandoff {
    /// Plays `level` on the tutorial's terminal and waits; nil when the game was played (won or left), else why not.
    static func play(_ level: String) -> String? {
        let status = TerminalLending.lend {
            // The tutorial ignores or handles these; the game starts with the defaults a program expects.
            let spawn = ProcessSpawn("/proc/self/exe", arguments: ["play", level],
                                     signals: .unblocked(atDefault: [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGWINCH, SIGCHLD]))
            return (try? spawn.start()).map { ProcessExit.reap($0).shellStatus }
        }
        switch status {
        // Won (0), or left before a failure (1).
        case 0?, 1?: return nil
        case let code?: return "tour play \(level) ended with status \(code) before its game: run it in a shell to see why."
        case nil: return "tour play \(level) could not start."
        }
    }
}

/// Curses mode off while `body` has the terminal, then on again, the keypad as ncurses reads it.
enum TerminalLending {
    static func lend<T>(_ body: () -> T) -> T {
        def_prog_mode()
        endwin()
        let result = body()
        reset_prog_mode()
        refresh()
        // Coming back from `endwin` does not put the keypad back in the mode whose keys ncurses reads, so the first
        // arrow key after the editor came as Escape, `[` and a letter.
        keypad(sw_stdscr(), true)
        return result
    }
}
