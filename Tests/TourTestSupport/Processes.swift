@preconcurrency import Glibc
import Foundation
import TourCore

/// True once `pid` has ended: gone, or a zombie that only its parent's wait still holds.
public func processHasEnded(_ pid: pid_t) -> Bool {
    if processIsGone(pid) { return true }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.range(of: ")", options: .backwards) else { return true }
    // The state follows the command name, which is in parentheses and may hold anything.
    return stat[close.upperBound...].dropFirst().first == "Z"
}

/// Waits until no process of group `group` exists, at most ten seconds; false if one still does.
///
/// A grandchild killed with its page is reparented to PID 1 and stays a zombie, still a member of its group, until
/// PID 1 reaps it; nothing tells this process when that happens, so this looks every 10 ms, suspended in between.
/// A run that left a live process behind fails here; a reaped group passes on the first or second look.
public func groupIsGone(_ group: pid_t, timeout: Double = 10) async -> Bool {
    await eventually(timeout: timeout) { kill(-group, 0) == -1 && errno == ESRCH }
}

/// Runs `executable` with `arguments` to its end, off Swift Testing's threads (`awaitBlocking`), and returns its exit
/// status and all it wrote to its standard output and error, interleaved as it wrote them.
public func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                     label: String) async throws -> (status: Int32, output: String) {
    try await awaitBlocking(label) { () throws -> (Int32, String) in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let data = try process.runCapturingOutput(withErrors: true)
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
