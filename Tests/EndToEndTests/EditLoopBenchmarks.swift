import Foundation
import Testing
import TourCore
import TourTestSupport

/// Issue 6's budget in the full-screen tutorial: from a saved change of page 1 to the new run's first output line
/// on screen. The file is written from outside, as another editor window would; tmux's `capture-pane` polls are
/// process starts, so the figures are upper bounds. Edits page 1 of a `ScratchPackage`, never the checkout's.
extension InteractiveTourBenchmarks {
    @Test("A saved one-line change of page 1 to the new run's first output line on screen (nine changes)")
    func savedChangeToNewOutput() async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        let page = try #require(try scratch.catalog().pages.first)
        let text = try String(contentsOf: page.source, encoding: .utf8)
        try #require(text.contains("print(\"Loaded "), "page 1 no longer prints \"Loaded …\" first")

        let tmux = Tmux()
        defer { tmux.stop() }
        // Tall enough that the output pane holds the whole run: at 40 rows the first line scrolls away as the run ends,
        // and a slow poll could miss it.
        try await tmux.start("bash --norc --noprofile -c 'exec \(scratch.tour)'", width: 120, height: 60, environment: scratch.environment)
        try await tmux.waitFor("the first frame") { $0.contains("Pages") }
        try await tmux.send("r")
        try await tmux.waitFor("the first run's end", timeout: 60) { $0.contains("ended normally") }

        var seconds: [Double] = []
        for change in 1...9 {
            let changed = text.replacingOccurrences(of: "print(\"Loaded ", with: "print(\"Loaded\(change) ")
            try Data(changed.utf8).write(to: page.source, options: .atomic)
            let saved = Date()
            try await tmux.waitFor("change \(change)'s first line", timeout: 30, poll: 0.002) { $0.matches(#"main +[A-Z] (\S+ +)?Loaded"# + "\(change) ") }
            seconds.append(Date().timeIntervalSince(saved))
            try await tmux.waitFor("change \(change)'s run to end", timeout: 30) { $0.contains("ended normally") && !$0.contains("s stop") }
        }
        seconds.sort()
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        print("benchmark saved-change-to-output: median \(String(format: "%.2f", seconds[4])) s, best \(String(format: "%.2f", seconds[0])) s, worst \(String(format: "%.2f", seconds[8])) s over 9 changes; load average \(load)")
        #expect(seconds[4] < 1.5)
    }
}
