import Foundation
import Synchronization
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// PageBuilder against a stand-in `swift` first on PATH: the real command line, streaming, diagnostics,
/// cancellation and the timeout, without a real rebuild (which would take seconds in a copy of the package).
@Suite("Page builder", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
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

    @Test func theDirectRouteIsRefusedWhenThePlanNoLongerHolds() async throws {
        let products = folder.appendingPathComponent("scratch/x86_64-unknown-linux-gnu/debug")
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        // Made anew each time: the builder finds its build folder by the plan in it.
        var builder: PageBuilder { PageBuilder(packageRoot: URL(fileURLWithPath: "/p"), productsDirectory: products) }
        let main = URL(fileURLWithPath: "/p/Lessons/01-Operation/main.swift")
        func reason(_ sources: [URL], product: String = "Lesson01Operation") -> String? {
            if case .swiftBuild(let reason) = builder.plan(product: product, sources: sources).route { return reason }
            return nil
        }
        #expect(reason([main]) == "no build plan yet")
        // Without the page's files (the first build of `tour watch`) nothing is asked of the plan.
        #expect(builder.plan(product: "Lesson01Operation", sources: nil).route == .swiftBuild(reason: nil))
        // The shape of the two entries SwiftPM writes for a page into `debug.yaml`.
        try Data("""
            commands:
              "C.Lesson01Operation-x86_64-unknown-linux-gnu-debug.exe":
                tool: shell
                inputs: ["/p/.build/main.swift.o"]
                args: ["/opt/swift/usr/bin/swiftc","-o","/p/.build/Lesson01Operation"]

              "C.Lesson01Operation-x86_64-unknown-linux-gnu-debug.module":
                tool: shell
                inputs: ["/p/Lessons/01-Operation/main.swift","/p/Lessons/01-Operation/Old.swift"]
                args: ["/opt/swift/usr/bin/swiftc","-module-name","Lesson01Operation","-parseable-output","-c"]

            """.utf8).write(to: folder.appendingPathComponent("scratch/debug.yaml"))
        let old = URL(fileURLWithPath: "/p/Lessons/01-Operation/Old.swift")
        #expect(reason([main, old, URL(fileURLWithPath: "/p/Lessons/01-Operation/New.swift")]) == "New.swift is new")
        #expect(reason([main]) == "Old.swift was removed")
        #expect(reason([main], product: "Lesson02Queue") == "the build plan has no Lesson02Queue")
        // The objects the link takes from earlier builds are not there.
        #expect(reason([main, old]) == "Lesson01Operation has not been built in full yet")
    }

    @Test func jobLinesAreSplitAsAShellWould() async {
        // swiftc -### quotes with single quotes; clang -### with double quotes and backslashes.
        #expect(shellWords(#"/bin/swift-frontend -frontend -c '-rpath=$ORIGIN' /a\ b.swift"#)
                == ["/bin/swift-frontend", "-frontend", "-c", "-rpath=$ORIGIN", "/a b.swift"])
        #expect(shellWords(#" "/opt/ld.lld" "-rpath=\$ORIGIN" "a\"b" "c\d""#) == ["/opt/ld.lld", "-rpath=$ORIGIN", "a\"b", "c\\d"])
        #expect(shellWords("a  'it'\\''s' \"\"") == ["a", "it's", ""])
        #expect(DirectJobs.withoutIndexing(["f", "-c", "-index-store-path", "/s", "-index-system-modules", "-o", "x"]) == ["f", "-c", "-o", "x"])
    }

    @Test func stagesRunInOrderAndStopAtTheFirstFailure() async throws {
        try standIn("echo \"step $*\"; [ \"$1\" = ok ]")
        let swift = folder.appendingPathComponent("swift").path
        let stages = [PageBuilder.Stage(commands: [[swift, "ok"]]), PageBuilder.Stage(commands: [[swift, "fails"]]), PageBuilder.Stage(commands: [[swift, "ok"]])]
        let build = PageBuild(builder: builder(), product: "P", onLine: { _ in }) { (.direct, stages) }
        let outcome = await build.finished()
        #expect(outcome.status == .failed)
        #expect(outcome.route == .direct)
        #expect(outcome.output == ["step ok", "step fails"])
    }

    @Test func aStageRunsItsCommandsSideBySideAndAFailedOneFallsBack() async throws {
        // Each command waits for the other's mark: run one after the other, the first would wait forever.
        let (a, b) = (folder.appendingPathComponent("a").path, folder.appendingPathComponent("b").path)
        try standIn("""
            touch "$1"; while [ ! -e "$2" ]; do sleep 0.01; done; echo "$1 done"; [ "$3" = ok ]
            """)
        let swift = folder.appendingPathComponent("swift").path
        let stages = [PageBuilder.Stage(commands: [[swift, a, b, "ok"], [swift, b, a, "fails"]], ifFailed: [swift, a, a, "ok"])]
        let outcome = await PageBuild(builder: builder(), product: "P", onLine: { _ in }) { (.direct, stages) }.finished()
        #expect(outcome.status == .succeeded)
        #expect(Set(outcome.output) == ["\(a) done", "\(b) done"])
    }

    @Test func sideBySideCommandsLoseNoLineOfEitherStream() async throws {
        // Enough lines to fill each pipe many times over while the other commands write theirs, and a last line with
        // no newline: all read on the build's one thread, by one poll.
        try standIn("""
            i=1; while [ $i -le 3000 ]; do echo "$1 out $i"; echo "$1 err $i" >&2; i=$((i + 1)); done; printf "$1 last"
            """)
        let swift = folder.appendingPathComponent("swift").path
        let stages = [PageBuilder.Stage(commands: [[swift, "a"], [swift, "b"], [swift, "c"]])]
        let lines = Mutex<[BuildOutputLine]>([])
        let outcome = await PageBuild(builder: builder(), product: "P", onLine: { line in lines.withLock { $0.append(line) } }) {
            (.direct, stages)
        }.finished()
        #expect(outcome.status == .succeeded)
        let streamed = lines.withLock { $0 }
        #expect(outcome.output == streamed.map(\.text))
        for name in ["a", "b", "c"] {
            let out = streamed.filter { $0.stream == .stdout && $0.text.hasPrefix("\(name) ") }.map(\.text)
            let err = streamed.filter { $0.stream == .stderr && $0.text.hasPrefix("\(name) ") }.map(\.text)
            #expect(out == (1...3000).map { "\(name) out \($0)" } + ["\(name) last"])
            #expect(err == (1...3000).map { "\(name) err \($0)" })
        }
    }

    @Test func theOutcomeIsHandedToWhoeverAsksBeforeOrAfterTheEnd() async throws {
        let release = folder.appendingPathComponent("release").path
        // The build cannot end before the first handler is registered: it waits for the file.
        let stages = [PageBuilder.Stage(commands: [["/bin/sh", "-c", "while [ ! -e '\(release)' ]; do sleep 0.01; done; echo built"]])]
        let build = PageBuild(builder: builder(), product: "P", onLine: { _ in }) { (.direct, stages) }
        let before = AsyncStream.makeStream(of: BuildOutcome.self)
        build.whenDone { before.continuation.yield($0); before.continuation.finish() }
        try Data().write(to: URL(fileURLWithPath: release))
        var first: BuildOutcome?
        for await outcome in before.stream { first = outcome }
        #expect(first?.status == .succeeded && first?.output == ["built"])
        // After the end, at once, on the caller's thread: the same outcome.
        let after = Mutex<BuildOutcome?>(nil)
        build.whenDone { outcome in after.withLock { $0 = outcome } }
        #expect(after.withLock { $0 }?.output == ["built"])
        #expect(build.outcome?.seconds == first?.seconds)
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
        // No time limit that could end the build before the cancel does: on a loaded CI machine the stand-in once
        // took over 30 s, the default limit, to say it had started, and the build ended as timed out instead.
        let build = builder(timeout: 3_600).build(product: "Lesson01Operation") { _ in started.signal() }
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
