import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// Reading SwiftPM's plan (`<scratch>/debug.yaml`) for a page's direct rebuild, and keeping it between rebuilds: a kept
/// plan must never outlive the file it was read from, or a rebuild would run the commands of an older plan.
@Suite("Build plan", .bodiesBelowTheRunner)
struct BuildPlanTests {
    /// A plan in the layout SwiftPM writes, with one page's compile and link commands among entries that are neither.
    static func plan(argument: String) -> String {
        """
        client:
          name: basic
        commands:
          "C.Page01-x86_64-unknown-linux-gnu-debug.exe":
            tool: shell
            inputs: ["/p/.build/debug/Page01.build/main.swift.o"]
            outputs: ["/p/.build/debug/Page01"]
            args: ["/usr/bin/swiftc","-o","/p/.build/debug/Page01","\(argument)"]

          "C.Page01-x86_64-unknown-linux-gnu-debug.module":
            tool: shell
            inputs: ["/p/Lessons/01-Page/main.swift","/p/.build/debug/Modules/Kit.swiftmodule"]
            outputs: ["/p/.build/debug/Page01.build/main.swift.o"]
            args: ["/usr/bin/swiftc","-module-name","Page01","-c","quoted \\"é\\""]

          "C.Page01-x86_64-unknown-linux-gnu-debug.module-resources":
            tool: phony
            inputs: ["/p/ignored"]

        """
    }

    static func temporaryPlan(_ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("build-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("debug.yaml")
        try Data(text.utf8).write(to: file, options: .atomic)
        return file
    }

    @Test func readsOnlyTheCompileAndLinkCommandsWithTheirFields() async throws {
        let file = try Self.temporaryPlan(Self.plan(argument: "-g"))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let plan = try #require(BuildPlan(file: file))
        #expect(plan.commands.keys.sorted() == ["C.Page01-x86_64-unknown-linux-gnu-debug.exe", "C.Page01-x86_64-unknown-linux-gnu-debug.module"])
        let module = try #require(plan.command(product: "Page01", configuration: "debug", kind: "module"))
        #expect(module.inputs == ["/p/Lessons/01-Page/main.swift", "/p/.build/debug/Modules/Kit.swiftmodule"])
        #expect(module.outputs == ["/p/.build/debug/Page01.build/main.swift.o"])
        #expect(module.args == ["/usr/bin/swiftc", "-module-name", "Page01", "-c", "quoted \"é\""])
        let link = try #require(plan.command(product: "Page01", configuration: "debug", kind: "exe"))
        #expect(link.args.last == "-g")
        #expect(plan.command(writing: "/p/.build/debug/Page01")?.args == link.args)
    }

    @Test func aKeptPlanIsReadAgainOnceSwiftPMRewritesTheFile() async throws {
        let file = try Self.temporaryPlan(Self.plan(argument: "-g"))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect(BuildPlan.load(file: file)?.command(product: "Page01", configuration: "debug", kind: "exe")?.args.last == "-g")
        // The same size and, within the file system's granularity, possibly the same modification time: only the
        // replacement itself (a new inode, a new change time) tells the versions apart.
        try Data(Self.plan(argument: "-G").utf8).write(to: file, options: .atomic)
        #expect(BuildPlan.load(file: file)?.command(product: "Page01", configuration: "debug", kind: "exe")?.args.last == "-G")
        // Written in place, as another tool might: the same inode, a new size.
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data(Self.plan(argument: "-Zed").utf8))
        try handle.close()
        #expect(BuildPlan.load(file: file)?.command(product: "Page01", configuration: "debug", kind: "exe")?.args.last == "-Zed")
        try FileManager.default.removeItem(at: file)
        #expect(BuildPlan.load(file: file) == nil)
    }
}
