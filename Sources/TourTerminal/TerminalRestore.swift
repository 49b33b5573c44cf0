@preconcurrency import Glibc
import CNcursesw
import Synchronization
import TourCore

/// Gives the terminal back however the tutorial ends: quitting, a signal, or a crash of the tutorial itself.
enum TerminalRestore {
    /// Set while ncurses owns the terminal, so restoring happens once, whoever gets there first.
    static let cursesIsActive = Atomic<Bool>(false)

    /// Ends curses mode, if it is on: the shell's screen comes back and the cursor shows again.
    static func restore() {
        guard cursesIsActive.exchange(false, ordering: .sequentiallyConsistent) else { return }
        endwin()
    }

    /// The signals that mean the tutorial itself crashed: a Swift trap is SIGILL or SIGTRAP, a bad access SIGSEGV or SIGBUS.
    private static let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// The handlers in place before ours (the Swift runtime's backtracer, usually), by signal number.
    nonisolated(unsafe) private static let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)

    /// On a crash: restore the terminal, stop every page, then let the previous handler (or the default) finish the job,
    /// so the crash report lands on a usable terminal and no page is left running.
    static func installCrashHandlers() {
        for signal in crashSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                TerminalRestore.restore()
                LiveProcessGroups.shared.killAll()
                sigaction(signal, TerminalRestore.previousActions + Int(signal), nil)
                raise(signal)
                // A handler that returns (the backtracer does, for a signal sent with kill) must not leave the
                // tutorial running on a terminal it has given back.
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, previousActions + Int(signal))
        }
    }
}
