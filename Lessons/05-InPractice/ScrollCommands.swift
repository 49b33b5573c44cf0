import Foundation
import LessonKit

/// One line of the scroll protocol the running page reads, from a built-in script or from standard input.
///
/// One command per line; blank lines and lines starting with `#` are skipped:
/// - `scroll +N` or `scroll -N`: the finger drags the list N rows towards its end (`+`) or its start (`-`),
///   one row at a time. The first `scroll` after a rest puts the finger down. `scroll N` means `scroll +N`.
/// - `stop`: the finger lifts and the list comes to rest.
/// - `wait S`: nothing happens for S seconds (scaled by the speed factor), finger down or not. Scripts use it
///   to let rows load between gestures.
/// - `quit`: end now: cancel whatever is still queued, then print the list.
///
/// When the commands run out (the script ends, or standard input is closed) the finger lifts, the page waits
/// until every row in view shows its filtered picture, prints the list and ends.
enum ScrollCommand: Equatable {
    case scroll(rows: Int)
    case stop
    case wait(seconds: Double)
    case quit

    /// A line that is not a command, and why.
    struct Unreadable: Error, CustomStringConvertible {
        let line: String
        let reason: String
        var description: String { "ignored '\(line)': \(reason)" }
    }

    /// The longest drag and the longest wait one line may ask for; more is surely a typing slip.
    static let rowLimit = 100
    static let secondsLimit = 60.0

    /// Reads one line; nil for a blank line or a comment.
    init?(line: String) throws(Unreadable) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let verb = words.first, !verb.hasPrefix("#") else { return nil }
        let argument = words.dropFirst().first.map(String.init)
        switch (verb, words.count) {
        case ("scroll", _):
            let text = argument ?? ""
            let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
            guard words.count == 2, let rows = Int(digits), rows != 0, abs(rows) <= Self.rowLimit else {
                throw Unreadable(line: line, reason: "scroll takes a row count like +3 or -1 (at most \(Self.rowLimit))")
            }
            self = .scroll(rows: rows)
        case ("wait", _):
            guard words.count == 2, let seconds = Double(argument ?? ""), seconds >= 0, seconds <= Self.secondsLimit else {
                throw Unreadable(line: line, reason: "wait takes seconds from 0 to \(Int(Self.secondsLimit)), like 1.5")
            }
            self = .wait(seconds: seconds)
        case ("stop", 1):
            self = .stop
        case ("quit", 1):
            self = .quit
        default:
            throw Unreadable(line: line, reason: "the commands are scroll +N, scroll -N, stop, wait S and quit")
        }
    }
}

/// The scripted scrolls the page plays when no host sends commands (plain mode, tests, a learner at the shell).
enum ScrollScript: String, CaseIterable {
    /// Scrolls away from the first screen before anything has loaded, rests, drags to the end, rests, and comes back
    /// to rows whose photos are all in the cache by then.
    case downAndBack
    /// One fast drag from the top to the bottom: most rows fly past without starting anything.
    case flick
    /// No scrolling at all: only the first screen loads, the baseline for the others.
    case still
    /// No script: the learner scrolls, with the arrow keys in the tutorial's live view, or by typing commands
    /// when the page runs at a shell.
    case keys

    var lines: [String] {
        switch self {
        case .downAndBack:
            return ["# the first screen is still loading when the finger drags it away",
                    "scroll +4", "stop", "wait 2.5",
                    "# a long drag: rows pass through the view while the queue is suspended",
                    "scroll +10", "stop", "wait 1.5",
                    "# back up, over rows whose photos are in the cache by now",
                    "scroll -8", "stop"]
        case .flick:
            return ["scroll +14", "stop"]
        case .still, .keys:
            return []
        }
    }
}

/// Where the page's command lines come from: a script, standard input, or a script that standard input can take over.
///
/// `@unchecked Sendable` holds because the reader thread and the page share only the stored `var`s, and touch them
/// only while holding `arrival`.
final class CommandSource: @unchecked Sendable {
    enum Next: Equatable {
        case line(String)
        /// No line arrived within the quiet time asked for.
        case quiet
        /// The script is over, or standard input was closed.
        case ended
    }

    private let arrival = NSCondition()
    private var pending: [String]
    private var finished: Bool
    /// True once lines come from standard input: a script that was playing has been dropped.
    private(set) var readsStandardInput: Bool

    private init(lines: [String], finished: Bool, readsStandardInput: Bool) {
        pending = lines
        self.finished = finished
        self.readsStandardInput = readsStandardInput
    }

    /// Plays `lines` in order, then ends.
    static func script(_ lines: [String]) -> CommandSource {
        CommandSource(lines: lines, finished: true, readsStandardInput: false)
    }

