@preconcurrency import Glibc
import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// The direct route against a real toolchain, in a small package made in a scratch folder (`ScratchSpace`): a library
/// standing in for LessonKit and one page with a helper file, laid out as the tour's pages are. Each kind of change is saved, the
/// page rebuilt as the tour rebuilds it, and the program run: what it prints must be what the saved text says, so a
/// stale program (built from an older text, or against an older library) fails the test.
@Suite("Direct rebuild", .bodiesBelowTheRunner, .serialized, .timeLimit(.minutes(15)))
final class DirectRebuildTests {
    let root: URL
    var page: URL { root.appendingPathComponent("Lessons/01-Page") }
    var products: URL { root.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug") }

    init() throws {
        root = ScratchSpace.folder.appendingPathComponent("direct-rebuild-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/Kit"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
        try write("Package.swift", """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "Scratch", targets: [
                .target(name: "Kit"),
                .executableTarget(name: "Page01", dependencies: ["Kit"], path: "Lessons/01-Page"),
            ])
            """)
        try write("Sources/Kit/Kit.swift", "public func kit() -> String { \"kit 1\" }\n")
        try write("Lessons/01-Page/main.swift", "import Kit\nprint(\"main 1\", kit(), helper())\n")
        try write("Lessons/01-Page/Helper.swift", "func helper() -> String { \"helper 1\" }\n")
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Saves atomically, as an editor does.
    func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(path), options: .atomic)
    }

    var builder: PageBuilder { PageBuilder(packageRoot: root, productsDirectory: products) }

    /// Rebuilds as the tour does after a save (with the page's files, so the direct route may be taken).
    func rebuild() async -> BuildOutcome {
        let sources = Page.sourceFiles(main: page.appendingPathComponent("main.swift"))
        return await builder.build(product: "Page01", sources: sources).finished()
    }

    /// Runs the program and expects it to print `expected`; a failure shows what it printed instead.
    func expectPrinted(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let printed = try await run()
        #expect(printed == expected, sourceLocation: sourceLocation)
    }

    /// Runs the program and returns what it printed.
    func run() async throws -> String {
        let process = Process()
        process.executableURL = products.appendingPathComponent("Page01")
        let output = Pipe()
        process.standardOutput = output
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.continuation.yield(); ended.continuation.finish() }
        try process.run()
        let reading = output.fileHandleForReading
        let data = await awaitBlocking("page-output") { reading.readDataToEndOfFile() }
        for await _ in ended.stream {}
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func everyKindOfChangeRunsWhatWasSaved() async throws {
        let first = await builder.build(product: "Page01").finished()
        try #require(first.status == .succeeded, "the scratch package did not build: \(first.output.suffix(10))")
        try await expectPrinted("main 1 kit 1 helper 1")

        // The autolink file written in this process is the one the toolchain's tool writes.
        let sources = Page.sourceFiles(main: page.appendingPathComponent("main.swift"))
        let autolink = try #require(try builder.directStages(product: "Page01", sources: sources).flatMap(\.commands)
            .first { $0.first?.hasSuffix("swift-autolink-extract") == true })
        let output = try #require(autolink.firstIndex(of: "-o")) + 1
        var byTool = autolink
        byTool[output] = root.appendingPathComponent("by-tool.autolink").path
        let tool = try Process.run(URL(fileURLWithPath: byTool[0]), arguments: Array(byTool.dropFirst()))
        await awaitBlocking { tool.waitUntilExit() }
        #expect(AutolinkEntries.write(for: autolink))
        let expected = try String(contentsOfFile: byTool[output], encoding: .utf8)
        #expect(expected.contains("-lswiftCore"))
        #expect(try String(contentsOfFile: autolink[output], encoding: .utf8) == expected)

        // The page's main.swift.
        try write("Lessons/01-Page/main.swift", "import Kit\nprint(\"main 2\", kit(), helper())\n")
        var outcome = await rebuild()
        #expect(outcome.status == .succeeded)
        #expect(outcome.route == .direct)
        try await expectPrinted("main 2 kit 1 helper 1")

        // A helper file beside it: every file of the page is compiled, so this too takes the direct route.
        try write("Lessons/01-Page/Helper.swift", "func helper() -> String { \"helper 2\" }\n")
        outcome = await rebuild()
        #expect(outcome.route == .direct)
        try await expectPrinted("main 2 kit 1 helper 2")

        // A new file: only SwiftPM can plan it.
        try write("Lessons/01-Page/Extra.swift", "func extra() -> String { \"extra\" }\n")
        try write("Lessons/01-Page/main.swift", "import Kit\nprint(\"main 3\", kit(), helper(), extra())\n")
        outcome = await rebuild()
        #expect(outcome.status == .succeeded)
        #expect(outcome.route == .swiftBuild(reason: "Extra.swift is new"))
        try await expectPrinted("main 3 kit 1 helper 2 extra")
        // SwiftPM's new plan has it: direct again.
        try write("Lessons/01-Page/Extra.swift", "func extra() -> String { \"extra 2\" }\n")
        outcome = await rebuild()
        #expect(outcome.route == .direct)
        try await expectPrinted("main 3 kit 1 helper 2 extra 2")

        // A deleted file.
        try FileManager.default.removeItem(at: page.appendingPathComponent("Extra.swift"))
        try write("Lessons/01-Page/main.swift", "import Kit\nprint(\"main 4\", kit(), helper())\n")
        outcome = await rebuild()
        #expect(outcome.status == .succeeded)
        #expect(outcome.route == .swiftBuild(reason: "Extra.swift was removed"))
        try await expectPrinted("main 4 kit 1 helper 2")

        // The library the page imports: the page alone would be compiled against its old module.
        try write("Sources/Kit/Kit.swift", "public func kit() -> String { \"kit 2\" }\n")
        try write("Lessons/01-Page/main.swift", "import Kit\nprint(\"main 5\", kit(), helper())\n")
        outcome = await rebuild()
        #expect(outcome.status == .succeeded)
        #expect(outcome.route == .swiftBuild(reason: "Kit changed (Kit.swift)"))
        try await expectPrinted("main 5 kit 2 helper 2")

        // A save `swift build` alone would miss: the same size as the text it last compiled, and the same modification
        // time, as a second save within the same second can have. The fallback compiles it all the same.
        let mainFile = page.appendingPathComponent("main.swift").path
        var compiled = stat()
        try #require(stat(mainFile, &compiled) == 0)
        try write("Lessons/01-Page/main.swift", "import Kit\nprint(\"main S\", kit(), helper())\n")
        var times = [compiled.st_atim, compiled.st_mtim]
        try #require(utimensat(AT_FDCWD, mainFile, &times, 0) == 0)
        outcome = await builder.build(product: "Page01").finished()
        #expect(outcome.status == .succeeded)
        #expect(outcome.route == .swiftBuild(reason: nil))
        try await expectPrinted("main S kit 2 helper 2")

        // Broken, then fixed: the broken text says where, and the old program is not what runs after the fix.
        try write("Lessons/01-Page/main.swift", "import Kit\nprnt(\"main 6\", kit(), helper())\n")
        outcome = await rebuild()
        #expect(outcome.route == .direct)
        #expect(outcome.status == .failed)
        #expect(outcome.diagnostics.errors.map(\.shortDescription) == ["main.swift:2:1: error: cannot find 'prnt' in scope"])
        try write("Lessons/01-Page/main.swift", "import Kit\nprint(\"main 7\", kit(), helper())\n")
        outcome = await rebuild()
        #expect(outcome.status == .succeeded)
        #expect(outcome.route == .direct)
        try await expectPrinted("main 7 kit 2 helper 2")

        // A C module the library imports, as LessonKit imports CLinuxSystem: the page's compile job loads it with the
        // library's module and must find its module map, which SwiftPM's plan names and the direct route keeps.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/CSystem"), withIntermediateDirectories: true)
        try write("Sources/CSystem/module.modulemap", "module CSystem [system] {\n    header \"CSystem.h\"\n    export *\n}\n")
        try write("Sources/CSystem/CSystem.h", "static inline int csystem_three(void) { return 3; }\n")
        try write("Package.swift", """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "Scratch", targets: [
                .systemLibrary(name: "CSystem"),
                .target(name: "Kit", dependencies: ["CSystem"]),
                .executableTarget(name: "Page01", dependencies: ["Kit"], path: "Lessons/01-Page"),
            ])
            """)
        try write("Sources/Kit/Kit.swift", "import CSystem\npublic func kit() -> String { \"kit \\(csystem_three())\" }\n")
        outcome = await rebuild()
        #expect(outcome.status == .succeeded)
        try await expectPrinted("main 7 kit 3 helper 2")
        try write("Lessons/01-Page/main.swift", "import Kit\nprint(\"main 8\", kit(), helper())\n")
        outcome = await rebuild()
        #expect(outcome.status == .succeeded)
        #expect(outcome.route == .direct)
        try await expectPrinted("main 8 kit 3 helper 2")
    }
}
