import Foundation
import Testing
import TourCore

/// How a frame reaches the terminal: whole, or in as few writes as ncurses' buffer allows, so that a terminal (or
/// tmux, or a screen recorder) never shows a frame half drawn.
@Suite("Frame output")
struct FrameOutputTests {
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
}
