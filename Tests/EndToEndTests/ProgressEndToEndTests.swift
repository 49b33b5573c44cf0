import Foundation
import Testing
import TourCore
import TourTestSupport

/// `tour progress` and `tour reset --progress` as the built `tour` runs them, off a terminal, on a state folder of
/// the test's own.
@Suite("tour progress end to end", .bodiesBelowTheRunner)
struct ProgressEndToEndTests {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `tour` with stdin, stdout and stderr off any terminal and `XDG_STATE_HOME` set to `state`; awaits its end.
    static func tour(_ arguments: [String], state: URL) async throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("progress-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (outputFile, errorFile) = (folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: "tour"))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state.path
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        return Outcome(status: status, output: try String(contentsOf: outputFile, encoding: .utf8),
                       errors: try String(contentsOf: errorFile, encoding: .utf8))
    }

    @Test("reset --progress off a terminal refuses without --yes and changes nothing; with --yes it keeps a copy")
    func resetProgressOffATerminal() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("progress-e2e-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let store = try #require(ProgressStore(environment: ["XDG_STATE_HOME": state.path]))
        try store.record(.opened(page: "groups"))
        let before = try Data(contentsOf: store.file)

        let refused = try await Self.tour(["reset", "--progress"], state: state)
        #expect(refused.status == 2)
        #expect(refused.errors.contains("tour reset --progress --yes"), "\(refused.errors)")
        #expect(try Data(contentsOf: store.file) == before)

        let table = try await Self.tour(["progress", "--plain"], state: state)
        #expect(table.status == 0)
        #expect(table.output.contains("The tutorial resumes on page 7 (groups)."), "\(table.output)")

        let json = try await Self.tour(["progress", "--json", "--name", "ana"], state: state)
        let document = try ParticipantProgress.parse(Data(json.output.utf8)).get()
        #expect(document.participant == "ana" && document.progress.lastPage == "groups")

        let reset = try await Self.tour(["reset", "--progress", "--yes"], state: state)
        #expect(reset.status == 0)
        #expect(!FileManager.default.fileExists(atPath: store.file.path))
        let copies = try FileManager.default.contentsOfDirectory(atPath: store.file.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("progress.json.reset-") }
        #expect(copies.count == 1)
        let copy = store.file.deletingLastPathComponent().appendingPathComponent(try #require(copies.first))
        #expect(try Data(contentsOf: copy) == before)
        #expect(reset.output.contains(copy.path))
    }
}
