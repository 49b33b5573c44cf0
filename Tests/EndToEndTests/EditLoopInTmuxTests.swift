import Foundation
import Testing
import TourCore
import TourTestSupport

/// The playground loop in the real `tour`: a scripted editor changes page 1, the tutorial rebuilds and reruns it,
/// shows a compile error on its line, and `x` puts the original back.
///
/// Each test edits a `ScratchPackage`, a copy of the package with its own build folder, and runs the copy's `tour`:
/// the checkout's pages and programs are never touched, and nothing is shared with a test running at the same time.
extension TourInTmuxTests {
    @Test("e edits page 1 in a scripted editor: the new output appears; broken code shows its error on its line; x y restores the original run",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func editLoop() async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        let catalog = try scratch.catalog()
        let page = try #require(catalog.pages.first)
        let original = try Data(contentsOf: page.source)

        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tour-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let editScript = folder.appendingPathComponent("edit.sed")
        let argumentsLog = folder.appendingPathComponent("arguments")
        let editor = folder.appendingPathComponent("editor")
        // The editor applies whatever sed script the test wrote last to the file it is given (its last argument).
        try writeExecutable("""
            #!/bin/sh
            for file; do :; done
            echo "$*" >> '\(argumentsLog.path)'
            exec sed -i -f '\(editScript.path)' "$file"

            """, to: editor)

        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("bash --norc --noprofile -c '\(scratch.tour); echo \(Self.exitMarker); sleep 60'", width: 120, height: 40,
                             environment: scratch.environment.merging(["EDITOR": editor.path, "VISUAL": ""]) { $1 })
        try await tmux.waitFor("the sidebar") { $0.contains("Pages") && $0.contains("1 \(page.title.prefix(12))") }

        // Output rows carry the thread's lane and the queue's letter (and label, when wide) before the text; the page
        // pane shows the same words as code.
        let printedDone = #"main +[A-Z] (\S+ +)?Done: four operations"#
        let printedEdited = #"main +[A-Z] (\S+ +)?Edited: four operations"#
        try await tmux.runSkippingThePrediction()
        try await tmux.waitFor("page 1's last line, and its ending", timeout: 120) { $0.matches(printedDone) && $0.contains("ended normally") }

        try "s/Done: four operations/Edited: four operations/\n".write(to: editScript, atomically: true, encoding: .utf8)
        try await tmux.send("e")
        try await tmux.waitFor("the edited line printed by a new run", timeout: 120) { screen in
            screen.matches(printedEdited) && screen.contains("ended normally")
        }
        let arguments = try String(contentsOf: argumentsLog, encoding: .utf8)
        #expect(arguments.hasSuffix(page.source.path + "\n"), "the editor was given \(arguments)")

        try "s/^print(\"Edited:/prnt(\"Edited:/\n".write(to: editScript, atomically: true, encoding: .utf8)
        try await tmux.send("e")
        let broken = try await tmux.waitFor("the compile error and the page's state", timeout: 120) { screen in
            screen.contains("error: cannot find 'prnt' in scope") && screen.contains("does not compile: 1 error")
        }
        let brokenLine = try #require(String(decoding: try Data(contentsOf: page.source), as: UTF8.self)
            .components(separatedBy: "\n").firstIndex { $0.hasPrefix("prnt(") }) + 1
        let rows = broken.components(separatedBy: "\n")
        let codeRow = try #require(rows.firstIndex { $0.contains("\(brokenLine) prnt(\"Edited:") }, "line \(brokenLine) is not on screen:\n\(broken)")
        let messageRow = try #require(rows.firstIndex { $0.contains("error: cannot find 'prnt' in scope") && !$0.contains("main.swift") })
        // Under the code line, after its continuation rows.
        #expect(messageRow > codeRow && messageRow <= codeRow + 3, "the message is not under its line:\n\(broken)")
        #expect(rows.contains { $0.contains("does not compile: 1 error") })

