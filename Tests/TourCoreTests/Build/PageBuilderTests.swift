import Foundation
import Synchronization
import Testing
@testable import TourCore
import TourTestSupport

/// PageBuilder against a stand-in `swift` first on PATH: the real command line, streaming, diagnostics,
/// cancellation and the timeout, without a real rebuild (which would take seconds in a copy of the package).
@Suite("Page builder", .timeLimit(.minutes(1)))
final class PageBuilderTests {
    let folder: URL

    init() throws {
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("builder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Writes the stand-in for `swift` that the builder runs.
    func standIn(_ body: String) throws {
        try writeExecutable("#!/bin/sh\n\(body)\n", to: folder.appendingPathComponent("swift"))
    }

    func builder(timeout: Double = 30) -> PageBuilder {
        PageBuilder(packageRoot: URL(fileURLWithPath: "/work/pkg"), productsDirectory: folder, timeout: timeout,
                    environment: ["PATH": "\(folder.path):/usr/bin:/bin"])
    }

    @Test func commandLineForTheDefaultBuildFolder() async throws {
        try standIn("exit 0")
        let builder = builder()
        #expect(builder.swiftExecutable == folder.appendingPathComponent("swift").path)
        #expect(builder.scratchPath == nil && builder.configuration == "debug")
        #expect(builder.arguments(product: "Lesson01Operation") == ["build", "--package-path", "/work/pkg", "--product", "Lesson01Operation"])
    }

    @Test func buildsIntoTheFolderTourRunsPagesFrom() async throws {
        // `<scratch>/<triple>/<configuration>`, as SwiftPM lays it out, with `--scratch-path` or without.
        let products = folder.appendingPathComponent("scratch/x86_64-unknown-linux-gnu/release")
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("scratch/release.yaml"))
        let builder = PageBuilder(packageRoot: URL(fileURLWithPath: "/work/pkg"), productsDirectory: products)
        #expect(builder.arguments(product: "Lesson02Queue") == ["build", "--package-path", "/work/pkg", "--product", "Lesson02Queue",
                                                                "-c", "release", "--scratch-path", folder.appendingPathComponent("scratch").path])
        // The test runner itself lives in such a folder: the builder targets the build these tests came from.
        let real = PageBuilder(packageRoot: PageCatalog.defaultRoot)
        let scratch = BuildProducts.directory.deletingLastPathComponent().deletingLastPathComponent()
        #expect(real.scratchPath == nil || real.scratchPath == scratch)
    }

    @Test func rerunsSwiftPMsPlanWhenItCoversExactlyThePageFiles() async throws {
        let products = folder.appendingPathComponent("scratch/x86_64-unknown-linux-gnu/debug")
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        // The shape of the two entries SwiftPM writes for a page into `debug.yaml`.
        try Data("""
            commands:
              "C.Lesson01Operation-x86_64-unknown-linux-gnu-debug.exe":
                tool: shell
                inputs: ["/p/.build/main.swift.o"]
                args: ["/opt/swift/usr/bin/swiftc","-o","/p/.build/Lesson01Operation"]

              "C.Lesson01Operation-x86_64-unknown-linux-gnu-debug.module":
                tool: shell
                inputs: ["/p/Lessons/01-Operation/main.swift","/p/.build/Modules/LessonKit.swiftmodule"]
                args: ["/opt/swift/usr/bin/swiftc","-module-name","Lesson01Operation","-parseable-output","-c"]

            """.utf8).write(to: folder.appendingPathComponent("scratch/debug.yaml"))
        let builder = PageBuilder(packageRoot: URL(fileURLWithPath: "/p"), productsDirectory: products)
        let main = URL(fileURLWithPath: "/p/Lessons/01-Operation/main.swift")
        #expect(builder.plannedCommands(product: "Lesson01Operation", sources: [main]) == [
            ["/opt/swift/usr/bin/swiftc", "-module-name", "Lesson01Operation", "-c"],
            ["/opt/swift/usr/bin/swiftc", "-o", "/p/.build/Lesson01Operation"],
        ])
        // A helper file the plan does not know: only `swift build` can add it.
        #expect(builder.plannedCommands(product: "Lesson01Operation", sources: [main, URL(fileURLWithPath: "/p/Lessons/01-Operation/New.swift")]) == nil)
        #expect(builder.plannedCommands(product: "Lesson02Queue", sources: [main]) == nil)
    }

    @Test func plannedStepsRunInOrderAndStopAtTheFirstFailure() async throws {
        try standIn("echo \"step $*\"; [ \"$1\" = ok ]")
        let swift = folder.appendingPathComponent("swift").path
        let build = PageBuild(builder: builder(), product: "P", steps: [[swift, "ok"], [swift, "fails"], [swift, "ok"]]) { _ in }
        let outcome = await build.finished()
        #expect(outcome.status == .failed)
        #expect(outcome.output == ["step ok", "step fails"])
    }

    @Test func streamsLinesAndReportsDiagnostics() async throws {
        try standIn("""
            echo "args: $*"
            echo "[3/6] Compiling Lesson01Operation main.swift"
            echo "/p/Lessons/01-Operation/main.swift:22:5: error: invalid redeclaration of 'photo'"
            echo " 21 | let photo = 1"
            echo "    |     \\`- note: 'photo' previously declared here"
            echo " 22 | let photo = 3"
            echo "    |     \\`- error: invalid redeclaration of 'photo'"
            echo "warning: prohibited flag(s)" >&2
            exit 1
            """)
        let lines = Mutex<[BuildOutputLine]>([])
        let outcome = await builder().build(product: "Lesson01Operation") { line in lines.withLock { $0.append(line) } }.finished()
        #expect(outcome.status == .failed)
        let streamed = lines.withLock { $0 }
        // Two pipes: the order between stdout and stderr lines is not defined, only within each.
        #expect(streamed.first { $0.stream == .stdout } == BuildOutputLine(stream: .stdout, text: "args: build --package-path /work/pkg --product Lesson01Operation"))
        #expect(streamed.contains(BuildOutputLine(stream: .stderr, text: "warning: prohibited flag(s)")))
        #expect(outcome.output.count == 8)
        #expect(outcome.diagnostics.errors.map(\.shortDescription) == ["main.swift:22:5: error: invalid redeclaration of 'photo'"])
        #expect(outcome.diagnostics.errors.first?.notes.map(\.line) == [21])
    }

    @Test func success() async throws {
        try standIn("echo 'Build of product complete!'")
        let outcome = await builder().build(product: "Lesson01Operation").finished()
        #expect(outcome.status == .succeeded)
        #expect(outcome.output == ["Build of product complete!"])
    }

    @Test func cancelStopsTheWholeGroup() async throws {
        let pidFile = folder.appendingPathComponent("grandchild-pid").path
        // A grandchild, like the compiler jobs of a real build, that writes its pid (by rename, so whole) and would
        // run for a minute; the build says it started only once the pid is there.
        try standIn("""
            sh -c 'echo $$ > "$1.new" && mv "$1.new" "$1" && exec sleep 60' grandchild '\(pidFile)' &
            while [ ! -s '\(pidFile)' ]; do sleep 0.01; done
            echo started
            wait
            """)
        let started = Occurrences()
        let build = builder().build(product: "Lesson01Operation") { _ in started.signal() }
        try #require(await started.next())
        let grandchild = try #require(pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        build.cancel()
        let outcome = await build.finished()
        #expect(outcome.status == .cancelled)
        // Killed with its group, it is gone (or a zombie until PID 1 reaps it) at once; a minute's sleep outlived
        // nothing but a cancel that missed it.
        #expect(await eventually(timeout: 10) { processHasEnded(grandchild) }, "the grandchild \(grandchild) outlived the cancel")
    }

    @Test func aHungBuildTimesOut() async throws {
        try standIn("echo compiling; exec sleep 60")
        let outcome = await builder(timeout: 0.5).build(product: "Lesson01Operation").finished()
        #expect(outcome.status == .timedOut)
        #expect(outcome.output == ["compiling"])
    }

    @Test func noSwiftOnPath() async throws {
        let builder = PageBuilder(packageRoot: folder, productsDirectory: folder, environment: ["PATH": folder.path])
        let status = await builder.build(product: "X").finished().status
        let message = try #require(status.couldNotStartReason, "expected couldNotStart, got \(status)")
        #expect(message.contains("no swift on PATH"))
    }
}

extension BuildOutcome.Status {
    /// Why `swift` could not be started, for `couldNotStart`; nil for any other status.
    var couldNotStartReason: String? {
        if case .couldNotStart(let reason) = self { reason } else { nil }
    }
}
