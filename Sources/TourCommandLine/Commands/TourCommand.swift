import PageProtocol
import TourCore

/// What the learner asked `tour` to do, parsed from its arguments.
public enum TourCommand: Equatable, Sendable {
    /// The full-screen tutorial (see `InteractiveOptions`).
    case interactive(InteractiveOptions)
    /// `tour notes [--session NAME] [--theme NAME]`: follow a presenter from a second terminal.
    case notes(session: String?, theme: ThemeName?)
    case list
    case run(RunOptions)
    /// `tour watch <page>`: run, then rebuild and rerun on every saved change.
    case watch(RunOptions)
    /// `tour reset <page>`, or every page when nil (`tour reset --all`); with `--exercise`, the page's exercise
    /// (every exercise) instead.
    case reset(page: String?, exercise: Bool = false)
    /// `tour reset --undo <page> [--exercise]`: put back the version the last reset of the page (its exercise) replaced.
    case undoReset(page: String, exercise: Bool = false)
    /// `tour progress [--json | --summary FILE…]` (see `ProgressCommand`).
    case progress(ProgressOptions)
    /// `tour reset --progress [--yes]`: set the progress file aside, after asking unless `confirmed`.
    case resetProgress(confirmed: Bool)
    /// `tour check <page> [--trace FILE.json] [--svg FILE.svg]`: build the page's exercise, run it and judge it, and
    /// export that run as `tour run` exports a page's.
    case check(page: String, plain: Bool, exports: RunExports = RunExports())
    /// `tour hint <page>`: the next hint of the page's exercise.
    case hint(page: String, plain: Bool)
    /// `tour solution <page>`: the reference solution, once it is open.
    case solution(page: String, plain: Bool)
    /// `tour predict <page>`: the page's prediction, its question and choices.
    case predict(page: String, plain: Bool)
    /// `tour present [page…] | SCRIPT.talk [--speed N] [--seed N] [--record FILE.cast]`: the presenter, on stage; `tour present --check SCRIPT`: its pre-flight.
    case present(PresentOptions)
    case help
    case version

    /// The options of the full-screen tutorial: `tour [--page P] [--speed N] [--seed N] [--notes] [--record FILE.cast]`.
    public struct InteractiveOptions: Equatable, Sendable {
        public var speed: Double = 1
        /// The page to open on (`--page`); nil opens on the page the progress says was left.
        public var page: String?
        /// `--seed N`: every run's random delays and choices follow N; nil stays random.
        public var seed: UInt64?
        /// `--notes`: the pages show their `- speaker:` callouts, which learners never see.
        public var speakerNotes = false
        /// `--record FILE.cast`: what the screen showed, recorded as an asciicast v2 file.
        public var castFile: String?
        /// `--theme NAME`: the colours; nil leaves them to `TOUR_THEME`, else dark.
        public var theme: ThemeName?

        public init(speed: Double = 1, page: String? = nil, seed: UInt64? = nil, speakerNotes: Bool = false, castFile: String? = nil) {
            self.speed = speed
            self.page = page
            self.seed = seed
            self.speakerNotes = speakerNotes
            self.castFile = castFile
        }
    }

    /// The options of `tour run <page>`.
    public struct RunOptions: Equatable, Sendable {
        public var page: String
        public var plain = false
        public var knobs: [KnobSetting] = []
        public var speed: Double = 1
        /// `--seed N`: the page's random delays and choices follow N, the same in every run; nil stays random.
        public var seed: UInt64?
        /// `--notes`: plain mode also prints the page's `- speaker:` notes, which it leaves out otherwise.
        public var speakerNotes = false
        /// `--cast FILE` (run only): also record what the terminal showed, as an asciicast v2 file.
        public var castFile: String?
        public var traceFile: String?
        /// `--svg FILE` (run only): the run's timeline as an SVG picture.
        public var svgFile: String?
        public var stuckAfter: Double = 3
        /// `--predict KEY` (run only): the learner's answer to the page's prediction, graded from this run.
        public var predict: String?

        public init(page: String) {
            self.page = page
        }

        /// The files the run is exported to.
        public var exports: RunExports { RunExports(traceFile: traceFile, svgFile: svgFile) }
    }

