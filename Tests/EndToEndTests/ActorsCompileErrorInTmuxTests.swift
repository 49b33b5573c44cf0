import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 11's compile-time lesson in the real `tour`: a scripted editor turns `actor Person` into `class Person` in a
/// `ScratchPackage`, and the interface shows Swift 6's data-race diagnostic on the line that shares the person
/// between tasks. The checkout's page is never touched.
extension TourInTmuxTests {
    @Test("Removing `actor` from page 11's Person: the compiler's non-Sendable error appears under the line that uses it in a task",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func actorRemovedShowsTheDataRaceError() async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        let page = try #require(try scratch.catalog().pages.first { $0.source.path.contains("11-Actors") })

        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tour-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let editor = folder.appendingPathComponent("editor")
        try writeExecutable("""
            #!/bin/sh
            for file; do :; done
            exec sed -i 's/^actor Person {/class Person {/' "$file"

            """, to: editor)

        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("bash --norc --noprofile -c '\(scratch.tour) --page 11; echo \(Self.exitMarker); sleep 60'", width: 120, height: 40,
                             environment: scratch.environment.merging(["EDITOR": editor.path, "VISUAL": ""]) { $1 })
        try await tmux.waitFor("page 11") { $0.contains("Pages") && $0.contains("Actors") }
        try await tmux.send("e")
        // The message's start: the pane wraps the rest of it onto the next row.
        let message = "error: non-Sendable type 'Person' of let 'person' cannot exit main"
        let broken = try await tmux.waitFor("the data-race error", timeout: 240) { $0.contains(message) && $0.contains("does not compile") }
        let lines = String(decoding: try Data(contentsOf: page.source), as: UTF8.self).components(separatedBy: "\n")
        #expect(lines.contains("class Person {"), "the scripted edit did not land")
        let useLine = try #require(lines.firstIndex { $0.contains("await person.changeName(firstName: first, lastName: last)") }) + 1
        let rows = broken.components(separatedBy: "\n")
        let codeRow = try #require(rows.firstIndex { $0.contains("\(useLine)") && $0.contains("person.changeName(firstName: first") },
                                   "line \(useLine) is not on screen:\n\(broken)")
        let messageRow = try #require(rows.firstIndex { $0.contains(message) && !$0.contains("main.swift") })
        #expect(messageRow > codeRow && messageRow <= codeRow + 3, "the message is not under line \(useLine):\n\(broken)")
        try await tmux.send("q")
        try await tmux.waitFor("the shell after quitting") { $0.contains(Self.exitMarker) }
    }
}
