import Foundation
import Presenting
import Testing
import TourCore
import TourTestSupport

/// Speaker notes as a speaker uses them: `tour present` in one tmux window, `tour notes` in another, following it
/// key by key; and a second presenter on the same machine whose notes go to a second `tour notes --session`.
@Suite("tour notes following presenters in tmux", .bodiesBelowTheRunner)
struct NotesInTmuxTests {
    static let endMarker = "NOTES-EXITED"

    /// The first 40 characters of a block's words, as the notes' SHOWING and NEXT sections start them.
    static func opening(_ block: PresentedBlock) -> String {
        String(block.plainText.split(separator: "\n").first.map(String.init)?.prefix(40) ?? "")
    }

    /// The notes folder of the test's own, short enough for a socket path, private as `tour` requires.
    static func privateRuntimeFolder() throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp/tour-notes-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Waits (suspended between looks, never blocking) until the presenter `pid` has opened its socket, which it does
    /// with its first snapshot; `tour notes --session` started before then would find no such presenter.
    static func waitForSocket(of pid: Int32, in runtime: URL, timeout: Double = 60) async throws {
        let path = runtime.appendingPathComponent("tour/presenter-\(pid).sock").path
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: path) {
            try #require(Date() < deadline, "presenter \(pid) opened no socket at \(path) in \(timeout) s")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test("Two presenters, two notes windows: each follows its own presenter's keys, and neither shows the other's page",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func notesFollowTheirOwnPresenter() async throws {
        let catalog = try PageCatalog.load()
        let groups = try #require(catalog.page(named: "groups"))
        let queue = try #require(catalog.page(named: "queue"))
        let groupBlocks = groups.readParsedSource().document.presentedBlocks
        let queueBlocks = queue.readParsedSource().document.presentedBlocks
        try #require(groupBlocks.count >= 4 && queueBlocks.count >= 3)
        // The block that carries the first speaker note of page 7 past its title, to see the notes follow into it.
        let notedIndex = try #require(groupBlocks.indices.dropFirst().first { !groupBlocks[$0].notes.isEmpty })
        let note = String(try #require(groupBlocks[notedIndex].notes.first).prefix(40))

        let runtime = try Self.privateRuntimeFolder()
        defer { try? FileManager.default.removeItem(at: runtime) }
        let environment = ["XDG_RUNTIME_DIR": runtime.path]
        let tour = BuildProducts.executable(named: "tour")
        let tmux = Tmux()
        defer { tmux.stop() }

        // Presenter A in the session's first window; `exec`, so the pane's process is the presenter and its id the session.
        try await tmux.start("exec \(tour) present groups", width: 120, height: 40, environment: environment)
        let presenterA = try await tmux.panePID(window: "0")
        try await Self.waitForSocket(of: presenterA, in: runtime)
        try await tmux.startWindow("notesA", "bash --norc --noprofile -c '\(tour) notes --session \(presenterA); echo \(Self.endMarker) $?; sleep 60'",
                                   environment: environment)
        let whereA = { (block: Int) in "Notes for presenter \(presenterA) · page 7: Groups  block \(block) of \(groupBlocks.count)" }
        try await tmux.waitFor("notes A on page 7's title", window: "notesA") { $0.contains(whereA(1)) && $0.contains(Self.opening(groupBlocks[1])) }

        // Presenter B, on the same machine and in the same runtime folder, with notes of its own.
        try await tmux.startWindow("presenterB", "exec \(tour) present queue", environment: environment)
        let presenterB = try await tmux.panePID(window: "presenterB")
        try await Self.waitForSocket(of: presenterB, in: runtime)
        try await tmux.startWindow("notesB", "bash --norc --noprofile -c '\(tour) notes --session \(presenterB); echo \(Self.endMarker) $?; sleep 60'",
                                   environment: environment)
        let whereB = { (block: Int) in "Notes for presenter \(presenterB) · page 2: Queue  block \(block) of \(queueBlocks.count)" }
        let firstB = try await tmux.waitFor("notes B on page 2's title", window: "notesB") { $0.contains(whereB(1)) }
        #expect(firstB.contains("also live: \(presenterA)"), "notes B names the other live presenter:\n\(firstB)")

        // A walks to the block with the note: A's notes follow, step by step; B's stay where B is.
        for block in 2...(notedIndex + 1) {
            try await tmux.send("Space", to: "0")
            try await tmux.waitFor("notes A at block \(block)", window: "notesA") { screen in
                screen.contains(whereA(block)) && screen.contains(Self.opening(groupBlocks[block - 1]))
                    && (groupBlocks.indices.contains(block) ? screen.contains(Self.opening(groupBlocks[block])) : true)
            }
        }
        let notedA = try await tmux.screen(window: "notesA")
        #expect(notedA.contains(note), "the speaker's note of block \(notedIndex + 1) is shown:\n\(notedA)")
        let stillB = try await tmux.screen(window: "notesB")
        #expect(stillB.contains(whereB(1)))
        #expect(!stillB.contains("page 7: Groups") && !stillB.contains(note), "nothing of A's talk reaches B's notes:\n\(stillB)")

        // B steps on; A's notes stay on A's block; then B steps back.
        try await tmux.send("Right", to: "presenterB")
        try await tmux.send("Right", to: "presenterB")
        try await tmux.waitFor("notes B at block 3", window: "notesB") { $0.contains(whereB(3)) && $0.contains(Self.opening(queueBlocks[2])) }
        try await tmux.send("Left", to: "presenterB")
        try await tmux.waitFor("notes B back at block 2", window: "notesB") { $0.contains(whereB(2)) && $0.contains(Self.opening(queueBlocks[1])) }
        let afterB = try await tmux.screen(window: "notesA")
        #expect(afterB.contains(whereA(notedIndex + 1)), "A's notes did not move with B's keys:\n\(afterB)")
        #expect(!afterB.contains("page 2: Queue"), "nothing of B's talk reaches A's notes:\n\(afterB)")

        // A quits: its notes say so and end by themselves; B's notes go on following B.
        try await tmux.send("q", to: "0")
        let endedA = try await tmux.waitFor("notes A ending", window: "notesA") { $0.contains(Self.endMarker) }
        #expect(endedA.contains("The presenter (session \(presenterA)) has gone"))
        #expect(endedA.contains("\(Self.endMarker) 0"))
        try await tmux.send("Right", to: "presenterB")
        try await tmux.waitFor("notes B still following B", window: "notesB") { $0.contains(whereB(3)) }
    }
}

/// `tour present --record FILE.cast` as a speaker makes a backup of a rehearsal: a real presenter in a real terminal,
/// then the recording read back as asciinema reads it and replayed into a terminal of the recording's size.
@Suite("tour present --record in tmux", .bodiesBelowTheRunner)
struct PresenterRecordingInTmuxTests {
    static let exitMarker = "PRESENTER-EXITED"