    /// Reads lines from standard input on a thread of its own, so the page can notice a quiet spell
    /// (the finger resting) while no line comes; ends when the input closes.
    static func standardInput() -> CommandSource {
        let source = CommandSource(lines: [], finished: false, readsStandardInput: true)
        source.startReading()
        return source
    }

    /// Plays `lines` until the first line arrives on standard input; from then on the rest of the script is
    /// dropped and only standard input counts, until it closes. Input that closes before saying anything
    /// leaves the script playing.
    static func scriptUntilStandardInputTakesOver(_ lines: [String]) -> CommandSource {
        let source = CommandSource(lines: lines, finished: true, readsStandardInput: false)
        source.startReading()
        return source
    }

    private func startReading() {
        let reader = Thread { [self] in
            while let line = readLine() {
                deliver(line)
            }
            deliverEnd()
        }
        reader.name = "stdin commands"
        reader.start()
    }

    /// The next line; with `quietAfter`, `.quiet` once that many seconds pass without one.
    func next(quietAfter seconds: Double?) -> Next {
        let deadline = seconds.map { Date(timeIntervalSinceNow: $0) }
        arrival.lock()
        defer { arrival.unlock() }
        while pending.isEmpty && !finished {
            if let deadline {
                guard arrival.wait(until: deadline) else { return .quiet }
            } else {
                arrival.wait()
            }
        }
        return pending.isEmpty ? .ended : .line(pending.removeFirst())
    }

    /// Rests for `seconds` of real time, as a script's `wait` does; returns false if standard input took over
    /// meanwhile, so a learner who starts scrolling is not kept waiting for the script.
    func rest(_ seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        arrival.lock()
        defer { arrival.unlock() }
        let wasReadingInput = readsStandardInput
        while readsStandardInput == wasReadingInput {
            guard arrival.wait(until: deadline) else { return true }
        }
        return false
    }

    private func deliver(_ line: String) {
        arrival.withLock {
            if !readsStandardInput {
                pending.removeAll()
                finished = false
                readsStandardInput = true
            }
            pending.append(line)
            arrival.broadcast()
        }
    }

    private func deliverEnd() {
        arrival.withLock {
            // Input that never said anything did not take over: the script plays on, and ends the page itself.
            guard readsStandardInput else { return }
            finished = true
            arrival.broadcast()
        }
    }
}

extension CommandSource {
    /// With commands from a host, the finger lifts by itself after this long (real time) without a command.
    static let quietSecondsBeforeLift = 0.3

    /// Where this run's commands come from: `script`'s lines, standard input for `keys`, or, when the tutorial sends
    /// the learner's keys (`TOUR_STDIN_COMMANDS=1`), the script until the first key takes over. Says which.
    static func forThisRun(playing script: ScrollScript) -> CommandSource {
        let hostSendsCommands = ProcessInfo.processInfo.environment["TOUR_STDIN_COMMANDS"] == "1"
        let commands: CommandSource
        switch (script, hostSendsCommands) {
        case (.keys, _):
            commands = .standardInput()
            print("Reading scroll commands from standard input.")
        case (_, true):
            commands = .scriptUntilStandardInputTakesOver(script.lines)
            print("Playing the \(script.rawValue) script; scrolling the list yourself takes over from it.")
        case (_, false):
            commands = .script(script.lines)
            print("Playing the \(script.rawValue) script.")
        }
        if script == .keys || hostSendsCommands { LiveView.acceptScrollCommands() }
        return commands
    }
}

/// Plays `commands` with `finger` until they end or say `quit`; true for `quit`. A script's comments are printed, as
/// its narration; after each `wait` the rows in view are printed.
func play(_ commands: CommandSource, finger: Finger, list: ImageList) -> Bool {
    while true {
        let next = commands.next(quietAfter: commands.readsStandardInput && finger.isDown ? CommandSource.quietSecondsBeforeLift : nil)
        guard case .line(let text) = next else {
            if next == .ended { return false }
            finger.lift()
            continue
        }
        if text.hasPrefix("#") {
            let remark = text.dropFirst().trimmingCharacters(in: .whitespaces)
            print(remark.prefix(1).uppercased() + remark.dropFirst())
            continue
        }
        let command: ScrollCommand?
        do {
            command = try ScrollCommand(line: text)
        } catch {
            print("\(error)")
            continue
        }
        switch command {
        case .scroll(let rows)?:
            trace("scroll \(rows > 0 ? "+" : "")\(rows)") { finger.drag(by: rows) }
        case .stop?:
            if finger.isDown { finger.lift() }
        case .wait(let seconds)?:
            guard commands.rest(seconds / Simulated.speed) else {
                print("You took over the scrolling from the script.")
                continue
            }
            print("After a rest of \(Simulated.describe(seconds)), \(describe(list.rowsInView)) show:")
            list.snapshot().forEach { print($0) }
        case .quit?:
            return true
        case nil:
            continue
        }
    }
}