        try await tmux.send("x")
        try await tmux.waitFor("the reset question") { $0.contains("Restore page 1 to its original text?") }
        try await tmux.send("y")
        try await tmux.waitFor("the original page's run again", timeout: 120) { screen in
            screen.matches(printedDone) && screen.contains("ended normally") && !screen.contains("does not compile")
        }
        #expect(try Data(contentsOf: page.source) == original, "x did not restore page 1 byte for byte")

        try await tmux.send("q")
        try await tmux.waitFor("the shell after quitting") { $0.contains(Self.exitMarker) }
    }

    @Test("x y puts back a page broken from another window, never edited through tour, as git's HEAD has it; the broken text is kept",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"),
          .enabled(if: GitCheckout.isAvailable, "git is not installed"))
    func resetOfAPageBrokenOutsideTour() async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        try await GitCheckout.commit(["Lessons"], in: scratch.root)
        let page = try #require(try scratch.catalog().pages.first)
        let original = try Data(contentsOf: page.source)
        let broken = Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "print(\"Done:", with: "prnt(\"Done:").utf8)
        #expect(broken != original)
        try broken.write(to: page.source)

        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("bash --norc --noprofile -c '\(scratch.tour); echo \(Self.exitMarker); sleep 60'", width: 120, height: 40,
                             environment: scratch.environment)
        try await tmux.waitFor("the sidebar") { $0.contains("Pages") && $0.contains("1 \(page.title.prefix(12))") }
        try await tmux.send("x")
        try await tmux.waitFor("the reset question") { $0.contains("Restore page 1 to its original text?") }
        try await tmux.send("y")
        let restored = await eventually(timeout: 30) { (try? Data(contentsOf: page.source)) == original }
        let screen = try await tmux.screen()
        #expect(restored, "x did not put page 1 back:\n\(screen)")
        let kept = scratch.root.appendingPathComponent(".tour/before-reset/\(page.folder)/1/\(page.source.lastPathComponent)")
        #expect(try Data(contentsOf: kept) == broken, "the text the reset replaced is kept, for u to bring back")

        try await tmux.send("q")
        try await tmux.waitFor("the shell after quitting") { $0.contains(Self.exitMarker) }
    }

    @Test("An editor that fails, or is not there, leaves a notice that names it and says to set VISUAL or EDITOR",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func editorProblems() async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        let catalog = try scratch.catalog()
        let page = try #require(catalog.pages.first)
        let original = try Data(contentsOf: page.source)
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tour-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let failing = folder.appendingPathComponent("failing-editor")
        try writeExecutable("#!/bin/sh\nexit 3\n", to: failing)

        for (editor, notice) in [(failing.path, "'\(failing.path)' ended with status 3"),
                                 (folder.appendingPathComponent("missing").path, "is not a program here")] {
            let tmux = Tmux()
            defer { tmux.stop() }
            try await tmux.start("bash --norc --noprofile -c '\(scratch.tour); echo \(Self.exitMarker); sleep 60'",
                                 width: 200, height: 40, environment: scratch.environment.merging(["EDITOR": editor, "VISUAL": ""]) { $1 })
            try await tmux.waitFor("the sidebar") { $0.contains("Pages") }
            try await tmux.send("e")
            let screen = try await tmux.waitFor("the notice about \(editor)") { $0.contains(notice) }
            #expect(screen.contains("Set VISUAL or EDITOR"))
            // The interface is whole again and still answers keys.
            try await tmux.send("n")
            try await tmux.waitFor("page 2 after the editor") { $0.contains("2/\(catalog.pages.count)") }
            try await tmux.send("q")
            try await tmux.waitFor("the shell after quitting") { $0.contains(Self.exitMarker) }
        }
        #expect((try? Data(contentsOf: page.source)) == original)
    }
}

extension String {
    /// Whether the text contains a match of the regular expression `pattern`.
    func matches(_ pattern: String) -> Bool {
        range(of: pattern, options: .regularExpression) != nil
    }
}
