import Foundation

/// What the first launch after a fresh build says, once: how long the build took, so a learner who just waited
/// through `swift run tour`'s first build knows the wait is over for good.
///
/// `tour` starts only after SwiftPM has built it, so it can only learn about the build after the fact, from files
/// the build left: SwiftPM writes `workspace-state.json` when it makes the package's build folder, before compiling
/// anything, and linking `tour` is the build's last step (it depends on every page). The time between the two is
/// the build's, measured; it is said only when the build folder is new since the last launch that said it, and only
/// for a span one build can take, so a folder made long before a later, small rebuild never passes for a slow build.
public enum FirstLaunch {
    /// Longer than any first build takes: a longer span means the build folder was made by an earlier build.
    static let longestBuild: TimeInterval = 30 * 60

    /// "Built in 49 s; later launches open at once." on the first launch after a build that made the build folder,
    /// nil on every other launch. Records in `.tour/` under `packageRoot` that it was said; nil when it cannot, since
    /// it could not promise to say it only once.
    public static func buildNotice(packageRoot: URL,
                                   executable: URL = BuildProducts.directory.appendingPathComponent("tour")) -> String? {
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
        let seconds = built.timeIntervalSince(folderMade)
        guard seconds > 0, seconds <= longestBuild else { return nil }
        return "Built in \(Int(seconds.rounded())) s; later launches open at once."
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
