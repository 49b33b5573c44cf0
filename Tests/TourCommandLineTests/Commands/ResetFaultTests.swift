import Foundation
import Testing
@testable import TourCommandLine
import TourTestSupport
@testable import TourCommandLine
@testable import TourCore
@testable import RunModel
@testable import PageText

/// `tour reset` against kept originals that cannot be trusted: each is refused, with what is wrong and how to recover,
/// and nothing under the package (or outside it) changes. Every test works in a `TwoPageFolder` of its own.
@Suite("Reset refuses what it cannot trust", .bodiesBelowTheRunner)
struct ResetFaultTests {
    /// One way the kept original can be bad: what to do to a scratch package whose page 1 has an original and an edit,
    /// and what the refusal must say.
    struct Fault: CustomTestStringConvertible, Sendable {
        let name: String
        let damage: @Sendable (TwoPageFolder) throws -> Void
        let message: String
        var testDescription: String { name }
    }

    static let manifestPath = ".tour/originals/01-Operation/manifest.txt"

    static func manifest(_ package: TwoPageFolder) -> URL {
        package.root.appendingPathComponent(manifestPath)
    }

    /// A manifest line for `text`, as keepOriginal writes it.
    static func line(_ text: String, _ name: String) -> String {
        "\(String(contentHash(Data(text.utf8)), radix: 16)) \(text.utf8.count) \(name)\n"
    }

    static let header = "tour page files v1 for 01-Operation\n"

    static let faults: [Fault] = [
        Fault(name: "empty manifest", damage: { try $0.write("", to: manifest($0)) },
              message: "\(manifestPath) cannot be trusted: it is empty"),
        Fault(name: "../ in a name", damage: { package in
            // The attack in full: a kept copy whose hash matches, so only the name can stop it.
            let evil = "// overwritten by reset\n"
            try package.write(evil, to: package.root.appendingPathComponent(".tour/Package.swift"))
            let text = try #require(package.text(manifest(package)))
            try package.write(text + line(evil, "../../Package.swift"), to: manifest(package))
        }, message: "\(manifestPath) cannot be trusted: line 4 names '../../Package.swift', a path into another folder"),
        Fault(name: "absolute name", damage: { package in
            let evil = "// overwritten by reset\n"
            let text = try #require(package.text(manifest(package)))
            try package.write(text + line(evil, package.outside.path), to: manifest(package))
        }, message: "\(manifestPath) cannot be trusted: line 4 names '\(ScratchSpace.folder.path)"),
        Fault(name: "kept copy is a symbolic link out of the folder", damage: { package in
            let kept = package.root.appendingPathComponent(".tour/originals/01-Operation/main.swift")
            let text = try #require(package.text(kept))
            try package.write(text, to: package.outside)
            try FileManager.default.removeItem(at: kept)
            try FileManager.default.createSymbolicLink(at: kept, withDestinationURL: package.outside)
        }, message: "the kept copy .tour/originals/01-Operation/main.swift is a symbolic link to "),
        Fault(name: "the page's file is a symbolic link out of the folder", damage: { package in
            let main = package.operation.source
            try package.write(try #require(package.text(main)), to: package.outside)
            try FileManager.default.removeItem(at: main)
            try FileManager.default.createSymbolicLink(at: main, withDestinationURL: package.outside)
        }, message: "Lessons/01-Operation/main.swift is a symbolic link to "),
        Fault(name: "garbled bytes", damage: { try Data([0xFF, 0xFE, 0x00, 0x41, 0x0A]).write(to: manifest($0)) },
              message: "\(manifestPath) cannot be trusted: it is not text"),
        Fault(name: "garbled line", damage: { try $0.write(header + "not a manifest line\n", to: manifest($0)) },
              message: "\(manifestPath) cannot be trusted: line 2 is 'not a manifest line', not '<hash> <size> <name>'"),
        Fault(name: "without the page's main.swift", damage: { try $0.write(header + line("func helper() {}\n", "Helper.swift"), to: manifest($0)) },
              message: "\(manifestPath) cannot be trusted: it does not list the page's main.swift"),
        Fault(name: "another page's manifest", damage: { package in
            try OriginalPages(packageRoot: package.root).keepOriginal(of: package.queue)
            let foreign = package.root.appendingPathComponent(".tour/originals/02-Queue/manifest.txt")
            try FileManager.default.removeItem(at: manifest(package))
            try FileManager.default.copyItem(at: foreign, to: manifest(package))
        }, message: "\(manifestPath) cannot be trusted: it belongs to page folder '02-Queue', not to this page"),
        Fault(name: "no first line", damage: { try $0.write(line("print(1)\n", "main.swift"), to: manifest($0)) },
              message: "cannot be trusted: its first line is"),
    ]

    @Test(arguments: faults)
    func aBadOriginalIsRefusedAndNothingChanges(_ fault: Fault) async throws {
        let package = try TwoPageFolder()
        try OriginalPages(packageRoot: package.root).keepOriginal(of: package.operation)
        try package.write("print(\"the learner's edit\")\n", to: package.operation.source)
        try fault.damage(package)
        let before = package.tree()

        let (lines, status) = ResetCommand.execute("1", catalog: package.catalog)

        #expect(status == .endedOtherwise)
        let message = try #require(lines.first)
        #expect(message.hasPrefix("Page 1 (operation): could not reset: "), "\(message)")
        #expect(message.contains(fault.message), "\(message)")
        #expect(message.contains("Nothing was changed."), "\(message)")
        #expect(!message.contains("Domain") && !message.contains("error 5"), "no raw NSError text: \(message)")
        #expect(package.tree() == before, "a refused reset changes nothing")
        #expect(package.text(package.learnersFile) == "// the learner's package manifest\n")
    }

    @Test func aBadOriginalSaysHowToRecover() async throws {
        let package = try TwoPageFolder()
        try OriginalPages(packageRoot: package.root).keepOriginal(of: package.operation)
        try package.write("", to: Self.manifest(package))
        let message = try #require(ResetCommand.execute("operation", catalog: package.catalog).lines.first)
        #expect(message.contains("remove .tour/originals/01-Operation"), "\(message)")
        // Git's HEAD, when it has the page, is the original instead, so git has nothing to add here.
        #expect(!message.contains("git checkout"), "\(message)")
    }

    @Test func aFoundationErrorReadsAsTheSystemsReason() async throws {
        let package = try TwoPageFolder()
        let inside = package.learnersFile.appendingPathComponent("inside").path
        var caught: (any Error)?
        do {
            try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
        } catch {
            caught = error
        }
        let problem = FileProblem(try #require(caught), action: "create", path: inside)
        #expect(problem.description == "could not create \(inside): Not a directory")
    }

    @Test func resetThatCannotKeepTheLearnersVersionChangesNothing() async throws {
        let package = try TwoPageFolder()
        try OriginalPages(packageRoot: package.root).keepOriginal(of: package.operation)
        try package.write("print(\"an hour of work\")\n", to: package.operation.source)
        // A file where the kept versions' folder goes: no version can be kept, whoever runs the test.
        try package.write("in the way\n", to: package.root.appendingPathComponent(".tour/before-reset"))
        let before = package.tree()

        let (lines, status) = ResetCommand.execute("1", catalog: package.catalog)

        #expect(status == .endedOtherwise)
        let message = try #require(lines.first)
        #expect(message.contains("could not keep a copy of page 1 (01-Operation) in .tour/before-reset/01-Operation/1"), "\(message)")
        #expect(message.contains("so the reset would not be undoable. Nothing was changed"), "\(message)")
        #expect(package.tree() == before)
    }
}