    /// The screen's rows with the presenter's clock ("01:23") blanked: it ticks every second, so the frame the
    /// recording ends with may be a tick later than the screen last captured.
    static func withoutClock(_ rows: [String]) -> [String] {
        rows.map { $0.replacingOccurrences(of: #"\d+:\d\d"#, with: "--:--", options: .regularExpression) }
    }

    @Test("The recording is asciicast v2 at the terminal's size, its times never go back, and its replay ends on the screen the room saw",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func recordingReplaysToTheLastScreen() async throws {
        let catalog = try PageCatalog.load()
        let groups = try #require(catalog.page(named: "groups"))
        let blocks = groups.readParsedSource().document.presentedBlocks
        try #require(blocks.count >= 3)
        let folder = try NotesInTmuxTests.privateRuntimeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cast = folder.appendingPathComponent("rehearsal.cast").path
        let tour = BuildProducts.executable(named: "tour")
        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("bash --norc --noprofile -c '\(tour) present --record \(cast) groups; echo \(Self.exitMarker) $?; sleep 60'",
                             width: 80, height: 24, environment: ["XDG_RUNTIME_DIR": folder.path])
        try await tmux.waitFor("the presenter on page 7") { $0.contains("Groups") }
        try await tmux.send("Space")
        try await tmux.send("Space")
        let third = String(NotesInTmuxTests.opening(blocks[2]).prefix(20))
        let shown = try await tmux.waitFor("the third block on screen") { $0.contains(third) }
        try await tmux.send("q")
        let ended = try await tmux.waitFor("the presenter's end") { $0.contains(Self.exitMarker) }
        #expect(ended.contains("\(Self.exitMarker) 0"))

        let (header, events) = try Asciicast.read(cast)
        #expect(header["version"] as? Int == 2)
        #expect(header["width"] as? Int == 80)
        #expect(header["height"] as? Int == 24)
        try #require(!events.isEmpty)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "the times never go back")
        var terminal = TerminalEmulator(width: 80, height: 24)
        for event in events { terminal.feed(event.text) }
        #expect(terminal.unknownSequences.isEmpty, "only the escapes a replay knows: \(terminal.unknownSequences.prefix(5))")
        let screenRows = shown.components(separatedBy: "\n").prefix(24).map { $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
        #expect(Self.withoutClock(terminal.text) == Self.withoutClock(Array(screenRows) + Array(repeating: "", count: max(0, 24 - screenRows.count))),
                "the replay's last screen:\n\(terminal.text.joined(separator: "\n"))\nthe terminal's:\n\(shown)")
    }

    @Test("A resize while recording is an r event, pages and runs are markers, and the header has a title and an idle limit",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func resizesAndMarkersAreRecorded() async throws {
        let folder = try NotesInTmuxTests.privateRuntimeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cast = folder.appendingPathComponent("resized.cast").path
        let tour = BuildProducts.executable(named: "tour")
        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("bash --norc --noprofile -c '\(tour) present --speed 10 --record \(cast) groups; echo \(Self.exitMarker) $?; sleep 60'",
                             width: 80, height: 24, environment: ["XDG_RUNTIME_DIR": folder.path])
        try await tmux.waitFor("the presenter on page 7") { $0.contains("Groups") }
        try await tmux.resize(width: 100, height: 30)
        try await tmux.send("r")
        try await tmux.waitFor("the run's end") { $0.contains("ended normally") }
        try await tmux.send("q")
        try await tmux.waitFor("the presenter's end") { $0.contains(Self.exitMarker) }

        let (header, events) = try Asciicast.readAll(cast)
        #expect(header["title"] as? String == "ConcurrencyTour on stage")
        #expect(header["idle_time_limit"] as? Int == AsciicastRecorder.idleTimeLimit)
        #expect(events.contains { $0.code == "r" && $0.text == "100x30" }, "\(events.filter { $0.code != "o" })")
        let markers = events.filter { $0.code == "m" }.map(\.text)
        #expect(markers == ["page 7: Groups", "run of page 7"])
    }

    @Test("tour run --cast in a 120×40 terminal records a 120×40 one",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func plainRecordingHasTheTerminalsSize() async throws {
        let folder = try NotesInTmuxTests.privateRuntimeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cast = folder.appendingPathComponent("run.cast").path
        let tour = BuildProducts.executable(named: "tour")
        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("bash --norc --noprofile -c '\(tour) run 1 --plain --speed 10 --cast \(cast); echo \(Self.exitMarker) $?; sleep 60'",
                             width: 120, height: 40)
        let ended = try await tmux.waitFor("the run's end") { $0.contains(Self.exitMarker) }
        #expect(ended.contains("\(Self.exitMarker) 0"))
        let (header, events) = try Asciicast.readAll(cast)
        #expect(header["width"] as? Int == 120)
        #expect(header["height"] as? Int == 40)
        #expect(header["title"] as? String == "ConcurrencyTour, page 1: Operation")
        #expect(events.first.map { $0.code == "m" && $0.text == "run of page 1" } == true)
    }

    @Test("--theme light shades code for a light screen, contrast for a washed-out one, dark by default; TOUR_THEME chooses as well",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func themesColourTheScreen() async throws {
        let tour = BuildProducts.executable(named: "tour")
        // The shade behind code in each theme (xterm 236, 255, 16), as tmux reports the cells' colours.
        let shades: [(arguments: String, environment: [String: String], shade: String)] = [
            ("--page 1", [:], "48;5;236"), ("--page 1 --theme light", [:], "48;5;255"),
            ("--page 1", ["TOUR_THEME": "contrast"], "48;5;16"), ("present 1 --theme light", [:], "48;5;255"),
        ]
        for (arguments, environment, shade) in shades {
            let tmux = Tmux()
            defer { tmux.stop() }
            try await tmux.startInColor("\(tour) \(arguments)", environment: environment.merging(["TOUR_BUILD_NOTICE": "off"]) { $1 })
            // The page's title comes first; its code, shaded, once the page is read (on stage, once it is revealed).
            _ = try await tmux.waitFor("page 1, \(arguments)", colors: true) { $0.contains("Operation") }
            if arguments.hasPrefix("present") { try await tmux.send("Space", "Space", "Space", "Space") }
            let shown = try await tmux.waitFor("page 1's code, \(arguments)", colors: true) { $0.contains("import") }
            #expect(shown.contains(shade), "\(arguments) \(environment): no \(shade)")
            for other in Set(shades.map(\.shade)).subtracting([shade]) {
                #expect(!shown.contains(other), "\(arguments) \(environment) also shows \(other)")
            }
        }
    }
}
