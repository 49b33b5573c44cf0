import PageProtocol
import TourCore

/// One step of a talk's script (`assets/talks/*.talk`, see docs/talk-format.md). `Page` is how a `page` step names its
/// page: as the script wrote it (`String`), or, once the presenter found it, as an index into its pages (`Int`).
public enum TalkStep<Page: Equatable & Sendable>: Equatable, Sendable {
    /// Go to the page, named as `tour run` takes it (a number or a name), with its first block shown.
    case page(Page)
    /// Show this many more blocks of the page's prose and code, or all that are left.
    case reveal(TalkReveal)
    /// Set a knob of the page for its next run.
    case set(knob: String, value: String)
    /// Run the page and wait for the run to end.
    case run
    /// Wait for the speaker to press space or →.
    case wait
    /// Wait this many seconds (space or → ends the pause early).
    case pause(seconds: Double)
    /// A note for the speaker's eyes only, shown by `tour notes` with the step's block.
    case note(String)
    /// A line for the room, shown in large type as a knob change's caption is.
    case caption(String)
    /// The speed factor of the runs that follow.
    case speed(Double)
    /// The seed of the runs that follow (`--seed N`), or nil (`seed off`) for runs whose random delays differ each time.
    case seed(UInt64?)
    /// The talk's end slide, with its words for the room ("Questions?"): the script's last step.
    case end(String)
    /// The colours of the whole talk (`--theme` for `tour present` overrides it): at most one, anywhere.
    case theme(ThemeName)

    /// The same step with its page found by `find`; nil for a `page` step whose page `find` does not find.
    public func findingPage<Found: Equatable & Sendable>(_ find: (Page) -> Found?) -> TalkStep<Found>? {
        switch self {
        case .page(let page): find(page).map { .page($0) }
        case .reveal(let reveal): .reveal(reveal)
        case .set(let knob, let value): .set(knob: knob, value: value)
        case .run: .run
        case .wait: .wait
        case .pause(let seconds): .pause(seconds: seconds)
        case .note(let text): .note(text)
        case .caption(let text): .caption(text)
        case .speed(let factor): .speed(factor)
        case .seed(let seed): .seed(seed)
        case .end(let words): .end(words)
        case .theme(let theme): .theme(theme)
        }
    }
}

extension TalkStep<String> {
    /// The theme a script's `theme` step chose, if it has one.
    public static func theme(of script: TalkScript) -> ThemeName? {
        script.steps.lazy.compactMap { if case .theme(let theme) = $0.step { theme } else { nil } }.first
    }
}

/// How much a `reveal` step shows.
public enum TalkReveal: Equatable, Sendable {
    case blocks(Int)
    case all
}

/// A step and the line of the script it was written on, from 1.
public struct TalkScriptStep: Equatable, Sendable {
    public var line: Int
    public var step: TalkStep<String>

    public init(line: Int, step: TalkStep<String>) {
        self.line = line
        self.step = step
    }
}

