@preconcurrency import Glibc
import Foundation
import TourCore
import PageProtocol

/// One start of a program to a line of its output: the wall time to that line, and the CPU time the whole process
/// used (user and system, from `wait4`), which a busy machine disturbs far less than the wall time.
struct TimedStart {
    var millisecondsToLine: Double
    var cpuMilliseconds: Double
}

/// Starts `arguments[0]` with its standard output on a pipe (stderr to /dev/null, stdin from /dev/null), times the
/// first line `isWanted` accepts, lets it run to its end and collects its CPU time; nil if it never printed that line.
/// Started with `posix_spawn` from this thread, as the host starts a page, so every program measured pays the same.
func timedStart(_ arguments: [String], where isWanted: (Substring) -> Bool) -> TimedStart? {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    let spawn = ProcessSpawn(arguments[0], arguments: Array(arguments.dropFirst()),
                             environment: ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" },
                             fileActions: [.duplicate(fds[1], as: 1), .open("/dev/null", flags: O_RDONLY, as: 0),
                                           .open("/dev/null", flags: O_WRONLY, as: 2), .close(fds[0])],
                             signals: .inherited)
    let start = monotonicNanoseconds()
    let started = try? spawn.start()
    close(fds[1])
    guard let pid = started else {
        close(fds[0])
        return nil
    }
    var pending: [UInt8] = []
    var found: Double?
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while case let count = buffer.withUnsafeMutableBytes({ read(fds[0], $0.baseAddress, $0.count) }), count != 0 {
        if count < 0 { if errno == EINTR { continue } else { break } }
        guard found == nil else { continue }
        pending += buffer[..<count]
        let lines = String(decoding: pending, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if lines.dropLast().contains(where: isWanted) { found = Double(monotonicNanoseconds() - start) / 1e6 }
    }
    close(fds[0])
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
    return found.map { TimedStart(millisecondsToLine: $0, cpuMilliseconds: cpu) }
}

/// Issue 13's start-up goals against their floors, all in turns so each comparison is taken under the same load:
/// `tour list` to its last line against `tour --version` (the same program, reading no page), and
/// `tour run N --plain` to the page's first line against the page started alone to the same line (goal 3: within
/// 5 ms). Both sides of a turn get the same `--seed` (the turn's number), so a page with random delays (page 8's
/// span lengths vary between about 80 and 330 ms) does the same work alone and hosted: each turn's difference is
/// then the host's cost, and its median is printed beside the difference of the medians.
/// `LAUNCH_PAGES` names the pages to run (`1,8` by default); `LAUNCH_RUNS` the turns (21). `LAUNCH_ALSO`
/// names other builds of `tour`, colon-separated (a copy of an older link beside this build's, so it finds the same
/// pages' programs), timed in the same turns: a change to how `tour` starts, against what it replaces, at one load.
func launchGoals() {
    let environment = ProcessInfo.processInfo.environment
    let runs = Int(environment["LAUNCH_RUNS"] ?? "") ?? 21
    let tours = [BuildProducts.executable(named: "tour")]
        + (environment["LAUNCH_ALSO"] ?? "").split(separator: ":").map { String($0) }
    guard let catalog = try? PageCatalog.load(), let last = catalog.pages.last else {
        Swift.print("launch: no pages found; set TOUR_ROOT to the checkout")
        return
    }
    let numbers = (environment["LAUNCH_PAGES"] ?? "1,8").split(separator: ",").compactMap { Int($0) }
    let pages = numbers.compactMap { number in catalog.pages.first { $0.number == number } }
    // `tour list`'s last line is the last page's, its number padded to the widest.
    let lastLine = String(last.number) + " "
    // A live line of plain mode: "   0.012s  main  [queue] text"; the page alone prints the text only, and narrates
    // ("   0.001s  [main] knob …") on stdout besides: its first printed line is the other kind.
    let liveLine = { (line: Substring) in line.firstMatch(of: /^ +\d+\.\d{3}s\s\s/) != nil }
    let printedLine = { (line: Substring) in !line.isEmpty && line.firstMatch(of: /^ +\d+\.\d{3}s  \[/) == nil }

    var version: [String: [TimedStart]] = [:], list: [String: [TimedStart]] = [:]
    var alone: [String: [TimedStart]] = [:], plain: [String: [TimedStart]] = [:]
    /// Each turn's hosted time to the first line less the page's own, same seed.
    var pairedLead: [String: [Double]] = [:]
    for turn in 1...runs {
        let seed = ["--seed", String(turn)]
        for tour in tours {
            version[tour, default: []] += [timedStart([tour, "--version"]) { $0.hasPrefix("tour ") }].compactMap { $0 }
            list[tour, default: []] += [timedStart([tour, "list"]) { $0.hasPrefix(lastLine) }].compactMap { $0 }
        }
        for page in pages {
            let own = timedStart([BuildProducts.executable(named: page.product)] + seed, where: printedLine)
            alone[page.product, default: []] += [own].compactMap { $0 }
            for tour in tours {
                let hosted = timedStart([tour, "run", String(page.number), "--plain"] + seed, where: liveLine)
                plain[tour + page.product, default: []] += [hosted].compactMap { $0 }
                if let own, let hosted {
                    pairedLead[tour + page.product, default: []].append(hosted.millisecondsToLine - own.millisecondsToLine)
                }
            }
        }
    }
    let wall = { (starts: [TimedStart]) in median(starts.map(\.millisecondsToLine)) }
    let cpu = { (starts: [TimedStart]) in median(starts.map(\.cpuMilliseconds)) }
    for tour in tours {
        let (listed, versions) = (list[tour] ?? [], version[tour] ?? [])
        Swift.print("\(tour):")
        guard !listed.isEmpty, !versions.isEmpty else {
            Swift.print("  tour list or tour --version printed no line (\(listed.count) and \(versions.count) of \(runs) runs)")
            continue
        }
        Swift.print(String(format: "  tour list to its last line: median %.1f ms (CPU %.1f ms); tour --version (the floor): %.1f ms (CPU %.1f ms); ratio %.2f (%d runs)",
                           wall(listed), cpu(listed), wall(versions), cpu(versions), wall(listed) / wall(versions), runs))
        for page in pages {
            let (hosted, own) = (plain[tour + page.product] ?? [], alone[page.product] ?? [])
            guard !hosted.isEmpty, !own.isEmpty else {
                Swift.print("  tour run \(page.number) --plain: no first line seen (\(hosted.count) hosted, \(own.count) alone)")
                continue
            }
            Swift.print(String(format: "  tour run %d --plain to the page's first line: median %.1f ms (CPU with the page %.1f ms); the page alone: %.1f ms (CPU %.1f ms); %+.1f ms (goal: at most +5); median of the turns' own differences %+.1f ms (%d runs)",
                               page.number, wall(hosted), cpu(hosted), wall(own), cpu(own), wall(hosted) - wall(own),
                               (pairedLead[tour + page.product] ?? []).isEmpty ? Double.nan : median(pairedLead[tour + page.product]!),
                               hosted.count))
        }
    }
}
