@preconcurrency import Glibc
import Foundation

/// Asks for a password on the terminal before the full screen starts, with echo off, and gives the terminal back as
/// it was however the question ends: an answer, the end of input, or Ctrl-C.
public enum PasswordPrompt {
    /// The terminal's settings before echo went off, for the Ctrl-C handler to put back.
    nonisolated(unsafe) private static let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)

    /// The line typed after `prompt` (printed on standard error), without its newline; nil at the end of input.
    public static func ask(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        guard tcgetattr(STDIN_FILENO, saved) == 0 else { return readLine() }
        var quiet = saved.pointee
        quiet.c_lflag &= ~tcflag_t(ECHO)
        var previous = sigaction()
        var interrupted = sigaction()
        interrupted.__sigaction_handler.sa_handler = { _ in
            tcsetattr(STDIN_FILENO, TCSANOW, PasswordPrompt.saved)
            _exit(130)
        }
        sigemptyset(&interrupted.sa_mask)
        sigaction(SIGINT, &interrupted, &previous)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        let line = readLine()
        tcsetattr(STDIN_FILENO, TCSANOW, saved)
        sigaction(SIGINT, &previous, nil)
        // The learner's Enter was not echoed: the next line starts on a line of its own.
        FileHandle.standardError.write(Data("\n".utf8))
        return line
    }
}
