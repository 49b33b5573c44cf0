import Foundation
import Testing
import TourCore
import TourTestSupport

/// A page's compile-time lesson in the real `tour`: a scripted editor changes the page of a `ScratchPackage`, and the
/// interface shows the compiler's error under the line it names. The checkout's page is never touched.
extension TourInTmuxTests {
    /// Opens page `number` (its folder contains `folder`) in a `ScratchPackage`'s `tour`, presses `e` with an editor
    /// that runs `sed -i` with `edit` on the page, and waits until the interface shows `message` and says the page does
    /// not compile. Returns that screen and the page's lines as the editor left them; quits the tutorial after `inspect`.
    func afterEditing(page number: Int, folder: String, title: String, with edit: String, showing message: String,
                      _ inspect: (_ screen: String, _ lines: [String]) throws -> Void) async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        let page = try #require(try scratch.catalog().pages.first { $0.source.path.contains(folder) })

        let editorFolder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tour-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: editorFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: editorFolder) }
        let editor = editorFolder.appendingPathComponent("editor")
        try writeExecutable("""
            #!/bin/sh
            for file; do :; done
            exec sed -i '\(edit)' "$file"

            """, to: editor)

        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("bash --norc --noprofile -c '\(scratch.tour) --page \(number); echo \(Self.exitMarker); sleep 60'",
                             width: 120, height: 40,
                             environment: scratch.environment.merging(["EDITOR": editor.path, "VISUAL": ""]) { $1 })
        try await tmux.waitFor("page \(number)") { $0.contains("Pages") && $0.contains(title) }
        try await tmux.send("e")
        let broken = try await tmux.waitFor("the compiler's error", timeout: 240) { $0.contains(message) && $0.contains("does not compile") }
        try inspect(broken, String(decoding: try Data(contentsOf: page.source), as: UTF8.self).components(separatedBy: "\n"))
        try await tmux.send("q")
        try await tmux.waitFor("the shell after quitting") { $0.contains(Self.exitMarker) }
    }

    /// Expects `message` on one of the three rows of `screen` under the row of source line `line`, which shows `code`.
    static func expectMessage(_ message: String, under line: Int, showing code: String, in screen: String) throws {
        let rows = screen.components(separatedBy: "\n")
        let codeRow = try #require(rows.firstIndex { $0.contains("\(line)") && $0.contains(code) }, "line \(line) is not on screen:\n\(screen)")
        let messageRow = try #require(rows.firstIndex { $0.contains(message) && !$0.contains("main.swift") })
        #expect(messageRow > codeRow && messageRow <= codeRow + 3, "the message is not under line \(line):\n\(screen)")
    }

    @Test("Using page 12's cover after sending it to the album: the sending error appears under the send, its note under the use",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func coverUsedAfterItsSendShowsTheRegionError() async throws {
        try await afterEditing(page: 12, folder: "12-Isolation", title: "Isolation",
                               with: #"s|^    // cover.caption = "espresso"|    cover.caption = "espresso"|"#,
                               showing: "error: sending 'cover' risks causing data races") { screen, lines in
            let useLine = try #require(lines.firstIndex { $0.hasPrefix(#"    cover.caption = "espresso""#) }, "the scripted edit did not land") + 1
            let sendLine = try #require(lines.firstIndex { $0.contains("await album.add(cover)") }) + 1
            try Self.expectMessage("error: sending 'cover' risks causing data races", under: sendLine,
                                   showing: "await album.add(cover)", in: screen)
            try Self.expectMessage("note: access can happen concurrently", under: useLine, showing: #"cover.caption = "espresso""#, in: screen)
        }
    }
}