/// What is wrong with one line of a script, and what would be right: "line 12: `set` needs a knob and a value, …".
public struct TalkScriptProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The script's line, from 1; nil for a problem of the whole script.
    public var line: Int?
    public var message: String

    public init(line: Int?, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// Every problem a script has, one a line, in line order.
public struct TalkScriptProblems: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [TalkScriptProblem]

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// A talk's script: the steps a presenter plays, one a line.
public struct TalkScript: Equatable, Sendable {
    public var steps: [TalkScriptStep]

    public init(steps: [TalkScriptStep]) {
        self.steps = steps
    }

    /// The words that start a step, as the messages list them.
    public static let stepNames = ["page", "reveal", "set", "run", "wait", "pause", "note", "caption", "speed", "seed", "end", "theme"]

    /// The longest pause a step may ask for, in seconds: a longer one is a typo more often than a plan.
    public static let longestPause: Double = 600

    /// A script as far as it reads: the steps of the lines that parse, the problem of each line that does not, and the
    /// lines of `page` steps that did not parse, after which the steps that act on a page have none to be checked on.
    public struct Reading: Equatable, Sendable {
        public var script: TalkScript
        public var problems: [TalkScriptProblem]
        public var unreadPageLines: [Int]
    }

    /// Reads every line of `text`; a line that is empty or starts with `#` (after blanks) is skipped.
    public static func read(_ text: String) -> Reading {
        var steps: [TalkScriptStep] = []
        var problems: [TalkScriptProblem] = []
        var unreadPageLines: [Int] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingBlanks
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            do throws(TalkScriptProblem) {
                steps.append(TalkScriptStep(line: index + 1, step: try step(of: line, line: index + 1)))
            } catch {
                problems.append(error)
                if line.prefix(while: { $0 != " " && $0 != "\t" }) == "page" { unreadPageLines.append(index + 1) }
            }
        }
        if problems.isEmpty && steps.isEmpty {
            problems.append(TalkScriptProblem(line: nil, "the script has no steps; start with a page, for example `page 1`, then `reveal 2` and `run`"))
        }
        return Reading(script: TalkScript(steps: steps), problems: problems, unreadPageLines: unreadPageLines)
    }

    /// Parses `text` as `read` does. Throws every bad line's problem.
    public static func parse(_ text: String) throws(TalkScriptProblems) -> TalkScript {
        let reading = read(text)
        guard reading.problems.isEmpty else { throw TalkScriptProblems(problems: reading.problems) }
        return reading.script
    }

    private static func step(of line: String, line number: Int) throws(TalkScriptProblem) -> TalkStep<String> {
        let word = String(line.prefix { $0 != " " && $0 != "\t" })
        let rest = String(line.dropFirst(word.count)).trimmingBlanks
        let arguments = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        func problem(_ message: String) -> TalkScriptProblem { TalkScriptProblem(line: number, message) }
        func nothingAfter(_ step: TalkStep<String>) throws(TalkScriptProblem) -> TalkStep<String> {
            guard arguments.isEmpty else { throw problem("`\(word)` takes nothing after it, but got \(EchoedInput.quoted(rest))") }
            return step
        }
        switch word {
        case "page":
            guard arguments.count == 1 else {
                throw problem(arguments.isEmpty ? "`page` needs a page, for example `page 2` or `page queue`"
                                                : "`page` takes one page, but got \(EchoedInput.quoted(rest)); write one `page` step per page")
            }
            return .page(arguments[0])
        case "reveal":
            if arguments.isEmpty { return .reveal(.blocks(1)) }
            if arguments == ["all"] { return .reveal(.all) }
            guard arguments.count == 1, let count = Int(arguments[0]), count >= 1 else {
                throw problem("`reveal` takes a number of blocks from 1, or `all`, for example `reveal 2`; not \(EchoedInput.quoted(rest))")
            }
            return .reveal(.blocks(count))
        case "set":
            guard arguments.count == 2 else {
                let got = arguments.isEmpty ? "" : ", but got \(EchoedInput.quoted(rest))"
                throw problem("`set` needs a knob and a value, for example `set maxConcurrentOperationCount 3`\(got)")
            }
            return .set(knob: arguments[0], value: arguments[1])
        case "run":
            return try nothingAfter(.run)
        case "wait":
            return try nothingAfter(.wait)
        case "pause":
            guard arguments.count == 1, let seconds = Double(arguments[0]), seconds.isFinite, seconds > 0, seconds <= longestPause else {
                let got = rest.isEmpty ? "" : ", not \(EchoedInput.quoted(rest))"
                throw problem("`pause` needs a number of seconds above 0 and at most \(Int(longestPause)), for example `pause 20`\(got)")
            }
            return .pause(seconds: seconds)
        case "note", "caption":
            guard !rest.isEmpty else {
                throw problem(word == "note" ? "`note` needs the words the speaker reads, for example `note Point at the second lane.`"
                                             : "`caption` needs the words the room reads, for example `caption One at a time`")
            }
            let text = TerminalText.sanitized(rest)
            return word == "note" ? .note(text) : .caption(text)
        case "speed":
            guard arguments.count == 1, let factor = Double(arguments[0]), factor.isFinite, SpeedFactor.range.contains(factor) else {
                let got = rest.isEmpty ? "" : ", not \(EchoedInput.quoted(rest))"
                throw problem("`speed` needs a factor from \(SpeedFactor.range.lowerBound) to \(Int(SpeedFactor.range.upperBound)), for example `speed 2` (1 is real time)\(got)")
            }
            return .speed(factor)
        case "theme":
            do throws(ThemeProblem) {
                guard arguments.count <= 1 else { throw ThemeProblem(description: "`theme` takes one theme: \(ThemeName.choices)") }
                return .theme(try ThemeName.parse(arguments.first, from: "`theme`"))
            } catch {
                throw problem(error.description)
            }
        case "end":
            // The words default to the question a talk ends on.
            return .end(rest.isEmpty ? "Questions?" : TerminalText.sanitized(rest))
        case "seed":
            if arguments == ["off"] { return .seed(nil) }
            guard arguments.count == 1, let seed = UInt64(arguments[0]) else {
                let got = rest.isEmpty ? "" : ", not \(EchoedInput.quoted(rest))"
                throw problem("`seed` needs a whole number from 0 to \(UInt64.max), for example `seed 7` (the same random delays every run), or `off` for runs that differ\(got)")
            }
            return .seed(seed)
        default:
            throw problem("\(EchoedInput.quoted(word)) is not a step; a line starts with one of \(stepNames.joined(separator: ", ")), or # for a comment")
        }
    }
}

private extension StringProtocol {
    /// The text without the spaces, tabs and carriage returns at its ends.
    var trimmingBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
