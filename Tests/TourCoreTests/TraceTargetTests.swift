import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourCommandLine
import TourTestSupport

/// `--trace FILE`: the target is checked before the page runs, only a regular file is ever replaced, and a write
/// that fails at the end is an exit status of its own. Every test works in a temporary folder of its own.
@Suite("Trace targets", .bodiesBelowTheRunner)
final class TraceTargetTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tour-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test func aNewFileOrARegularFileIsFine() throws {
        #expect(ChromeTrace.problem(withTarget: path("run.json")) == nil)
        try Data("old".utf8).write(to: URL(fileURLWithPath: path("old.json")))
        #expect(ChromeTrace.problem(withTarget: path("old.json")) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["old.json"], "the check leaves nothing behind")
    }

    @Test func everyOtherKindIsRefusedByName() throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: path("dir"), withIntermediateDirectories: false)
        try Data("the learner's notes".utf8).write(to: URL(fileURLWithPath: path("notes.txt")))
        try manager.createSymbolicLink(atPath: path("link.json"), withDestinationPath: path("notes.txt"))
        #expect(mkfifo(path("fifo.json"), 0o600) == 0)
        let cases: [(String, String)] = [
            (path("dir"), "--trace \(path("dir")) is a folder; name a file in it, for example --trace \(path("dir"))/run.json"),
            (path("link.json"), "--trace \(path("link.json")) is a symbolic link to \(path("notes.txt")); the trace would replace the link"),
            (path("fifo.json"), "--trace \(path("fifo.json")) is a named pipe (FIFO), not a regular file; name a regular file"),
            ("/dev/null", "--trace /dev/null is a device, not a regular file; name a regular file, for example --trace run.json"),
            (path("missing/run.json"), "--trace \(path("missing/run.json")) is in a folder that does not exist, \(path("missing")); "
                + "create it first (mkdir -p \(path("missing")))"),
            (path("notes.txt/run.json"), "is in a folder that does not exist, \(path("notes.txt"))"),
            (path("dir") + "/", "names a folder; name a file in it"),
            ("/proc/run.json", "--trace /proc/run.json cannot be written: no new file can be made in /proc"),
        ]
        for (target, message) in cases {
            let problem = try #require(ChromeTrace.problem(withTarget: target), "\(target) was accepted")
            #expect(problem.contains(message), "\(problem)")
        }
        #expect(PathKind.at(path("link.json")) == .symbolicLink(to: path("notes.txt")))
        #expect(PathKind.at(path("fifo.json")) == .fifo)
        #expect(PathKind.at("/dev/null") == .device)
        #expect(try String(contentsOfFile: path("notes.txt"), encoding: .utf8) == "the learner's notes")
    }

    /// The writer `tour run` and `tour check` share: each file named is written and said, and a file that cannot be
    /// written is said and ends the exports with false.
    @Test func runExportsWriteEachFileNamedOrSayWhyNot() throws {
        var record = RunRecord()
        record.apply(.started(pid: 100, time: 1_000))
        record.apply(.ended(.exited(code: 0), time: 2_000_000))
        var lines: [String] = []
        let both = RunExports(traceFile: path("check.json"), svgFile: path("check.svg"))
        #expect(both.problem == nil)
        #expect(both.write(record, title: "1 Cancel the filter (your exercise)") { lines.append($0) })
        #expect(lines.count == 2 && lines[0].hasPrefix("Trace written to \(path("check.json"))")
                && lines[1].hasPrefix("Timeline drawn in \(path("check.svg"))"), "\(lines)")
        #expect(PathKind.at(path("check.json")) == .regularFile && PathKind.at(path("check.svg")) == .regularFile)

        lines = []
        let gone = RunExports(svgFile: path("gone/check.svg"))
        #expect(gone.problem?.contains("is in a folder that does not exist") == true)
        #expect(!gone.write(record, title: "t") { lines.append($0) })
        #expect(lines.count == 1 && lines[0].hasPrefix("The picture was not written: --svg \(path("gone/check.svg"))"), "\(lines)")
    }
}
