import Foundation
import Testing
import TourCore
import TourTestSupport

@Suite("Editor choice", .bodiesBelowTheRunner)
struct EditorChoiceTests {
    @Test("VISUAL wins over EDITOR; an empty one counts as unset")
    func variables() {
        #expect(EditorChoice.choose(environment: ["VISUAL": "vim", "EDITOR": "nano"]) == EditorChoice(command: "vim", origin: "$VISUAL"))
        #expect(EditorChoice.choose(environment: ["VISUAL": " ", "EDITOR": "emacs -nw"]) == EditorChoice(command: "emacs -nw", origin: "$EDITOR"))
    }

    @Test("With neither set, the first of nano, vim and vi on PATH; nil when there is none")
    func fallback() throws {
        let folder = ScratchSpace.folder.appendingPathComponent("editors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Never run, only looked up: an executable bit is all it needs.
        try #require(FileManager.default.createFile(atPath: folder.appendingPathComponent("vi").path, contents: Data("#!/bin/sh\n".utf8),
                                                    attributes: [.posixPermissions: 0o755]))
        #expect(EditorChoice.choose(environment: ["PATH": folder.path]) == EditorChoice(command: "vi", origin: "found on PATH"))
        #expect(EditorChoice.choose(environment: ["PATH": folder.appendingPathComponent("empty").path]) == nil)
    }

    @Test("+N only for editors known to take it; the program is read without its arguments")
    func lineArgument() {
        #expect(EditorChoice(command: "/usr/bin/nano", origin: "$EDITOR").arguments(file: "/p/main.swift", line: 12) == ["+12", "/p/main.swift"])
        #expect(EditorChoice(command: "vim -p", origin: "$EDITOR").arguments(file: "/p/main.swift", line: 3) == ["+3", "/p/main.swift"])
        #expect(EditorChoice(command: "code -w", origin: "$VISUAL").arguments(file: "/p/main.swift", line: 3) == ["/p/main.swift"])
        #expect(EditorChoice(command: "/usr/bin/vim -p", origin: "$EDITOR").program == "/usr/bin/vim")
    }
}
