import ExerciseJudging
import Foundation
import Testing
import TourCore
import TourTestSupport

/// The exercises in the real `tour`, as a learner meets them on page 3: the prediction before the run and its grade,
/// a failing check with what is wrong, a hint, a fix saved from a scripted editor that checks again and passes, and
/// after a restart the tutorial back on page 3 with its exercises marked done.
///
/// In a `ScratchPackage`: the learner's exercise file that the editor overwrites is the copy's, never the checkout's.
extension TourInTmuxTests {
    @Test("Page 3: predict, run, fail the check, take a hint, fix it in $EDITOR, pass, quit, reopen on page 3 marked done",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func exerciseStory() async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        let catalog = try scratch.catalog()
        let page = try #require(catalog.pages.first { $0.number == 3 })
        let exercises = try #require(ExerciseCatalog.exercises(forPage: page.slug), "page 3 has no exercises")
        let challenge = exercises.challenge
        let exerciseFile = scratch.root.appendingPathComponent(challenge.file)
        let solutionFile = scratch.root.appendingPathComponent(challenge.solutionFile)
        let untouched = try Data(contentsOf: exerciseFile)
        let solution = try Data(contentsOf: solutionFile)
        try #require(untouched != solution)

        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tour-exercise-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let editor = folder.appendingPathComponent("editor")
        // The learner "fixes" the file by writing the reference solution over it: the file is the last argument.
        try writeExecutable("""
            #!/bin/sh
            for file; do :; done
            cp '\(solutionFile.path)' "$file"

            """, to: editor)

        let tmux = Tmux()
        defer { tmux.stop() }
        let command = "bash --norc --noprofile -c '\(scratch.tour); echo \(Self.exitMarker); sleep 60'"
        let environment = scratch.environment.merging(["EDITOR": editor.path, "VISUAL": ""]) { $1 }
        try await tmux.start(command, width: 120, height: 40, environment: environment)
        try await tmux.waitFor("the sidebar") { $0.contains("Pages") && $0.contains("3 \(page.title.prefix(12))") }
        try await tmux.send("n")
        try await tmux.send("n")
        try await tmux.waitFor("page 3") { $0.contains("3/\(catalog.pages.count) \(page.title.prefix(12))") }

        // r asks the prediction before running; a choice answers it and runs the page, whose end grades it.
        try await tmux.send("r")
        // The dialog's title is drawn before its text: wait for both, or a capture taken between them finds no question.
        let asked = String(exercises.prediction.question.prefix(30))
        try await tmux.waitFor("the prediction, with its question") { $0.contains("Predict, then run page 3") && $0.contains(asked) }
        let choice = try #require(exercises.prediction.choices.first)
        try await tmux.send(choice.key)
        let graded = try await tmux.waitFor("the grade of the answer", timeout: 120) { $0.contains("You said (\(choice.key))") }
        #expect(graded.contains("answered, right") || graded.contains("answered, not right"), "\(graded)")

        // c checks the untouched exercise: it fails, and says what is wrong.
        try await tmux.send("c")
        let failed = try await tmux.waitFor("the failing check", timeout: 300) { $0.contains("still wrong") }
        #expect(failed.contains("✗ "), "a failing finding is marked:\n\(failed)")
        #expect(failed.contains("Check failed: "), "\(failed)")
        #expect(try Data(contentsOf: exerciseFile) == untouched, "a check changes nothing in the learner's file")

        try await tmux.send("h")
        try await tmux.waitFor("the first hint") { $0.contains("Hint 1 of \(challenge.hints.count)") }

        // E opens the exercise in the editor; its save checks again, and the solution passes.
        try await tmux.send("E")
        try await tmux.waitFor("the passing check after the save", timeout: 300) { $0.contains("Check passed") && $0.contains("✓ passed") }
        #expect(try Data(contentsOf: exerciseFile) == solution)
        #expect(try Data(contentsOf: solutionFile) == solution, "the solution is never written")
        // The untouched exercise was kept before the editor changed it, so `tour reset 3` can put it back.
        let kept = scratch.root.appendingPathComponent(".tour/originals/Exercises/\(challenge.folder)/main.swift")
        #expect((try? Data(contentsOf: kept)) == untouched, "no original of the exercise at \(kept.path)")

        try await tmux.send("q")
        try await tmux.waitFor("the shell after quitting") { $0.contains(Self.exitMarker) }
        let store = ProgressStore(file: tmux.stateFolder.appendingPathComponent("tour/progress.json"))
        let recorded = try #require(try store.read().record.pages[page.slug])
        #expect(recorded.exercises[challenge.id] != nil)
        #expect(recorded.predictions[exercises.prediction.id] != nil)
        let attempts = try #require(recorded.attempts[challenge.id])
        #expect(attempts.hintsShown == 1)
        #expect(attempts.checks >= 2 && attempts.failedChecks >= 1, "the failing check and the passing one: \(attempts)")

        // Reopened, the tutorial is back on page 3, its exercises marked done in the list.
        // A second session keeps the server up while the tutorial's is replaced: a server leaves with its last
        // session, and a `new-session` that reached it while it was still going failed with "server exited
        // unexpectedly" (seen once in a clean-clone CI run).
        try await tmux.run(["new-session", "-d", "-s", "keeper", "sleep 600"])
        try await tmux.run(["kill-session", "-t", tmux.session])
        try await tmux.start(command, width: 120, height: 40, environment: environment)
        let reopened = try await tmux.waitFor("page 3 after the restart") { $0.contains("3/\(catalog.pages.count) \(page.title.prefix(12))") }
        let row = try #require(reopened.components(separatedBy: "\n").first { $0.contains("3 \(page.title.prefix(12))") && $0.contains("│") })
        #expect(row.contains("●"), "page 3's exercises are not marked done: \(row)")
        try await tmux.send("q")
        try await tmux.waitFor("the shell after quitting again") { $0.contains(Self.exitMarker) }
    }
}
