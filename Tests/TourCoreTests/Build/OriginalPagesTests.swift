import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// Keeping and restoring originals in a temporary package root with no git anywhere above it.
@Suite("Original pages", .bodiesBelowTheRunner)
final class OriginalPagesTests {
    let root: URL
    let page: Page
    let originals: OriginalPages

    init() throws {
        root = URL(fileURLWithPath: "/tmp").appendingPathComponent("originals-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("Lessons/01-Operation")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Bytes that a text round trip would change: no final newline, CRLF, invalid UTF-8, a BOM.
        try Data([0xEF, 0xBB, 0xBF] + Array("print(1)\r\n// é".utf8) + [0xFF, 0x00, 0x7A]).write(to: folder.appendingPathComponent("main.swift"))
        try Data("func helper() {}".utf8).write(to: folder.appendingPathComponent("Helper.swift"))
        page = try #require(PageCatalog.load(root: root).pages.first)
        originals = OriginalPages(packageRoot: root)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func contents(_ name: String) -> Data? {
        FileManager.default.contents(atPath: root.appendingPathComponent("Lessons/01-Operation/\(name)").path)
    }

    @Test func resetRestoresByteForByteWithoutGit() throws {
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path))
        let main = try #require(contents("main.swift"))
        let helper = try #require(contents("Helper.swift"))
        try originals.keepOriginal(of: page)
        try Data("broken(".utf8).write(to: page.source)
        try FileManager.default.removeItem(at: root.appendingPathComponent("Lessons/01-Operation/Helper.swift"))
        try Data("extra".utf8).write(to: root.appendingPathComponent("Lessons/01-Operation/Added.swift"))

        #expect(try originals.reset(page) == .restored(rewritten: ["Helper.swift", "main.swift"], removed: ["Added.swift"]))
        #expect(contents("main.swift") == main)
        #expect(contents("Helper.swift") == helper)
        #expect(contents("Added.swift") == nil)
        #expect(try originals.reset(page) == .unchanged)
    }

    @Test func theFirstOriginalIsKept() throws {
        let main = try #require(contents("main.swift"))
        try originals.keepOriginal(of: page)
        try Data("edit one".utf8).write(to: page.source)
        try originals.keepOriginal(of: page)   // a later session must not take the edited text as the original
        _ = try originals.reset(page)
        #expect(contents("main.swift") == main)
    }

    @Test func nothingKeptNothingReset() throws {
        #expect(try originals.reset(page) == .noOriginal)
    }

    @Test func aDamagedCopyIsRefused() throws {
        try originals.keepOriginal(of: page)
        try Data("tampered".utf8).write(to: originals.originalsFolder(for: page).appendingPathComponent("main.swift"))
        #expect(throws: OriginalPages.Problem.self) { try originals.reset(page) }
    }
}
