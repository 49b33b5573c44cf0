import Foundation
import Testing
@testable import TourCommandLine
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourCommandLine
import TourTestSupport

/// In a git checkout, reset puts a page back to the text git's HEAD has, however the page was edited: in any editor
/// with tour closed, or before tour first kept a copy of it. The learner's version is kept first, as always.
@Suite("Reset to the shipped text", .bodiesBelowTheRunner, .enabled(if: GitCheckout.isAvailable, "git is not installed"))
struct ShippedOriginalTests {
    static let shipped = "//: # Operation\nprint(1)\n"

    @Test("A page edited in another editor, never through tour, is reset to git's HEAD, and undo brings the edit back")
    func anEditMadeOutsideTourIsReset() async throws {
        let package = try TwoPageFolder()
        try await GitCheckout.commit(["Lessons"], in: package.root)
        let edit = "print(\"broken from another window\"\n"
        try package.write(edit, to: package.operation.source)
        try package.write("func added() {}\n", to: package.file(package.operation, "Added.swift"))

        let reset = ResetCommand.execute("1", catalog: package.catalog)
        #expect(reset.status == .endedAsExpected)
        #expect(reset.lines == ["Page 1 (operation): restored main.swift; removed the added Added.swift; it is back to its "
                                + "original text. Your version is kept: tour reset --undo operation puts it back."])
        #expect(package.text(package.operation.source) == Self.shipped)
        #expect(package.text(package.file(package.operation, "Helper.swift")) == "func helper() {}\n")
        #expect(package.text(package.file(package.operation, "Added.swift")) == nil)

        let undo = ResetCommand.undo("1", catalog: package.catalog)
        #expect(undo.status == .endedAsExpected)
        #expect(package.text(package.operation.source) == edit, "the learner's text is never lost")
        #expect(package.text(package.file(package.operation, "Added.swift")) == "func added() {}\n")
    }

    @Test("An edit made before tour kept its copy is not taken for the original: git's HEAD is")
    func headWinsOverACopyKeptAfterAnOutsideEdit() async throws {
        let package = try TwoPageFolder()
        try await GitCheckout.commit(["Lessons"], in: package.root)
        try package.write("print(\"edited in another editor first\")\n", to: package.operation.source)
        // Then the learner opens it through tour, which keeps what it finds as the original, and edits again.
        let originals = OriginalPages(packageRoot: package.root)
        try originals.keepOriginal(of: package.operation)
        try package.write("print(\"edited through tour\")\n", to: package.operation.source)

        #expect(try originals.reset(package.operation) == .restored(rewritten: ["main.swift"], removed: []))
        #expect(package.text(package.operation.source) == Self.shipped)
        #expect(try originals.reset(package.operation) == .unchanged)
    }

    @Test("A page git's HEAD does not have falls back to the copy kept before its first edit through tour")
    func aPageOutsideHeadUsesTheKeptCopy() async throws {
        let package = try TwoPageFolder()
        // Only page 2 is in HEAD: page 1 is as good as a page the learner wrote.
        try await GitCheckout.commit(["Lessons/02-Queue"], in: package.root)
        let originals = OriginalPages(packageRoot: package.root)
        try package.write("print(\"an edit\")\n", to: package.operation.source)
        #expect(try originals.reset(package.operation) == .noOriginal)
        try originals.keepOriginal(of: package.operation)
        try package.write("print(\"a second edit\")\n", to: package.operation.source)
        #expect(try originals.reset(package.operation) == .restored(rewritten: ["main.swift"], removed: []))
        #expect(package.text(package.operation.source) == "print(\"an edit\")\n")
    }
}
