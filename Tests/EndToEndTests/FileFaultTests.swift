import Foundation
import Testing
import TourCore
import TourTestSupport

/// The built `tour` against files that must not be trusted or replaced: a bad `--trace` target of every kind, and a
/// reset whose kept original is bad. Each asserts the message, the exit status, and that nothing the learner made
/// changed. `tour` works on a scratch package of its own (`TOUR_ROOT`), never on the checkout.
@Suite("tour refuses bad files", .bodiesBelowTheRunner)
final class FileFaultTests {
    let folder: URL
    let root: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tour-file-faults-\(UUID().uuidString)")
        root = folder.appendingPathComponent("package")
        let page = root.appendingPathComponent("Lessons/01-Operation")
        try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
        // A copy of page 1's text, so `tour` knows its knobs; the checkout's own file is only read.
        let checkout = PageCatalog.defaultRoot.appendingPathComponent("Lessons/01-Operation/main.swift")
        try FileManager.default.copyItem(at: checkout, to: page.appendingPathComponent("main.swift"))
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the built `tour` on the scratch package and waits for it without holding a thread of the test pool.
    func tour(_ arguments: [String]) async throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: "tour"))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TOUR_ROOT"] = root.path
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let ended = AsyncStream<Int32> { continuation in
            process.terminationHandler = { continuation.yield($0.terminationStatus); continuation.finish() }
        }
        try process.run()
        async let outputData = Self.readToEnd(output.fileHandleForReading)
        async let errorData = Self.readToEnd(errors.fileHandleForReading)
        var status: Int32 = -1
        for await code in ended { status = code }
        return Outcome(status: status, output: String(decoding: await outputData, as: UTF8.self),
                       errors: String(decoding: await errorData, as: UTF8.self))
    }

    /// Reads on a Dispatch thread: a blocking read must not take one of the test pool's threads.
    static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test func aBadTraceTargetOfEveryKindIsRefusedBeforeThePageRuns() async throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: path("results"), withIntermediateDirectories: false)
        try Data("the learner's notes\n".utf8).write(to: URL(fileURLWithPath: path("notes.txt")))
        try manager.createSymbolicLink(atPath: path("link.json"), withDestinationPath: path("notes.txt"))
        #expect(mkfifo(path("pipe.json"), 0o600) == 0)
        let cases: [(target: String, message: String)] = [
            (path("missing/run.json"), "is in a folder that does not exist, \(path("missing")); create it first"),
            (path("results"), "is a folder; name a file in it"),
            (path("link.json"), "is a symbolic link to \(path("notes.txt")); the trace would replace the link"),
            (path("pipe.json"), "is a named pipe (FIFO), not a regular file"),
            ("/dev/null", "is a device, not a regular file"),
            // Unwritable for root too: no file can be made in /proc.
            ("/proc/run.json", "cannot be written: no new file can be made in /proc"),
        ]
        for (target, message) in cases {
            let outcome = try await tour(["run", "1", "--plain", "--trace", target])
            #expect(outcome.status == 2, "\(target): \(outcome.errors)")
            #expect(outcome.errors.hasPrefix("tour: --trace \(target) "), "\(outcome.errors)")
            #expect(outcome.errors.contains(message), "\(outcome.errors)")
            #expect(outcome.output.isEmpty, "nothing ran for \(target): \(outcome.output)")
        }
        #expect(PathKind.at(path("link.json")) == .symbolicLink(to: path("notes.txt")))
        #expect(PathKind.at(path("pipe.json")) == .fifo)
        #expect(PathKind.at("/dev/null") == .device)
        #expect(try manager.contentsOfDirectory(atPath: path("results")).isEmpty)
        #expect(try String(contentsOfFile: path("notes.txt"), encoding: .utf8) == "the learner's notes\n")
        #expect(PathKind.at(path("missing")) == .missing)
    }

    @Test func resetWithAnEmptyManifestKeepsThePageAndSaysWhatToDo() async throws {
        let page = root.appendingPathComponent("Lessons/01-Operation/main.swift")
        let kept = root.appendingPathComponent(".tour/originals/01-Operation")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: page, to: kept.appendingPathComponent("main.swift"))
        try Data().write(to: kept.appendingPathComponent("manifest.txt"))
        let edit = Data("print(\"the learner's edit\")\n".utf8)
        try edit.write(to: page)

        let outcome = try await tour(["reset", "1"])

        #expect(outcome.status == 1)
        #expect(outcome.output.contains("Page 1 (operation): could not reset: .tour/originals/01-Operation/manifest.txt cannot be "
                                        + "trusted: it is empty. Nothing was changed. To start afresh, remove .tour/originals/01-Operation"),
                "\(outcome.output)")
        #expect(FileManager.default.contents(atPath: page.path) == edit, "the learner's page is untouched")
        #expect(PathKind.at(root.appendingPathComponent(".tour/before-reset").path) == .missing)
    }

    @Test func resetAndUndoOnTheCommandLine() async throws {
        let page = root.appendingPathComponent("Lessons/01-Operation/main.swift")
        let original = try Data(contentsOf: page)
        // The original is kept the way `tour watch` keeps it, then the learner edits.
        try OriginalPages(packageRoot: root).keepOriginal(of: try #require(PageCatalog.load(root: root).pages.first))
        let edit = Data("print(\"the learner's edit\")\n".utf8)
        try edit.write(to: page)

        let reset = try await tour(["reset", "operation"])
        #expect(reset.status == 0)
        #expect(reset.output.contains("Your version is kept: tour reset --undo operation puts it back."), "\(reset.output)")
        #expect(FileManager.default.contents(atPath: page.path) == original)

        let undo = try await tour(["reset", "--undo", "operation"])
        #expect(undo.status == 0, "\(undo.errors)")
        #expect(undo.output == "Page 1 (operation): restored main.swift; it is back to the version its last reset replaced.\n")
        #expect(FileManager.default.contents(atPath: page.path) == edit)
    }
}
