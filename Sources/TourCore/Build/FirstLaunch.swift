@preconcurrency import Glibc
import Foundation

/// What the first launch after a fresh build says, once: how long the learner waited, so one who just sat through
/// `swift run tour`'s first build knows the wait is over for good.
///
/// `swift run` builds `tour`, then execs it in its own process, so the kernel's start time of this process is the
/// moment the learner typed the command: the wait is the process's age when the first frame is about to be drawn,
/// build included. Started by hand after a separate `swift build`, the process is young, and the build is measured
/// from files it left instead: SwiftPM writes `workspace-state.json` when it makes the package's build folder, and
/// linking `tour` is the last step of building it. Either is said only when the build folder is new since the last
/// launch that said it, and only for a span one build can take, so a folder made long before a later, small rebuild
/// never passes for a slow build.
public enum FirstLaunch {
    /// Longer than any first build takes: a longer span means the build folder was made by an earlier build.
    static let longestBuild: TimeInterval = 30 * 60
    /// A launch older than this when it is about to draw waited for a build: `tour` alone opens in milliseconds.
    static let launchWithoutBuild: TimeInterval = 2

    /// "Ready in 52 s, the build included; later launches open at once." on the first launch after a build that
    /// made the build folder, nil on every other launch. `launchAge` is how long ago this process started (by default
    /// read from the kernel). Records in `.tour/` under `packageRoot` that it was said; nil when it cannot, since it
    /// could not promise to say it only once.
    public static func buildNotice(packageRoot: URL,
                                   executable: URL = BuildProducts.directory.appendingPathComponent("tour"),
                                   launchAge: TimeInterval? = processAge()) -> String? {
        let files = FileManager.default
        guard let built = modificationDate(executable),
              let buildFolder = Self.buildFolder(of: executable),
              let folderMade = modificationDate(buildFolder.appendingPathComponent("workspace-state.json")) else { return nil }
        let stamp = packageRoot.appendingPathComponent(".tour/launched-build")
        let told = (try? String(contentsOf: stamp, encoding: .utf8)).flatMap(TimeInterval.init)
        // Said already for a program built in this folder: the folder is not new since.
        if let told, told >= folderMade.timeIntervalSince1970 { return nil }
        do {
            try files.createDirectory(at: stamp.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(String(built.timeIntervalSince1970).utf8).write(to: stamp, options: .atomic)
        } catch {
            return nil
        }
        if let launchAge, launchAge >= launchWithoutBuild, launchAge <= longestBuild {
            return "Ready in \(Int(launchAge.rounded())) s, the build included; later launches open at once."
        }
        let seconds = built.timeIntervalSince(folderMade)
        guard seconds > 0, seconds <= longestBuild else { return nil }
        return "Built in \(Int(seconds.rounded())) s; later launches open at once."
    }

    /// How long ago this process started, from the kernel's record of it (`/proc/self/stat`, field 22, in clock ticks
    /// since boot); nil where that cannot be read.
    public static func processAge() -> TimeInterval? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")") else { return nil }
        // After the name, which may hold spaces, the fields start at the third, the state: the start time is the 20th.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        var now = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return nil }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// SwiftPM's build folder for a program in it, `.build/<triple>/<configuration>/tour`: the nearest folder up
    /// that holds `workspace-state.json`.
    private static func buildFolder(of executable: URL) -> URL? {
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<3 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("workspace-state.json").path) { return folder }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    private static func modificationDate(_ file: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
    }
}
