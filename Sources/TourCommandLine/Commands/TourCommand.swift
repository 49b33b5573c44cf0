import PageProtocol
import Presenting
import RoomProtocol
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
    /// `tour levels`: the levels, one a line.
    case levels
    /// `tour explore <level>` (see `ExploreOptions`).
    case explore(ExploreOptions)
    /// `tour play <level> --plain` (see `PlayOptions`).
    case play(PlayOptions)
    /// `tour present [page…] | SCRIPT.talk [--speed N] [--seed N] [--record FILE.cast]`: the presenter, on stage; `tour present --check SCRIPT`: its pre-flight.
    case present(PresentOptions)
    /// `tour room` (see `RoomOptions`): the workshop leader's dashboard.
    case room(RoomOptions)
    /// `tour --help`: the top-level usage.
    case help
    /// `tour <command> --help`: that command's own usage.
    case commandHelp(CommandName)
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
        /// `--room HOST:PORT`: the room to join, checked; nil leaves it to `TOUR_ROOM`, else none.
        public var room: RoomAddress?
        /// `--name N`: the name the room sees; nil leaves it to `TOUR_ROOM_NAME`, else the login's.
        public var name: String?

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
        /// `--timeline-width COLUMNS` (run only): the text timeline's width; nil keeps the report's own.
        public var timelineWidth: Int?
        /// `--predict KEY` (run only): the learner's answer to the page's prediction, graded from this run.
        public var predict: String?

        public init(page: String) {
            self.page = page
        }

        /// The files the run is exported to.
        public var exports: RunExports { RunExports(traceFile: traceFile, svgFile: svgFile) }
    }

    /// The options of `tour explore <level>`.
    public struct ExploreOptions: Equatable, Sendable {
        public var level: String
        /// `--fixed`: the level's fix.
        public var fixed = false
        /// `--preemptions K`; nil for the default bound, or for a random search.
        public var preemptions: Int?
        /// `--random N`: N schedules drawn at random instead.
        public var random: Int?
        /// `--seed S` of a random search; nil has one chosen, and printed.
        public var seed: UInt64?
        /// `--save FILE`: the shortest failing schedule written there.
        public var saveFile: String?
        /// `--json`: the report as one JSON document.
        public var json = false

        public init(level: String) {
            self.level = level
        }

        /// The bound when none is given.
        public static let defaultPreemptions = 2
    }

    /// The options of `tour play <level>`.
    public struct PlayOptions: Equatable, Sendable {
        public var level: String
        public var plain = false
        /// `--fixed`: the level's fix.
        public var fixed = false
        /// `--schedule FILE`: a saved schedule replayed first.
        public var scheduleFile: String?

        public init(level: String) {
            self.level = level
        }
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
        /// `--room HOST:PORT`: the room each page's prediction is asked of before its run.
        public var room: RoomAddress?

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

    /// The options of `tour room`.
    public struct RoomOptions: Equatable, Sendable {
        /// `--broker HOST:PORT`: a broker already running; nil starts one.
        public var broker: RoomAddress?
        /// `--port N`: the port of the broker started; nil takes a free one.
        public var port: UInt16?
        /// `--plain`: the room's events one a line.
        public var plain = false
        /// `--json`: one snapshot, then exit.
        public var json = false

        public init(broker: RoomAddress? = nil, port: UInt16? = nil, plain: Bool = false, json: Bool = false) {
            self.broker = broker
            self.port = port
            self.plain = plain
            self.json = json
        }

        /// The broker the options ask for.
        public var request: RoomRequest { broker.map(RoomRequest.use) ?? .start(port: port) }
    }

    /// A mistake on the command line, with the message that says what would be right.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ arguments: [String]) throws -> TourCommand {
        var remaining = arguments[...]
        guard let first = remaining.first else { return .interactive(InteractiveOptions()) }
        switch first {
        case "-h", "--help", "help": return .help
        case "--version", "version": return .version
        case _ where first.hasPrefix("-") && CommandOption.taken(by: .tutorial).contains(where: { $0.name == first }):
            return try interactive(CommandArguments(remaining, for: .tutorial))
        default:
            break
        }
        remaining.removeFirst()
        guard let command = CommandName(rawValue: first), command != .tutorial else {
            throw UsageError(description: "unknown command \(EchoedInput.quoted(first)); the commands are list, run <page>, watch <page>, reset <page>, progress, predict <page>, check <page>, hint <page>, solution <page>, levels, explore <level>, play <level>, present, notes and room, or none for the full-screen tutorial (see tour --help)")
        }
        let arguments = try CommandArguments(remaining, for: command)
        if arguments.askedForHelp { return .commandHelp(command) }
        switch command {
        case .tutorial: return try interactive(arguments)
        case .list, .levels:
            guard arguments.operands.isEmpty else {
                throw UsageError(description: "tour \(command.rawValue) takes no arguments, but got \(EchoedInput.quoted(arguments.operands.joined(separator: " ")))")
            }
            return command == .list ? .list : .levels
        case .explore: return .explore(try exploreOptions(arguments))
        case .play: return .play(try playOptions(arguments))
        case .notes: return try notes(arguments)
        case .run: return .run(try runOptions(arguments))
        case .watch: return .watch(try runOptions(arguments))
        case .reset: return try reset(arguments)
        case .progress: return .progress(try ProgressOptions(arguments))
        case .present: return .present(try presentOptions(arguments))
        case .room: return .room(try roomOptions(arguments))
        case .check, .hint, .solution, .predict:
            let page = try onePage(arguments)
            let plain = arguments.has(.plain)
            switch command {
            case .check:
                return .check(page: page, plain: plain, exports: RunExports(traceFile: arguments.text(.trace), svgFile: arguments.text(.svg)))
            case .hint: return .hint(page: page, plain: plain)
            case .solution: return .solution(page: page, plain: plain)
            default: return .predict(page: page, plain: plain)
            }
        }
    }

    /// The one page a command takes, or the mistake of giving it none or several.
    private static func onePage(_ arguments: CommandArguments) throws(UsageError) -> String {
        try oneOperand(arguments, noun: "page", example: "operation", listedBy: "tour list")
    }

    /// The one `noun` (page, level) a command takes, or the mistake of giving it none or several.
    private static func oneOperand(_ arguments: CommandArguments, noun: String, example: String, listedBy: String) throws(UsageError) -> String {
        let command = arguments.command.rawValue
        guard let operand = arguments.operands.first else {
            throw UsageError(description: "\(command) needs a \(noun), for example: tour \(command) \(example) (see \(listedBy))")
        }
        if arguments.operands.count > 1 {
            throw UsageError(description: "\(command) takes one \(noun), but got \(EchoedInput.quoted(operand)) and \(EchoedInput.quoted(arguments.operands[1]))")
        }
        return operand
    }

    /// `tour explore <level> [--preemptions K | --random N [--seed S]] [--fixed] [--save FILE] [--json]`.
    private static func exploreOptions(_ arguments: CommandArguments) throws(UsageError) -> ExploreOptions {
        var options = ExploreOptions(level: try oneOperand(arguments, noun: "level", example: "lost-update", listedBy: "tour levels"))
        options.fixed = arguments.has(.fixed)
        options.preemptions = arguments.number(.preemptions).map(Int.init)
        options.random = arguments.number(.random).map(Int.init)
        options.seed = arguments.seed(.seed)
        options.saveFile = arguments.text(.save)
        options.json = arguments.has(.json)
        if options.preemptions != nil && options.random != nil {
            throw UsageError(description: "explore searches by --preemptions K or by --random N, not both")
        }
        if options.seed != nil && options.random == nil {
            throw UsageError(description: "--seed draws the schedules of a random search: give --random N too, for example --random 1000 --seed 7")
        }
        return options
    }

    /// `tour play <level> --plain [--fixed] [--schedule FILE]`.
    private static func playOptions(_ arguments: CommandArguments) throws(UsageError) -> PlayOptions {
        var options = PlayOptions(level: try oneOperand(arguments, noun: "level", example: "lost-update", listedBy: "tour levels"))
        options.plain = arguments.has(.plain)
        options.fixed = arguments.has(.fixed)
        options.scheduleFile = arguments.text(.schedule)
        return options
    }

    /// `tour present [page…] | SCRIPT.talk [options]`, `tour present --check SCRIPT.talk` or `--export FOLDER SCRIPT.talk`.
    private static func presentOptions(_ arguments: CommandArguments) throws(UsageError) -> PresentOptions {
        var options = PresentOptions(check: arguments.has(.check), speed: arguments.number(.speed) ?? 1, seed: arguments.seed(.seed),
                                     castFile: arguments.text(.record))
        options.theme = arguments.theme(.theme)
        options.exportFolder = arguments.text(.export)
        for argument in arguments.operands {
            if argument.hasSuffix(".talk") {
                if let script = options.script {
                    throw UsageError(description: "present plays one script, but got \(EchoedInput.quoted(script)) and \(EchoedInput.quoted(argument))")
                }
                options.script = argument
            } else {
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
        options.room = try roomAddress(arguments)
        if options.room != nil && (options.check || options.exportFolder != nil) {
            throw UsageError(description: "--room asks the room on stage, so it goes with the presenter, not with --check or --export")
        }
        if options.check && options.speed != 1 {
            throw UsageError(description: "--check runs at the script's own speed (its `speed` steps), so it takes no --speed")
        }
        return options
    }

    /// `tour room [--broker HOST:PORT | --port N] [--plain | --json]`.
    private static func roomOptions(_ arguments: CommandArguments) throws(UsageError) -> RoomOptions {
        if let operand = arguments.operands.first {
            throw UsageError(description: "unknown argument \(EchoedInput.quoted(operand)) for room (\(CommandArguments.accepted(by: .room)))")
        }
        var options = RoomOptions(port: arguments.number(.brokerPort).map { UInt16($0) }, plain: arguments.has(.plain), json: arguments.has(.json))
        if let broker = arguments.text(.broker) {
            switch RoomAddress.parse(broker) {
            case .success(let address): options.broker = address
            case .failure(let problem): throw UsageError(description: "--broker: \(problem.description)")
            }
        }
        if options.broker != nil && options.port != nil {
            throw UsageError(description: "--port is the port of the broker tour room starts; with --broker HOST:PORT the broker runs already, so give one or the other")
        }
        if options.plain && options.json {
            throw UsageError(description: "room prints its events one a line (--plain) or one snapshot (--json), not both")
        }
        return options
    }

    /// `tour [options]`: the full-screen tutorial.
    private static func interactive(_ arguments: CommandArguments) throws(UsageError) -> TourCommand {
        if arguments.askedForHelp { return .help }
        if let operand = arguments.operands.first {
            throw UsageError(description: "unknown argument \(EchoedInput.quoted(operand)) for the full-screen tutorial (\(CommandArguments.accepted(by: .tutorial)))")
        }
        var options = InteractiveOptions(speed: arguments.number(.speed) ?? 1, page: arguments.text(.page), seed: arguments.seed(.seed),
                                         speakerNotes: arguments.has(.notes), castFile: arguments.text(.record))
        options.theme = arguments.theme(.theme)
        options.room = try roomAddress(arguments)
        options.name = arguments.text(.participant)
        return .interactive(options)
    }

    /// `--room HOST:PORT`, checked: an address that is not one says what is wrong with it.
    private static func roomAddress(_ arguments: CommandArguments) throws(UsageError) -> RoomAddress? {
        guard let text = arguments.text(.room) else { return nil }
        switch RoomAddress.parse(text) {
        case .success(let address): return address
        case .failure(let problem): throw UsageError(description: "--room \(problem.description)")
        }
    }

    /// `tour notes [--session NAME] [--theme NAME]`.
    private static func notes(_ arguments: CommandArguments) throws(UsageError) -> TourCommand {
        if let operand = arguments.operands.first {
            throw UsageError(description: "unknown argument \(EchoedInput.quoted(operand)) for notes (\(CommandArguments.accepted(by: .notes)))")
        }
        return .notes(session: arguments.text(.session), theme: arguments.theme(.theme))
    }

    /// `tour reset <page> | --all [--exercise]`, `tour reset --undo <page> [--exercise]`, `tour reset --progress [--yes]`,
    /// the options in any order.
    private static func reset(_ arguments: CommandArguments) throws(UsageError) -> TourCommand {
        if arguments.has(.progress) {
            let others = arguments.others(except: [.progress, .yes])
            guard others.isEmpty else {
                throw UsageError(description: "reset --progress takes only --yes, but got \(EchoedInput.quoted(others.joined(separator: " ")))")
            }
            return .resetProgress(confirmed: arguments.has(.yes))
        }
        if arguments.has(.yes) {
            throw UsageError(description: "--yes answers reset --progress's question: tour reset --progress --yes")
        }
        let pages = arguments.operands
        let all = arguments.has(.everyPage), exercise = arguments.has(.exercise)
        let what = exercise ? " --exercise" : ""
        if pages.count > 1 {
            throw UsageError(description: "reset takes one page, but got \(pages.map(EchoedInput.quoted).joined(separator: " and ")); "
                             + "reset each on its own, or every one with tour reset --all\(what)")
        }
        if arguments.has(.undo) {
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

    /// `tour run <page> [options]` and `tour watch <page> [options]`.
    private static func runOptions(_ arguments: CommandArguments) throws(UsageError) -> RunOptions {
        var options = RunOptions(page: try onePage(arguments))
        options.plain = arguments.has(.plain)
        options.knobs = arguments.knobs(.knob)
        options.speed = arguments.number(.speed) ?? 1
        options.seed = arguments.seed(.seed)
        options.speakerNotes = arguments.has(.notes)
        options.castFile = arguments.text(.cast)
        options.traceFile = arguments.text(.trace)
        options.svgFile = arguments.text(.svg)
        options.stuckAfter = arguments.number(.stuckAfter) ?? 3
        options.timelineWidth = arguments.number(.timelineWidth).map(Int.init)
        options.predict = arguments.text(.predict)
        return options
    }
}
