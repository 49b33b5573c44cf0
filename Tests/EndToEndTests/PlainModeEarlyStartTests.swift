@preconcurrency import Glibc
import Foundation
import Testing
import TourCore
import TourTestSupport

/// `tour run N --plain` starts the page before it reads the catalog, so the page's own start-up runs beside the
/// host's (issue 13, goal 3), and the header still comes before the page's first line.
@Suite("tour run starts the page first")
struct PlainModeEarlyStartTests {
    struct Outcome: Sendable {
        var pageStartedWhileTheCatalogWaited: Bool
        var status: Int32
        var output: String
        var errors: String
    }

    /// Page 1's `main.swift`, in a copy of the pages whose file is a named pipe: reading the catalog waits there until
    /// the test writes the page's text into it, so a page that is running by then was started before the catalog.
    @Test func thePageRunsWhileTheCatalogIsStillBeingRead() async throws {
        let text = try String(contentsOf: PageCatalog.defaultRoot.appendingPathComponent("Lessons/01-Operation/main.swift"), encoding: .utf8)
        let outcome = try await PageRunSlots.shared.withSlot {
            try await awaitBlocking("tour-early-start") { try Self.runWithThePageHeldInAPipe(text) }
        }
        #expect(outcome.pageStartedWhileTheCatalogWaited, "page 1's program was not running while tour read the catalog")
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ConcurrencyTour · page 1 of 1: ") == true, "\(lines.prefix(3))")
        let firstLine = try #require(lines.firstIndex { $0.contains("Loaded coffee: 400x300 pixels") }, "\(outcome.output)")
        #expect(firstLine > 0, "the page's first line comes after the header")
        #expect(outcome.output.contains("Results by line"))
    }

    /// Runs `tour run 1 --plain` on a copy of page 1 whose `main.swift` is a named pipe; once page 1's program is seen
    /// running as tour's child, or after 60 s, the text is written into the pipe and a regular file takes its place.
    private static func runWithThePageHeldInAPipe(_ text: String) throws -> Outcome {
        let files = FileManager.default
        let root = files.temporaryDirectory.appendingPathComponent("tour-early-start-\(UUID().uuidString)")
        defer { try? files.removeItem(at: root) }
        let page = root.appendingPathComponent("Lessons/01-Operation")
        try files.createDirectory(at: page, withIntermediateDirectories: true)
        let source = page.appendingPathComponent("main.swift").path
        let regular = page.appendingPathComponent("main.swift.text")
        try Data(text.utf8).write(to: regular)
        guard mkfifo(source, 0o600) == 0 else { throw PipeProblem(description: "mkfifo \(source): errno \(errno)") }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: "tour"))
        process.arguments = ["run", "1", "--plain", "--speed", "2"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TOUR_ROOT"] = root.path
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorData = ErrorsRead()
        Thread { errorData.finish(errors.fileHandleForReading.readDataToEndOfFile()) }.start()

        let deadline = Date().addingTimeInterval(60)
        var started = false
        while !started && Date() < deadline {
            started = childPrograms(of: process.processIdentifier).contains("Lesson01Operation")
            if !started { usleep(2_000) }
        }
        // Opening for writing meets tour's open for reading; the regular file then takes the pipe's place for
        // every later read (the summary reads the page again).
        let writer = open(source, O_WRONLY)
        guard writer >= 0 else { throw PipeProblem(description: "open \(source): errno \(errno)") }
        guard rename(regular.path, source) == 0 else { throw PipeProblem(description: "rename over \(source): errno \(errno)") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            written += count
        }
        close(writer)

        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(pageStartedWhileTheCatalogWaited: started, status: process.terminationStatus,
                       output: String(decoding: outputData, as: UTF8.self), errors: String(decoding: errorData.wait(), as: UTF8.self))
    }

    /// The names of the programs `parent`'s children run now, from `/proc`.
    private static func childPrograms(of parent: Int32) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> String? in
            guard Int32(entry) != nil,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let nameEnd = stat.range(of: ") ", options: .backwards) else { return nil }
            // After the name: state, then the parent's pid.
            let fields = stat[nameEnd.upperBound...].split(separator: " ")
            guard fields.count > 1, Int32(fields[1]) == parent,
                  let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/exe") else { return nil }
            return URL(fileURLWithPath: program).lastPathComponent
        }
    }

    struct PipeProblem: Error, CustomStringConvertible {
        let description: String
    }
}