    /// The options of `tour present`.
    public struct PresentOptions: Equatable, Sendable {
        /// The pages to present, in order, as named on the command line; every page when empty.
        public var pages: [String] = []
        /// A talk's script (a `.talk` file) to play instead.
        public var script: String?
        /// Check the script offline instead of presenting it.
        public var check = false
        public var speed: Double = 1
        /// `--seed N`: every run's random delays and choices follow N, so rehearsal and stage match; nil stays random.
        public var seed: UInt64?
        /// `--record FILE.cast`: the screen recorded as an asciicast, to replay if the live demo fails.
        public var castFile: String?
        /// `--theme NAME`: the colours, before the script's `theme` step and `TOUR_THEME`.
        public var theme: ThemeName?
        /// `--export FOLDER`: the talk's backup slides written there, from a rehearsal, instead of presenting it.
        public var exportFolder: String?

        public init(pages: [String] = [], script: String? = nil, check: Bool = false, speed: Double = 1, seed: UInt64? = nil,
                    castFile: String? = nil) {
            self.pages = pages
            self.script = script
            self.check = check
            self.speed = speed
            self.seed = seed
            self.castFile = castFile
        }
    }

    /// A mistake on the command line, with the message that says what would be right.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static let usage = """
        ConcurrencyTour: learn concurrency in Swift by running it, in two parts: Operations and Dispatch
        (Operation, OperationQueue and Grand Central Dispatch), then Swift Concurrency (tasks, task groups, actors,
        isolation, streams and cancellation, and what happens when the thread pool runs dry).

