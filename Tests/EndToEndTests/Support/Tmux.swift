@preconcurrency import Glibc
import Foundation
import Synchronization
import TourCore
import TourTestSupport

/// A tmux server of the test's own (its own socket, so parallel tests and a learner's tmux never meet),
/// with helpers to type, read the screen and wait for it to show something.
final class Tmux: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static var isAvailable: Bool { executable != nil }

    let socket: String
    let session = "tour"

    init() {
        socket = "tour-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    }

    /// Ends the server and whatever still runs in it (its panes get SIGHUP), and gives back the page-run slot
    /// `start` took. Call it in a `defer`: a test that fails half-way must not leave a tutorial running. The one
    /// command that blocks its caller, since a `defer` cannot await; a `kill-server` client returns within milliseconds.
    func stop() {
        _ = try? command(["kill-server"])
        if let ticket = slot.withLock({ held in defer { held = nil }; return held }) { PageRunSlots.shared.release(ticket) }
        try? FileManager.default.removeItem(at: stateFolder)
    }

    /// The page-run slot `start` took, until `stop` gives it back.
    private let slot = Mutex<PageRunSlots.Ticket?>(nil)

    /// The `XDG_STATE_HOME` of what runs in this server: its progress is its own, never the learner's, and every
    /// test's tutorial starts on page 1 rather than where another test left off.
    var stateFolder: URL { FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-state") }

    /// Runs a tmux command on this server and returns its standard output (a `BlockingCommand`, on a thread of its own).
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        let arguments = arguments
        return try await awaitBlocking("tmux-client") { [self] in try command(arguments) }
    }

    /// `run`, blocking the calling thread until the client ends.
    private func command(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw Failure(description: "tmux is not installed") }
        let finished = try BlockingCommand(executable: executable, arguments: ["-L", socket, "-f", "/dev/null"] + arguments).run()
        guard finished.exit.succeeded else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (\(finished.exit)): \(finished.output)")
        }
        return finished.output
    }

    /// Starts `command` in a detached session of the given size, with a UTF-8 locale and tmux's own TERM.
    /// The tutorial and the pages it runs take a page-run slot (`PageRunSlots`), until `stop`. A test in tmux is one
    /// of the suite's longest chains (keys, screens, runs and rebuilds one after another, 5–17 s at load 10), so its
    /// slot is `.criticalPath`: asked for as `.normal`, the sessions waited behind a hundred page runs and ended last.
    func start(_ command: String, width: Int, height: Int, environment: [String: String] = [:]) async throws {
        if slot.withLock({ $0 }) == nil {
            let ticket = await PageRunSlots.shared.acquire(.criticalPath, label: "tmux: \(command)")
            slot.withLock { $0 = ticket }
        }
        var arguments = ["new-session", "-d", "-s", session, "-x", String(width), "-y", String(height)]
        // The checkout's own first-launch notice stays the learner's (TOUR_BUILD_NOTICE), and its stamp untouched;
        // the progress is the server's own (`stateFolder`).
        let base = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TOUR_BUILD_NOTICE": "off", "XDG_STATE_HOME": stateFolder.path]
        for (name, value) in base.merging(environment, uniquingKeysWith: { $1 }) {
            arguments += ["-e", "\(name)=\(value)"]
        }
        try await run(arguments + [command])
    }

    /// Starts `program` in a 256-colour terminal at 120×40, whatever the tests' own environment says: `swift test`
    /// sets NO_COLOR, which would turn pictures into shades.
    func startInColor(_ program: String, environment: [String: String] = [:]) async throws {
        try await start("bash --norc --noprofile -c 'unset NO_COLOR; TERM=xterm-256color exec \(program)'", width: 120, height: 40,
                  environment: environment)
    }

    /// Presses `?` `count` times, each time until the help shows and then again to close it; returns the milliseconds
    /// from each press to the help on screen, sorted.
    func helpLatencies(_ count: Int) async throws -> [Double] {
        var latencies: [Double] = []
        for _ in 0..<count {
            let pressed = Date()
            try await send("?")
            try await waitFor("the help", timeout: 5, poll: 0.001) { $0.contains("Any key closes this.") }
            latencies.append(Date().timeIntervalSince(pressed) * 1000)
            try await send("?")
            try await waitFor("the help closed", timeout: 5, poll: 0.001) { !$0.contains("Any key closes this.") }
        }
        return latencies.sorted()
    }

    func send(_ keys: String...) async throws {
        try await run(["send-keys", "-t", session] + keys)
    }

    /// Presses `keys` in the window named `window` (see `startWindow`) rather than the session's current one.
    func send(_ keys: String..., to window: String) async throws {
        try await run(["send-keys", "-t", "\(session):\(window)"] + keys)
    }

    /// Opens a window named `name` in the session, running `command`, without making it the current one. It has the
    /// session's size and the environment `start` gives, with `environment` over it.
    func startWindow(_ name: String, _ command: String, environment: [String: String] = [:]) async throws {
        var arguments = ["new-window", "-d", "-t", "\(session):", "-n", name]
        let base = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TOUR_BUILD_NOTICE": "off", "XDG_STATE_HOME": stateFolder.path]
        for (variable, value) in base.merging(environment, uniquingKeysWith: { $1 }) {
            arguments += ["-e", "\(variable)=\(value)"]
        }
        try await run(arguments + [command])
    }

    /// Runs the page shown as a learner who skips its prediction does: `r`, which asks the page's unanswered
    /// prediction first, then `r` in the question, which runs the page without an answer. Where nothing is asked,
    /// `r` runs the page (or builds it first) at once, and a second `r` would start it again: the question is
    /// answered only once it is on the screen.
    func runSkippingThePrediction() async throws {
        try await send("r")
        // Read from the status line alone: the page's own text may hold any of these words.
        let screen = try await waitFor("the prediction asked, or the page building, running or ended") { screen in
            let status = screen.split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) } ?? ""
            return screen.contains("Predict, then run page") || status.contains("s stop") || status.contains("s cancel build")
                || status.contains(" after ")
        }
        if screen.contains("Predict, then run page") { try await send("r") }
    }

    func resize(width: Int, height: Int) async throws {
        try await run(["resize-window", "-t", session, "-x", String(width), "-y", String(height)])
    }

    /// The visible screen as text, one line per row; with `colors`, with the escape sequences of its colours
    /// and attributes (`capture-pane -e`).
    func screen(colors: Bool = false, window: String? = nil) async throws -> String {
        try await run(["capture-pane", "-p"] + (colors ? ["-e"] : []) + ["-t", target(window)])
    }

    /// The session's current window, or the one named `window`.
    private func target(_ window: String?) -> String {
        window.map { "\(session):\($0)" } ?? session
    }

    /// The process id of the program the pane started (in the window named `window`, or the current one).
    func panePID(window: String? = nil) async throws -> Int32 {
        let text = try await run(["list-panes", "-t", target(window), "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = Int32(text) else { throw Failure(description: "no pane pid in '\(text)'") }
        return pid
    }

    /// Polls the screen until `condition` holds, and returns that screen; fails with the last screen at the deadline.
    ///
    /// A terminal announces nothing, so polling it is the only way to see a frame; between polls the test is
    /// suspended, not holding a thread, and the deadline is a limit on failure, never a wait that success needs.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 30, poll: Double = 0.05, colors: Bool = false, window: String? = nil,
                 _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            do {
                last = try await screen(colors: colors, window: window)
            } catch let failure as BlockingCommand.Failure where failure.timedOut {
                // A capture that never ended was killed: the next poll asks again, until the deadline.
                print("tmux: \(failure)")
                continue
            }
            if condition(last) { return last }
            try await Task.sleep(for: .seconds(poll))
        }
        let message = "timed out after \(timeout) s waiting for \(what); the screen was:\n\(last)"
        print(message)
        throw Failure(description: message)
    }
}
