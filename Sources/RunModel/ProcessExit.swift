@preconcurrency import Glibc

/// How a child process ended: the one decoder of the status `waitpid` reports, for pages, builds and editors alike.
public enum ProcessExit: Equatable, Sendable {
    /// The process called `exit` (or returned from `main`) with this code, 0 to 255.
    case exited(code: Int32)
    /// A signal ended the process; whether it left a core dump does not matter here.
    case killed(signal: Int32)

    /// Decodes a raw status as Linux encodes it (`WIFEXITED`, `WEXITSTATUS` and `WTERMSIG` are C macros Swift
    /// cannot call): the signal in bits 0–6, 0 when the process exited; then the exit code in bits 8–15;
    /// bit 7 for a core dump. Waits here never pass `WUNTRACED`, so the status of a stopped process never comes.
    public init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited(code: (status >> 8) & 0xff) : .killed(signal: signal)
    }

    /// Waits until the child `pid` ends and reaps it, carrying on when a signal interrupts the wait.
    public static func reap(_ pid: pid_t) -> ProcessExit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return ProcessExit(waitStatus: status)
    }

    /// Whether the process exited with code 0.
    public var succeeded: Bool {
        self == .exited(code: 0)
    }

    /// The status a shell gives for it in `$?`: the exit code, or 128 plus the signal's number.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): code
        case .killed(let signal): 128 + signal
        }
    }
}
