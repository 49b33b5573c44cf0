import Foundation
import Testing
@testable import TourCommandLine
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourCommandLine
import TourTestSupport

/// A reset keeps the learner's version first, and `tour reset --undo` puts it back; the kept versions are bounded.
@Suite("Undoing a reset", .bodiesBelowTheRunner)
struct ResetUndoTests {
    @Test func undoPutsBackWhatTheResetReplacedAndRemoved() async throws {
        let package = try TwoPageFolder()
        let originals = OriginalPages(packageRoot: package.root)
        try originals.keepOriginal(of: package.operation)
        try package.write("print(\"an hour of work\")\n", to: package.operation.source)
        try package.write("func added() {}\n", to: package.file(package.operation, "Added.swift"))

        let reset = ResetCommand.execute("operation", catalog: package.catalog)
        #expect(reset.status == .endedAsExpected)
        #expect(reset.lines == ["Page 1 (operation): restored main.swift; removed the added Added.swift; it is back to its "
                                + "original text. Your version is kept: tour reset --undo operation puts it back."])
        #expect(package.text(package.operation.source) == "//: # Operation\nprint(1)\n")
        #expect(originals.keptVersionCount(of: package.operation) == 1)

        let undo = ResetCommand.undo("operation", catalog: package.catalog)
        #expect(undo.status == .endedAsExpected)
        #expect(undo.lines == ["Page 1 (operation): restored Added.swift, main.swift; it is back to the version its last reset replaced."])
        #expect(package.text(package.operation.source) == "print(\"an hour of work\")\n")
        #expect(package.text(package.file(package.operation, "Added.swift")) == "func added() {}\n")
        #expect(package.text(package.file(package.operation, "Helper.swift")) == "func helper() {}\n")
        #expect(originals.keptVersionCount(of: package.operation) == 0, "the original needs no keeping")
        #expect(ResetCommand.undo("1", catalog: package.catalog).lines == ["Page 1 (operation): has no reset to undo."])
    }

    @Test func editsMadeAfterAResetAreKeptWhenItIsUndone() async throws {
        let package = try TwoPageFolder()
        let originals = OriginalPages(packageRoot: package.root)
        try originals.keepOriginal(of: package.operation)
        try package.write("first version\n", to: package.operation.source)
        _ = try originals.reset(package.operation)
        try package.write("second version, written after the reset\n", to: package.operation.source)

        #expect(try originals.undoReset(package.operation) == .restored(rewritten: ["main.swift"], removed: []))
        #expect(package.text(package.operation.source) == "first version\n")
        // Undoing again returns to what the undo replaced: neither version is ever lost.
        #expect(try originals.undoReset(package.operation) == .restored(rewritten: ["main.swift"], removed: []))
        #expect(package.text(package.operation.source) == "second version, written after the reset\n")
    }

    @Test func onlyTheLastResetsAreKept() async throws {
        let package = try TwoPageFolder()
        let originals = OriginalPages(packageRoot: package.root)
        try originals.keepOriginal(of: package.operation)
        let limit = OriginalPages.keptVersionLimit
        for edit in 1...(limit + 2) {
            try package.write("edit \(edit)\n", to: package.operation.source)
            _ = try originals.reset(package.operation)
        }
        #expect(originals.keptVersionCount(of: package.operation) == limit)
        let kept = try FileManager.default.contentsOfDirectory(atPath: originals.keptVersionsFolder(for: package.operation).path)
        #expect(Set(kept) == Set((3...(limit + 2)).map(String.init)), "the oldest go first")
        // Each kept version holds the text that reset replaced, to copy back by hand when undo is not enough.
        for edit in 3...(limit + 2) {
            let copy = originals.keptVersionsFolder(for: package.operation).appendingPathComponent("\(edit)/main.swift")
            #expect(package.text(copy) == "edit \(edit)\n")
        }
        _ = try originals.undoReset(package.operation)
        #expect(package.text(package.operation.source) == "edit \(limit + 2)\n", "undo puts back the newest")
        #expect(originals.keptVersionCount(of: package.operation) == limit - 1)
    }

    @Test func aDamagedKeptVersionIsRefusedAndNothingChanges() async throws {
        let package = try TwoPageFolder()
        let originals = OriginalPages(packageRoot: package.root)
        try originals.keepOriginal(of: package.operation)
        try package.write("the learner's edit\n", to: package.operation.source)
        _ = try originals.reset(package.operation)
        let manifest = originals.keptVersionsFolder(for: package.operation).appendingPathComponent("1/manifest.txt")
        try package.write("tour page files v1 for 01-Operation\n0 1 ../../../Package.swift\n", to: manifest)
        let before = package.tree()

        let (lines, status) = ResetCommand.undo("1", catalog: package.catalog)

        #expect(status == .endedOtherwise)
        let message = try #require(lines.first)
        #expect(message.contains("could not undo the reset: .tour/before-reset/01-Operation/1/manifest.txt cannot be trusted: "
                                 + "line 2 names '../../../Package.swift', a path into another folder"), "\(message)")
        #expect(message.contains("Nothing was changed."), "\(message)")
        #expect(package.tree() == before)
    }

    @Test func theCommandLineTakesUndoAndAPage() throws {
        #expect(try TourCommand.parse(["reset", "--undo", "operation"]) == .undoReset(page: "operation"))
        #expect(try TourCommand.parse(["reset", "2", "--undo"]) == .undoReset(page: "2"))
        #expect(throws: TourCommand.UsageError(description: "reset --undo needs a page, for example: tour reset --undo operation")) {
            try TourCommand.parse(["reset", "--undo"])
        }
        #expect(throws: TourCommand.UsageError.self) { try TourCommand.parse(["reset", "--undo", "--all"]) }
        #expect(UsageTests.help.contains("tour reset --undo <page>"))
        #expect(ResetCommand.undo("nine", catalog: try TwoPageFolder().catalog).status == .usage)
    }
}
