import Foundation
import Testing
import TourCore
import TourTestSupport

/// What the interface asks of the terminal through ncurses: frames that reach it whole, or in as few writes as
/// ncurses' buffer allows, so that a terminal (or tmux, or a screen recorder) never shows one half drawn; and the
/// keypad mode arrow keys are read in, after a hand-over to an editor too.
@Suite("The curses terminal", .bodiesBelowTheRunner)
struct CursesTerminalTests {
    static let exitMarker = "TOUR-EXITED"
    static let strace: String? = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("The first frame reaches the terminal in a few writes, not one or more per line",
          .enabled(if: Tmux.isAvailable && strace != nil, "tmux or strace is not installed; .ci/run installs both"))
    func theFirstFrameGoesOutInAFewWrites() async throws {
        let package = try await StandInPackage.make(pages: ["01-Ticker": StandInPackage.ticker])
        defer { package.remove() }
        let log = package.root.appendingPathComponent("writes.log")
        let strace = try #require(Self.strace)
        let tmux = Tmux()
        defer { tmux.stop() }
        // Only the writes: each line of the log is one write(2) with its size, whichever thread made it.
        // The shell outlives tour (and strace, which has written the whole log when it ends), so the session stays.
        let traced = "\(strace) -f -qq -s 65536 -e trace=write -e signal=none -o \(log.path) \(package.tour)"
        try await tmux.start("sh -c '\(traced); echo \(Self.exitMarker); sleep 60'", width: 120, height: 40,
                             environment: ["TOUR_ROOT": package.root.path])
        try await tmux.waitFor("the first frame") { $0.contains("Pages") && $0.contains("q quit") }
        // Leaving curses once and coming back must not cost the keypad mode arrow keys are read in.
        _ = try await waitForPane("the keypad on with the first frame", tmux: tmux) { $0 == "1 1" }
        try await tmux.send("q")
        try await tmux.waitFor("the end of tour") { $0.contains(Self.exitMarker) }

        let writes = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("write(1, ") }
        // The frame starts with the sidebar's title and ends with the status line's last key.
        let first = try #require(writes.firstIndex { $0.contains("Pages") }, "no write drew the sidebar:\n\(writes.joined(separator: "\n"))")
        let last = try #require(writes[first...].firstIndex { $0.contains("quit") }, "no write drew the status line")
        let frame = writes[first...last]
        // A 120×40 frame is about 8 KB; ncurses' buffer holds (2 + 40) × (6 + 120) bytes, so three writes at most.
        #expect(frame.count <= 3, "the first frame took \(frame.count) writes:\n\(frame.joined(separator: "\n"))")
    }

    @Test("After the editor returns, the keypad is in the mode ncurses reads arrow keys in: the first Right moves to the next page",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func anArrowKeyAfterTheEditorIsOneKey() async throws {
        let package = try await StandInPackage.make(pages: ["01-Ticker": StandInPackage.ticker, "02-Second": StandInPackage.ticker])
        defer { package.remove() }
        let marker = package.root.appendingPathComponent("editor-ran")
        // An editor that changes nothing, says it ran, and returns at once.
        let editor = try await package.script(named: "editor.sh", "#!/bin/sh\ntouch '\(marker.path)'\n")
        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("sh -c '\(package.tour); echo \(Self.exitMarker); sleep 60'", width: 120, height: 40,
                             environment: ["TOUR_ROOT": package.root.path, "EDITOR": editor, "VISUAL": ""])
        try await tmux.waitFor("page 1") { $0.contains("1/2 Ticker") && $0.contains("q quit") }
        try await tmux.send("e")
        // Back from the editor: tmux sends an arrow key as the keypad mode the program last asked for, and ncurses
        // reads only the one its terminfo entry names (`ESC O C` for Right); so the mode must be back before any key.
        let flags = try await waitForPane("the interface back from the editor, keypad on", tmux: tmux) { flags in
            FileManager.default.fileExists(atPath: marker.path) && flags == "1 1"
        }
        #expect(flags == "1 1")
        try await tmux.send("Right")
        try await tmux.waitFor("page 2, after Right") { $0.contains("2/2 Ticker") }
        try await tmux.send("q")
        try await tmux.waitFor("the end of tour") { $0.contains(Self.exitMarker) }
    }

    /// Polls the pane's alternate-screen and keypad-cursor flags (`"1 1"`: both on) until `condition` holds.
    private func waitForPane(_ what: String, tmux: Tmux, timeout: Double = 20, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var flags = ""
        while Date() < deadline {
            flags = try await tmux.run(["display-message", "-p", "-t", tmux.session, "#{alternate_on} #{keypad_cursor_flag}"])
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if condition(flags) { return flags }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Tmux.Failure(description: "timed out after \(timeout) s waiting for \(what); the flags were \(flags)")
    }
}
