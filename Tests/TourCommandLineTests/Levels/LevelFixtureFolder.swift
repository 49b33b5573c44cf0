import Foundation
import PageProtocol
@testable import TourCommandLine
@testable import TourCore
import TourTestSupport

/// A scratch package root with one level, `Levels/01-LostUpdate/`, whose program in a scratch build folder is the
/// test fixture `LevelFixture` (a lost update over a model): the levels' commands run against it as against a level,
/// and nothing in the checkout is touched. Its source is older than its program, so nothing is built.
final class LevelFixtureFolder: Sendable {
    let root: URL
    let products: URL

    init() throws {
        root = ScratchSpace.folder.appendingPathComponent("tour-levels-\(UUID().uuidString)")
        products = root.appendingPathComponent("products")
        let level = root.appendingPathComponent("Levels/01-LostUpdate")
        try FileManager.default.createDirectory(at: level, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Levels/Notes"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        let source = level.appendingPathComponent("main.swift")
        try Data("// The fixture's program stands in for this level's.\n".utf8).write(to: source)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 946_684_800)], ofItemAtPath: source.path)
        try FileManager.default.createSymbolicLink(atPath: products.appendingPathComponent("Level01LostUpdate").path,
                                                   withDestinationPath: BuildProducts.executable(named: "LevelFixture"))
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The level's programs, misbehaving as `fixture` says (`LEVEL_FIXTURE`), on `clock`.
    func programs(misbehaving fixture: String? = nil, clock: any HostClock = SystemClock()) -> LevelPrograms {
        LevelPrograms(catalog: LevelCatalog.load(root: root), productsDirectory: products.path, clock: clock,
                      environment: ["LEVEL_FIXTURE": fixture])
    }

    /// A file of the scratch root, written with `text`.
    func file(_ name: String, _ text: String) throws -> String {
        let file = root.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}

/// What a level command said, on each of its two streams.
final class LevelCommandLines: @unchecked Sendable {
    private let lock = NSLock()
    private var emitted: [String] = []
    private var complained: [String] = []
    private var recordedWins: [String] = []

    var output: LevelCommand.Output {
        LevelCommand.Output(emit: { line in self.lock.withLock { self.emitted.append(line) } },
                            complain: { line in self.lock.withLock { self.complained.append(line) } })
    }

    /// Each win `play` recorded for progress, as "level in N steps".
    func recordWin(_ level: String, _ steps: Int) { lock.withLock { recordedWins.append("\(level) in \(steps) steps") } }

    var wins: [String] { lock.withLock { recordedWins } }
    var lines: [String] { lock.withLock { emitted } }
    var errors: [String] { lock.withLock { complained } }
}

/// Runs `body` on a Dispatch thread, so a command's waits for its level never hold one of the test pool's threads.
func offThePool<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: body()) }
    }
}

/// Lines of standard input handed over one at a time, then its end.
final class TypedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String]

    init(_ lines: [String]) {
        self.lines = lines
    }

    func next() -> String? {
        lock.withLock { lines.isEmpty ? nil : lines.removeFirst() }
    }
}

extension LevelFixtureFolder {
    /// `tour explore` on the fixture: its status and what it said.
    func explore(_ arguments: [String], misbehaving fixture: String? = nil) async throws -> (status: TourCommandLine.ExitStatus, said: LevelCommandLines) {
        guard case .explore(let options) = try TourCommand.parse(["explore"] + arguments) else { throw LevelTestFailure.notParsed(arguments) }
        let said = LevelCommandLines()
        let programs = programs(misbehaving: fixture)
        let status = await offThePool { LevelCommand.explore(options, programs: programs, output: said.output, chooseSeed: { 4242 }) }
        return (status, said)
    }

    /// `tour play --plain` on the fixture, typing `typed`: its status and what it said.
    func play(_ arguments: [String], typing typed: [String] = [], misbehaving fixture: String? = nil) async throws
        -> (status: TourCommandLine.ExitStatus, said: LevelCommandLines) {
        guard case .play(let options) = try TourCommand.parse(["play"] + arguments + ["--plain"]) else { throw LevelTestFailure.notParsed(arguments) }
        let said = LevelCommandLines()
        let programs = programs(misbehaving: fixture)
        let input = TypedLines(typed)
        let status = await offThePool { LevelCommand.play(options, programs: programs, input: input.next, output: said.output,
                                                                  recordWin: said.recordWin) }
        return (status, said)
    }
}

enum LevelTestFailure: Error {
    case notParsed([String])
}
