@preconcurrency import Glibc
import Foundation
import Synchronization

/// A log of every page-run slot's life, for finding what decides how long the suite takes: when each run asked for
/// a slot, when it got one and how (`PageRunSlots`), when it gave it back, and how much CPU its page used.
///
/// Off unless `TOUR_TEST_RUN_LOG` names a file: `TOUR_TEST_RUN_LOG=/tmp/runs.tsv swift test`. One line per event,
/// tab-separated: seconds since 1970 (to line up with Swift Testing's event stream), the event, the slot's number,
/// then what the event says (`ask` label and urgency; `grant` how and how many slots are held; `measured`, when a run
/// that measures a speed-up has done so; `release`; `cpu` the page's pid and its user and system seconds, read from
/// `/proc` until it ended).
public enum RunLog {
    /// The log's file, when it is on.
    private static let file = Mutex<FileHandle?>({
        guard let path = ProcessInfo.processInfo.environment["TOUR_TEST_RUN_LOG"], !path.isEmpty,
              FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }())

    /// Whether events are logged.
    public static let isOn = file.withLock { $0 != nil }

    /// Writes one line, if the log is on.
    static func note(_ event: String, _ slot: Int, _ fields: String...) {
        note(event, slot, fields)
    }

    /// `note` with the fields in an array.
    static func note(_ event: String, _ slot: Int, _ fields: [String]) {
        guard isOn else { return }
        let time = String(format: "%.3f", Date().timeIntervalSince1970)
        let line = ([time, event, String(slot)] + fields).joined(separator: "\t") + "\n"
        file.withLock { $0?.write(Data(line.utf8)) }
    }

    /// Follows `pid`'s CPU time until it ends, reading it every 50 ms, and logs the last reading against `slot`;
    /// does nothing while the log is off.
    static func followCPU(of pid: Int32, slot: Int, last: (user: Double, system: Double) = (0, 0)) {
        guard isOn, pid > 0 else { return }
        guard let reading = cpuSeconds(of: pid) else {
            return note("cpu", slot, String(pid), String(format: "%.2f", last.user), String(format: "%.2f", last.system))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { followCPU(of: pid, slot: slot, last: reading) }
    }

    /// The user and system seconds `pid` has run so far; nil once it has ended.
    private static func cpuSeconds(of pid: Int32) -> (user: Double, system: Double)? {
        // `/proc/<pid>/stat`: after the command name in parentheses, the state, then utime and stime as fields 14 and 15.
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.range(of: ")", options: .backwards) else { return nil }
        let fields = text[close.upperBound...].split(separator: " ")
        guard fields.count > 13, fields[0] != "Z", let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let clockTicks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user / clockTicks, system / clockTicks)
    }
}
