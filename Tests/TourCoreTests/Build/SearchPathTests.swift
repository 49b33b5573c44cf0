import Foundation
import Testing
import TourCore
import TourTestSupport

/// The one `PATH` lookup, shared by the editor choice, the page builder and the tests.
@Suite("Search path", .bodiesBelowTheRunner)
struct SearchPathTests {
    /// Two folders in a fresh temporary folder, `first` and `second`, removed by `remove()`.
    private struct Folders {
        let root = ScratchSpace.folder.appendingPathComponent("search-path-\(UUID().uuidString)")
        var first: URL { root.appendingPathComponent("first") }
        var second: URL { root.appendingPathComponent("second") }

        init() throws {
            for folder in [first, second] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
        }

        func remove() {
            try? FileManager.default.removeItem(at: root)
        }
    }

    @Test("PATH's folders in order, an empty entry kept as the current folder; /usr/bin:/bin when PATH is unset")
    func folders() {
        #expect(SearchPath(environment: ["PATH": "/a::/b"]).folders == ["/a", "", "/b"])
        #expect(SearchPath(environment: [:]).folders == ["/usr/bin", "/bin"])
        #expect(SearchPath(environment: ["PATH": "/a:/b"]).description == "/a:/b")
    }

    @Test("The first folder holding an executable file wins; a folder or a plain file of that name is passed over")
    func firstExecutableWins() throws {
        let folders = try Folders()
        defer { folders.remove() }
        let path = SearchPath(folders: [folders.first.path, folders.second.path])
        #expect(path.find("tool") == nil)

        // A folder named like the program, and a file without the executable bit: neither can be run.
        try FileManager.default.createDirectory(at: folders.first.appendingPathComponent("tool"), withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: folders.first.appendingPathComponent("plain"))
        try writeExecutable("#!/bin/sh\n", to: folders.second.appendingPathComponent("tool"))
        try writeExecutable("#!/bin/sh\n", to: folders.second.appendingPathComponent("plain"))
        #expect(path.find("tool") == folders.second.appendingPathComponent("tool").path)
        #expect(path.find("plain") == folders.second.appendingPathComponent("plain").path)

        try writeExecutable("#!/bin/sh\n", to: folders.first.appendingPathComponent("other"))
        try writeExecutable("#!/bin/sh\n", to: folders.second.appendingPathComponent("other"))
        #expect(path.find("other") == folders.first.appendingPathComponent("other").path)
    }

    @Test("A program with a slash is taken as it is, if it can be run, whatever the folders")
    func programWithASlash() throws {
        let folders = try Folders()
        defer { folders.remove() }
        let tool = folders.first.appendingPathComponent("tool")
        let path = SearchPath(folders: [])
        #expect(path.find(tool.path) == nil)
        try writeExecutable("#!/bin/sh\n", to: tool)
        #expect(path.find(tool.path) == tool.path)
        #expect(path.find(folders.first.path) == nil, "a folder is not a program")
    }
}
