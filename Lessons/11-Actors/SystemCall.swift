import Foundation

/// The number of `futex(2)` on this machine's architecture, as `/proc/…/syscall` reports it.
#if arch(x86_64)
private let futexNumber = "202"
#elseif arch(arm64)
private let futexNumber = "98"
#else
private let futexNumber = "unknown"
#endif

/// `FUTEX_LOCK_PI | FUTEX_PRIVATE_FLAG`, the operation the Synchronization library's `_lockSlow` asks for, in the hex
/// `/proc` writes arguments in.
private let lockPIPrivate = "0x86"

/// Waits up to two seconds for the thread `thread()` names to be asleep in a priority-inheritance futex, and says what
/// system call and operation it was last seen in: `("futex", "FUTEX_LOCK_PI_PRIVATE")` once it sleeps there.
///
/// `/proc/self/task/<id>/syscall` gives the system call a blocked thread is in, then its arguments; a thread that is
/// running, or still spinning before it blocks, reads `running` instead, so the page looks again every millisecond.
func futexWait(of thread: () -> Int32, patience: Double = 2) -> (call: String, operation: String) {
    let deadline = DispatchTime.now() + patience
    var fields: [Substring] = []
    repeat {
        let id = thread()
        if id != 0, let line = try? String(contentsOfFile: "/proc/self/task/\(id)/syscall", encoding: .utf8) {
            fields = line.split(separator: " ")
            if fields.count > 2 && fields[0] == futexNumber && fields[2] == lockPIPrivate { break }
        }
        usleep(1_000)
    } while DispatchTime.now() < deadline
    guard fields.count > 2 else { return (fields.first.map(String.init) ?? "nothing readable", "no arguments") }
    let call = fields[0] == futexNumber ? "futex" : "system call \(fields[0])"
    let operation = fields[2] == lockPIPrivate ? "FUTEX_LOCK_PI_PRIVATE" : "operation \(fields[2])"
    return (call, operation)
}
