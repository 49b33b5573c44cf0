@preconcurrency import Glibc
import CLinuxSystem
import Foundation
import Synchronization
import PageProtocol

/// Finds and ends every process a page started, wherever it went: each page gets its run's mark in its environment
/// (`TOUR_RUN=<host token>-<run>`), every process it starts inherits it, and `/proc/<pid>/environ` shows it.
///
/// A process group or a session does not hold a page's descendants: one `setsid()` leaves both, and a double fork
/// leaves the parent chain. A cgroup per run would hold them, but only root or a user given a delegated subtree (by
/// systemd) can make one; a learner's laptop or a CI container usually gives neither. The mark can be shed only by a
/// program that replaces its own environment on purpose.
public enum PageLineage {
    /// The environment variable that carries a run's mark.
    static let variable = "TOUR_RUN"
    /// This host's part of every mark: unique, so two hosts (or two test processes) never end each other's pages.
    static let hostToken = UUID().uuidString
    private static let nextRun = Atomic<Int>(1)

    /// A fresh mark for one run.
    static func newRunMark() -> String {
        "\(hostToken)-\(nextRun.add(1, ordering: .relaxed).oldValue)"
    }

    /// Kills every process carrying `mark` (one run), or any mark of this host when `mark` is nil, until none is
    /// left; false if some were still there after about `patience` seconds.
    ///
    /// It waits for each one to be really gone: a killed process keeps its environment readable until it
    /// has let go of its memory, just before it closes its descriptors, so the run's pipes reach their end right after.
    @discardableResult
    static func endAll(markedWith mark: String?, patience: Double = 2) -> Bool {
        let needle = "\0\(variable)=" + (mark.map { $0 + "\0" } ?? hostToken + "-")
        let deadline = monotonicNanoseconds() + UInt64(patience * 1e9)
        while true {
            let marked = processes(whoseEnvironmentContains: Array(needle.utf8))
            if marked.isEmpty { return true }
            for pid in marked { kill(pid, SIGKILL) }
            if monotonicNanoseconds() > deadline { return false }
            // They die within microseconds of the signal, unless the machine is busy: look again soon.
            usleep(2_000)
        }
    }

    /// Every living process but this one with the entry `NAME=value` in its environment, as `/proc` shows it. Processes
    /// of other users (unreadable) and zombies (an empty environment; they hold nothing) are never among them.
    public static func processes(withEnvironmentEntry entry: String) -> [pid_t] {
        processes(whoseEnvironmentContains: Array("\0\(entry)\0".utf8))
    }

    /// Every process but this one whose environment holds `needle`, read as NUL-separated `NAME=value` entries with a
    /// NUL put in front of the first.
    static func processes(whoseEnvironmentContains needle: [UInt8]) -> [pid_t] {
        let me = getpid()
        var found: [pid_t] = []
        var environment = [UInt8](repeating: 0, count: 16_384)
        FolderNames.forEach(in: "/proc") { name in
            guard let pid = pid_t(name), pid != me else { return }
            let descriptor = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            environment[0] = 0
            var length = 1
            while true {
                if length == environment.count { environment += [UInt8](repeating: 0, count: environment.count) }
                let count = environment.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + length, $0.count - length) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                length += count
            }
            close(descriptor)
            // The last entry may lack its closing NUL.
            if length == environment.count { environment.append(0) }
            environment[length] = 0
            if contains(environment[..<(length + 1)], needle) { found.append(pid) }
        }
        return found
    }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            guard let start = haystack[index...last].firstIndex(of: first) else { return false }
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            index = start + 1
        }
        return false
    }

    /// Starts, once per host, the keeper: a small shell that outlives the host by design. It waits for the end of a
    /// pipe only the host holds, which comes however the host ends (SIGKILL, a crash), then kills every process that
    /// carries one of this host's marks. The host's own ending does the same before it exits; the keeper covers the
    /// endings in which the host cannot.
    static func startKeeper() {
        _ = keeper
    }

    /// The keeper's pid, or nil when it could not be started (no `/bin/sh`); runs go on without it.
    public static var keeperPID: pid_t? { keeper }

    private static let keeper: pid_t? = {
        guard let pipe = try? CloseOnExecPipe() else { return nil }
        let (readEnd, writeEnd) = (pipe.readEnd, pipe.writeEnd)
        defer { close(readEnd) }
        // The write end is kept, unused, for the life of the host; close-on-exec, so no page or build inherits it.
        _ = writeEnd

        let fileActions: [ProcessSpawn.FileAction] = [
            .duplicate(readEnd, as: 0),
            // Not the host's output: a keeper holding a pipe the host writes to would keep its reader waiting.
            .open("/dev/null", flags: O_WRONLY, as: 1),
            .open("/dev/null", flags: O_WRONLY, as: 2),
            // The keeper lives as long as the host: any descriptor it inherited (a pipe another thread had just opened
            // without close-on-exec) would stay open that long, and whoever reads that pipe would never see its end.
            .closeAll(from: 3),
        ]

        // `read` returns at the end of the pipe (the host never writes to it): the shell's own builtin, so no second
        // program starts beside the page. `grep -z` reads each environment as NUL-separated lines; `^` anchors the
        // mark at the start of an entry.
        let script = """
            read _
            n=0
            while [ "$n" -lt 200 ]; do
              pids=$(grep -lsaz -e "^\(variable)=$1-" /proc/[0-9]*/environ | cut -d/ -f3)
              [ -z "$pids" ] && exit 0
              kill -9 $pids 2>/dev/null
              n=$((n + 1))
              sleep 0.01
            done
            """
        // Its own environment carries no mark, so it never counts itself among a page's processes. A session of its
        // own, so the terminal's Ctrl-C and hang-up, which end the host, leave it to do its work.
        let spawn = ProcessSpawn("/bin/sh", arguments: ["-c", script, "tour-keeper", hostToken], environment: ["PATH=/usr/bin:/bin"],
                                 fileActions: fileActions, signals: .pristine, leadsNewSession: true)
        guard let pid = try? spawn.start() else {
            close(writeEnd)
            return nil
        }
        return pid
    }()
}