        Usage:
          tour [--page P] [--speed N]   open the full-screen tutorial (needs a terminal), on page P or where you left off
               [--seed N] [--notes]     --seed as for run; --notes shows the speaker's notes in the pages;
               [--record FILE.cast]     --record records the screen as an asciicast v2 file (asciinema play FILE);
               [--theme NAME]           --theme dark (the default), light (a light background, a projector) or
                                        contrast (strong colours on black); also TOUR_THEME=NAME, and tour present
                                        and tour notes take it
          tour notes [--session NAME]   in a second terminal, follow a presenter: the block shown and the next, the
                                        speaker's notes, the clock and the knob changes to come (q ends it);
                                        started first, it waits for the presenter
          tour list                     the pages, in order, in their two parts
          tour run <page> [options]     run one page and stream what it does, line by line
          tour watch <page> [options]   run the page, then rebuild and rerun it each time its source is saved
                                        (compile errors are shown on their lines; Ctrl-C ends it)
          tour reset <page> | --all     put a page (or every page) back to the text the tour shipped with (git's
                                        HEAD in a git checkout), however it was edited; the text it replaces is
                                        kept in .tour/before-reset (the last \(OriginalPages.keptVersionLimit) of each page)
               [--exercise]             the page's exercise instead (every exercise, with --all); a page and its
                                        exercise are never reset together
          tour reset --undo <page>      put back the version the page's last reset replaced
               [--exercise]             (the exercise's, with --exercise)
          tour progress [--plain]       the pages you opened and ran, predictions answered, exercises passed
          tour progress --json [--name N]   the same as one JSON document, for a workshop leader to collect
          tour progress --summary FILE...   several participants' --json documents: who is on which page,
                                        and which exercises most have not passed
          tour reset --progress [--yes] start progress afresh (asks first; the old file is kept beside it)

        Exercises (a prediction and a code challenge per page; the challenge is Exercises/NN-Name/main.swift):
          tour predict <page>           the page's question and its answers; answer with run --predict KEY
          tour check <page>             build and run your exercise and judge what its threads did
                                        (exit 0 passed, 1 not yet, compile errors included, 2 a page with
                                        no exercise or a --trace or --svg file refused before the build, 4 one
                                        not written after the run)
               [--trace FILE.json]      also write your exercise's run as Chrome trace JSON, as run does
               [--svg FILE.svg]         also draw your exercise's run's timeline as an SVG picture, as run does
          tour hint <page>              the next hint (they go from a nudge to nearly the answer)
          tour solution <page>          the reference solution, once the check passed or after two hints

        On stage (see docs/talk-format.md):
          tour present [page...]        the presenter: no chrome, one block at a time (space or right arrow),
                                        r runs, the clock in a corner; every page, or the pages named, in order
          tour present TALK.talk        play a talk's script: assets/talks/part-one.talk walks part one,
                                        assets/talks/part-two.talk part two, each in about twenty minutes
          tour present --export FOLDER TALK.talk  backup slides: the pre-flight's runs, then an SVG for each
                                        block as the room sees it and for each run's timeline, and index.html
          tour present --check TALK.talk  the pre-flight: every page, knob, value and reveal exists, every
                                        page compiles, and each run ends as expected at the script's speed
                                        (exit 0 passed, 1 a page does not compile or a run failed, 2 a wrong
                                        line, named)
          tour --help | --version

        <page> is a page's number in tour list, or a name such as operation, queue, in-practice, task-groups.
        Every command here, and every one tour names in its messages, also runs as swift run tour ... from the
        checkout; README.md ("Run it") shows how to make tour a command of your shell.

        Options for run and watch:
          --plain              no colour and ASCII only (for screen readers, logs and pipes)
          --set name=value     set a knob of the page; repeat for several knobs
          --speed N            run simulated waits N times faster (0.1 to 100; times shown stay real)
          --seed N             fix the page's random delays and choices: one seed, the same run every time
          --notes              also print the page's speaker notes (- speaker: callouts), for a presenter
          --cast FILE.cast     run only: also record what the terminal showed, as an asciicast v2 file
          --trace FILE.json    run only: also write the run as Chrome trace JSON (open it in Perfetto); a
                               regular file there is replaced, anything else is refused before the run
          --svg FILE.svg       run only: also draw the run's timeline as an SVG picture (lanes, spans in
                               their queues' colours, thread states, an axis in ms), refused as --trace is
          --stuck-after S      call the run stuck after S seconds without progress (default 3)
          --predict KEY        run only: your answer to the page's prediction (tour predict <page>), graded
                               from this run and recorded in your progress

        Exit status of run: 0 the page ended as it said it would; 1 it ended otherwise
        (crash, stuck, failure it did not announce); 2 a usage mistake, such as a --trace FILE that is not
        a regular file or is in a folder that does not exist (checked before the page runs); 3 the page
        could not start (a page whose program is missing or older than its source is built first, and one that
        does not compile is said in the compiler's words, each message on its line); 4 the page ran but its trace, picture or recording could not be written.
        """

    public static func parse(_ arguments: [String]) throws -> TourCommand {
        var remaining = arguments[...]
        guard let first = remaining.popFirst() else { return .interactive(InteractiveOptions()) }
        switch first {
        case "-h", "--help", "help": return .help
        case "--version", "version": return .version
        case "list":
            guard remaining.isEmpty else { throw UsageError(description: "tour list takes no arguments, but got \(EchoedInput.quoted(remaining.joined(separator: " ")))") }
            return .list
        case "--speed", "--page", "--seed", "--notes", "--record", "--theme":
            return try interactive(first, &remaining)
        case "notes":
            return try notes(&remaining)
        case "run":
            return .run(try runOptions(&remaining, command: "run"))
        case "watch":
            return .watch(try runOptions(&remaining, command: "watch"))
        case "reset":
            return try reset(&remaining)
        case "progress":
            return .progress(try ProgressOptions.parse(&remaining))
        case "present":
            return .present(try presentOptions(&remaining))
        case "check", "hint", "solution", "predict":
            let (page, plain, exports) = try exercisePage(&remaining, command: first)
            switch first {
            case "check": return .check(page: page, plain: plain, exports: exports)
            case "hint": return .hint(page: page, plain: plain)
            case "solution": return .solution(page: page, plain: plain)
            default: return .predict(page: page, plain: plain)
            }
        default:
            throw UsageError(description: "unknown command \(EchoedInput.quoted(first)); the commands are list, run <page>, watch <page>, reset <page>, progress, predict <page>, check <page>, hint <page>, solution <page>, present and notes, or none for the full-screen tutorial (see tour --help)")
        }
    }

    /// The one page of `tour check`, `hint`, `solution` or `predict`, whether `--plain` was given, and for `check`
    /// the files `--trace` and `--svg` name.
    private static func exercisePage(_ remaining: inout ArraySlice<String>, command: String) throws
        -> (page: String, plain: Bool, exports: RunExports) {
        var page: String?
        var plain = false
        var exports = RunExports()
        while let argument = remaining.popFirst() {
            if argument == "--plain" {
                plain = true
            } else if command == "check" && argument == "--trace" {
                exports.traceFile = try exportFile(after: argument, example: "run.json", &remaining)
            } else if command == "check" && argument == "--svg" {
                exports.svgFile = try exportFile(after: argument, example: "timeline.svg", &remaining)
            } else if argument.hasPrefix("-") {
                let options = command == "check" ? "the options are --plain, --trace FILE.json and --svg FILE.svg" : "the only option is --plain"
                throw UsageError(description: "unknown option \(EchoedInput.quoted(argument)) for \(command); \(options)")
            } else if let first = page {
                throw UsageError(description: "\(command) takes one page, but got \(EchoedInput.quoted(first)) and \(EchoedInput.quoted(argument))")
            } else {
                page = argument
            }
        }
        guard let page else { throw UsageError(description: "\(command) needs a page, for example: tour \(command) 3 (see tour list)") }
        return (page, plain, exports)
    }

    /// The file after `--trace` or `--svg`, refused when it is missing or is another option.
    private static func exportFile(after option: String, example: String, _ remaining: inout ArraySlice<String>) throws -> String {
        guard let file = remaining.popFirst(), !file.isEmpty, !file.hasPrefix("--") else {
            throw UsageError(description: "\(option) needs a file name, for example \(option) \(example)")
        }
        return file
    }

    /// `tour present [page…] | SCRIPT.talk [--speed N] [--seed N] [--record FILE.cast]`, or `tour present --check SCRIPT.talk`.
    private static func presentOptions(_ remaining: inout ArraySlice<String>) throws -> PresentOptions {
        var options = PresentOptions()
        while let argument = remaining.popFirst() {
            switch argument {
            case "--check":
                options.check = true
            case "--speed":
                options.speed = try usage(SpeedFactor.parse(remaining.popFirst()))
            case "--seed":
                options.seed = try usage(RehearsalSeed.parse(remaining.popFirst()))
            case "--record":
                options.castFile = try castFile(after: "--record", &remaining)
            case "--theme":
                options.theme = try theme(remaining.popFirst())
            case "--export":
                guard let folder = remaining.popFirst(), !folder.isEmpty, !folder.hasPrefix("-") else {
                    throw UsageError(description: "--export needs a folder for the slides, for example tour present --export slides \(ShippedTalks.partOne)")
                }
                options.exportFolder = folder
            case _ where argument.hasPrefix("-"):
                throw UsageError(description: "unknown option \(EchoedInput.quoted(argument)) for present; the options are --check SCRIPT.talk, --speed N, --seed N, --record FILE.cast, --theme NAME and --export FOLDER")
            case _ where argument.hasSuffix(".talk"):
                if let script = options.script {
                    throw UsageError(description: "present plays one script, but got \(EchoedInput.quoted(script)) and \(EchoedInput.quoted(argument))")
                }
                options.script = argument
            default:
                options.pages.append(argument)
            }
        }
        if options.script != nil && !options.pages.isEmpty {
            throw UsageError(description: "present takes pages or a script, not both: the script names its own pages with `page` steps")
        }
        if options.exportFolder != nil && (options.script == nil || options.check) {
            throw UsageError(description: "--export writes a script's slides, for example tour present --export slides \(ShippedTalks.partOne); it takes no --check, which the export runs itself")
        }
        if options.check && options.script == nil {
            throw UsageError(description: "--check needs a script, for example: tour present --check \(ShippedTalks.partOne)")
        }
        if options.check && options.speed != 1 {
            throw UsageError(description: "--check runs at the script's own speed (its `speed` steps), so it takes no --speed")
        }
        return options
    }

    /// `tour --speed N --page P --seed N --notes --record FILE.cast`, any of them.
    private static func interactive(_ first: String, _ remaining: inout ArraySlice<String>) throws -> TourCommand {
        var options = InteractiveOptions()
        var option: String? = first
        while let argument = option {
            switch argument {
            case "--speed":
                options.speed = try usage(SpeedFactor.parse(remaining.popFirst()))
            case "--seed":
                options.seed = try usage(RehearsalSeed.parse(remaining.popFirst()))
            case "--notes":
                options.speakerNotes = true
            case "--record":
                options.castFile = try castFile(after: "--record", &remaining)
            case "--theme":
                options.theme = try theme(remaining.popFirst())
            case "--page":
                guard let name = remaining.popFirst(), !name.hasPrefix("-") else {
                    throw UsageError(description: "--page needs a page, for example: tour --page 3 (see tour list)")
                }
                options.page = name
            default:
                throw UsageError(description: "unknown option \(EchoedInput.quoted(argument)) for the full-screen tutorial; the options are --speed N, --page P, --seed N, --notes, --record FILE.cast and --theme NAME")
            }
            option = remaining.popFirst()
        }
        return .interactive(options)
    }

    /// The file after `option` (`--cast`, `--record`) that a recording goes to, refused when it is missing or is
    /// another option; `tour present --record` parses it the same way.
    public static func castFile(after option: String, _ remaining: inout ArraySlice<String>) throws -> String {
        guard let file = remaining.popFirst(), !file.isEmpty, !file.hasPrefix("-") else {
            throw UsageError(description: "\(option) needs a file name for the recording, for example \(option) demo.cast")
        }
        return file
    }

    /// `tour notes [--session NAME] [--theme NAME]`.
    private static func notes(_ remaining: inout ArraySlice<String>) throws -> TourCommand {
        var session: String?
        var chosen: ThemeName?
        while let argument = remaining.popFirst() {
            if argument == "--theme" {
                chosen = try theme(remaining.popFirst())
                continue
            }
            guard argument == "--session" else {
                throw UsageError(description: "unknown argument \(EchoedInput.quoted(argument)) for notes; the options are --session NAME (a presenter's session, as tour notes lists them) and --theme NAME")
            }
            guard let name = remaining.popFirst(), !name.isEmpty, !name.hasPrefix("-") else {
                throw UsageError(description: "--session needs a presenter's session name, for example --session 4242 (tour notes says which ones are live)")
            }
            session = name
        }
        return .notes(session: session, theme: chosen)
    }

    /// The theme after `--theme`, or a usage mistake that names the themes.
    private static func theme(_ name: String?) throws(UsageError) -> ThemeName {
        do throws(ThemeProblem) {
            return try ThemeName.parse(name, from: "--theme")
        } catch {
            throw UsageError(description: error.description)
        }
    }

    /// `tour reset <page> | --all [--exercise]`, `tour reset --undo <page> [--exercise]`, `tour reset --progress [--yes]`,
    /// the options in any order.
    private static func reset(_ remaining: inout ArraySlice<String>) throws -> TourCommand {
        let arguments = Array(remaining)
        if arguments.contains("--progress") {
            let others = arguments.filter { $0 != "--progress" && $0 != "--yes" }
            guard others.isEmpty else {
                throw UsageError(description: "reset --progress takes only --yes, but got \(EchoedInput.quoted(others.joined(separator: " ")))")
            }
            return .resetProgress(confirmed: arguments.contains("--yes"))
        }
        var pages: [String] = []
        var all = false, undo = false, exercise = false
        for argument in arguments {
            switch argument {
            case "--all": all = true
            case "--undo": undo = true
            case "--exercise": exercise = true
            case _ where argument.hasPrefix("-"):
                throw UsageError(description: "unknown option \(EchoedInput.quoted(argument)) for reset; the options are --exercise, --all, --undo and --progress")
            default: pages.append(argument)
            }
        }
        let what = exercise ? " --exercise" : ""
        if pages.count > 1 {
            throw UsageError(description: "reset takes one page, but got \(pages.map(EchoedInput.quoted).joined(separator: " and ")); "
                             + "reset each on its own, or every one with tour reset --all\(what)")
        }
        if undo {
            guard !all else {
                throw UsageError(description: "reset --undo undoes one page's reset at a time, so it takes a page, not --all: for example tour reset --undo operation\(what)")
            }
            guard let page = pages.first else {
                throw UsageError(description: "reset --undo needs a page, for example: tour reset --undo operation\(what)")
            }
            return .undoReset(page: page, exercise: exercise)
        }
        if all {
            guard pages.isEmpty else {
                throw UsageError(description: "reset takes a page or --all, not both: tour reset \(pages[0])\(what), or tour reset --all\(what)")
            }
            return .reset(page: nil, exercise: exercise)
        }
        guard let page = pages.first else {
            throw UsageError(description: "reset needs a page, for example: tour reset operation (the page), tour reset operation "
                             + "--exercise (its exercise), or tour reset --all for every page")
        }
        return .reset(page: page, exercise: exercise)
    }

    private static func runOptions(_ remaining: inout ArraySlice<String>, command: String) throws -> RunOptions {
        var page: String?
        var options = RunOptions(page: "")
        while let argument = remaining.popFirst() {
            switch argument {
            case "--plain":
                options.plain = true
            case "--set":
                options.knobs.append(try usage(KnobSetting(parsing: remaining.popFirst())))
            case "--speed":
                options.speed = try usage(SpeedFactor.parse(remaining.popFirst()))
            case "--seed":
                options.seed = try usage(RehearsalSeed.parse(remaining.popFirst()))
            case "--notes":
                options.speakerNotes = true
            case "--cast":
                guard command == "run" else {
                    throw UsageError(description: "watch records no cast, since it reruns the page at every save; use tour run <page> --cast FILE.cast")
                }
                options.castFile = try castFile(after: "--cast", &remaining)
            case "--trace":
                guard command == "run" else {
                    throw UsageError(description: "watch writes no trace, since it reruns the page at every save; "
                                     + "use tour run <page> --trace FILE.json")
                }
                options.traceFile = try exportFile(after: argument, example: "run.json", &remaining)
            case "--svg":
                guard command == "run" else {
                    throw UsageError(description: "watch draws no picture, since it reruns the page at every save; "
                                     + "use tour run <page> --svg FILE.svg")
                }
                options.svgFile = try exportFile(after: argument, example: "timeline.svg", &remaining)
            case "--stuck-after":
                guard let text = remaining.popFirst(), let seconds = Double(text), seconds > 0, seconds <= 600 else {
                    throw UsageError(description: "--stuck-after needs a number of seconds above 0 and at most 600, for example --stuck-after 5")
                }
                options.stuckAfter = seconds
            case "--predict":
                guard command == "run" else {
                    throw UsageError(description: "watch reruns the page at every save, so it grades no prediction; use tour run <page> --plain --predict KEY")
                }
                guard let key = remaining.popFirst(), !key.isEmpty, !key.hasPrefix("--") else {
                    throw UsageError(description: "--predict needs your answer's key, for example --predict a (tour predict <page> lists them)")
                }
                options.predict = key
            case _ where argument.hasPrefix("-"):
                // watch refuses the options that write one run's picture or grade one run, so it does not offer them.
                let runOnly = command == "run" ? ", --trace FILE.json, --svg FILE.svg, --stuck-after S, --predict KEY, --cast FILE.cast" : ", --stuck-after S"
                throw UsageError(description: "unknown option \(EchoedInput.quoted(argument)) for \(command); the options are --plain, --set name=value, --speed N, --seed N, --notes" + runOnly)
            default:
                guard page == nil else {
                    throw UsageError(description: "\(command) takes one page, but got \(EchoedInput.quoted(page!)) and \(EchoedInput.quoted(argument))")
                }
                page = argument
            }
        }
        guard let page else { throw UsageError(description: "\(command) needs a page, for example: tour \(command) operation (see tour list)") }
        options.page = page
        return options
    }

    /// What `parse` returns, with a problem of the page's settings (`--set`, `--speed`) turned into a usage mistake.
    private static func usage<Value>(_ parse: @autoclosure () throws(LaunchProblem) -> Value) throws(UsageError) -> Value {
        do {
            return try parse()
        } catch {
            throw UsageError(description: error.description)
        }
    }
}
