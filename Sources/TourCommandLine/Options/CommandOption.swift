import PageProtocol
import Presenting
import TourCore

/// One option of `tour`'s commands, declared once: its name, the value it takes, its help and the commands that take
/// it. The parsing (`CommandArguments`), the top-level usage, each command's own usage and the "unknown option"
/// messages are all read from `CommandOption.all`.
public struct CommandOption: Sendable {
    /// How the option's value is read, and what is said when it is missing or wrong.
    enum Reading: Sendable {
        /// No value: the option is given or not.
        case flag
        /// `--speed N`: `SpeedFactor`'s range, in its words.
        case speed
        /// `--seed N`: `RehearsalSeed`'s, in its words.
        case seed
        /// `--set name=value`: a knob setting, repeatable.
        case knob
        /// `--theme NAME`: one of `ThemeName`'s.
        case theme
        /// A word that is not another option; `needs` says what is missing when there is none.
        case text(needs: String)
        /// A number `accepts` takes; `needs` says which when there is none or another.
        case number(needs: String, accepts: @Sendable (Double) -> Bool)
        /// Every word up to the next option, at least one.
        case words(needs: String)
    }

    /// `--speed`.
    public let name: String
    /// What the value stands for in the usage (`N`, `FILE.json`); nil for a flag.
    public let value: String?
    /// One sentence for the usage.
    public let help: String
    /// The commands that take it, in `CommandName`'s order.
    public let commands: [CommandName]
    let reading: Reading
    /// What a command that does not take the option says instead of "unknown option", where there is more to say.
    let refusals: [CommandName: String]

    init(_ name: String, _ value: String? = nil, help: String, commands: [CommandName], reading: Reading = .flag,
         refusals: [CommandName: String] = [:]) {
        self.name = name
        self.value = value
        self.help = help
        self.commands = commands
        self.reading = reading
        self.refusals = refusals
    }

    /// `--speed N`, as the usage and the messages write it.
    public var synopsis: String { value.map { "\(name) \($0)" } ?? name }
}

extension CommandOption {
    /// Every option of every command, in the order the usage lists them.
    public static let all: [CommandOption] = [
        page, plain, knob, speed, seed, notes, record, cast, trace, svg, timelineWidth, stuckAfter, predict, theme, session,
        check, export, json, participant, room, summary, everyPage, undo, exercise, progress, yes, preemptions, random, fixed, save, schedule,
        broker, brokerPort,
    ]

    static let page = CommandOption("--page", "P", help: "open on page P instead of where you left off", commands: [.tutorial],
                                    reading: .text(needs: "--page needs a page, for example: tour --page 3 (see tour list)"))
    static let plain = CommandOption("--plain", help: "no colour and ASCII only (for screen readers, logs and pipes)",
                                     commands: [.run, .watch, .progress, .predict, .check, .hint, .solution, .play, .room])
    static let knob = CommandOption("--set", "name=value", help: "set a knob of the page; repeat for several knobs",
                                    commands: [.run, .watch], reading: .knob)
    static let speed = CommandOption("--speed", "N", help: "run simulated waits N times faster (0.1 to 100; times shown stay real)",
                                     commands: [.tutorial, .run, .watch, .present], reading: .speed)
    static let seed = CommandOption("--seed", "N", help: "fix the pages' random delays and choices, or the schedules explore --random draws: "
                                    + "one seed, the same run every time", commands: [.tutorial, .run, .watch, .explore, .present], reading: .seed)
    static let notes = CommandOption("--notes", help: "the pages' speaker notes (- speaker: callouts): shown in the tutorial, printed before a run",
                                     commands: [.tutorial, .run, .watch])
    static let record = CommandOption("--record", "FILE.cast", help: "record the screen as an asciicast v2 file (asciinema play FILE)",
                                      commands: [.tutorial, .present], reading: .text(needs: recordingNeeds("--record")))
    static let cast = CommandOption("--cast", "FILE.cast", help: "also record what the terminal showed, as an asciicast v2 file",
                                    commands: [.run], reading: .text(needs: recordingNeeds("--cast")),
                                    refusals: [.watch: "watch records no cast, since it reruns the page at every save; use tour run <page> --cast FILE.cast"])
    static let trace = CommandOption("--trace", "FILE.json",
                                     help: "also write the run as Chrome trace JSON (open it in Perfetto); a regular file there is replaced, anything else is refused before the run",
                                     commands: [.run, .check], reading: .text(needs: "--trace needs a file name, for example --trace run.json"),
                                     refusals: [.watch: "watch writes no trace, since it reruns the page at every save; use tour run <page> --trace FILE.json"])
    static let svg = CommandOption("--svg", "FILE.svg",
                                   help: "also draw the run's timeline as an SVG picture (lanes, spans in their queues' colours, thread states, an axis in ms), refused as --trace is",
                                   commands: [.run, .check], reading: .text(needs: "--svg needs a file name, for example --svg timeline.svg"),
                                   refusals: [.watch: "watch draws no picture, since it reruns the page at every save; use tour run <page> --svg FILE.svg"])
    static let timelineWidth = CommandOption("--timeline-width", "COLUMNS",
                                             help: "draw the text timeline COLUMNS wide (default 60, 20 to 400): finer on a wide terminal or in a log",
                                             commands: [.run],
                                             reading: .number(needs: "--timeline-width needs a whole number of columns from 20 to 400, for example --timeline-width 120",
                                                              accepts: { $0 == $0.rounded() && (20...400).contains($0) }))
    static let stuckAfter = CommandOption("--stuck-after", "S", help: "call the run stuck after S seconds without progress (default 3)",
                                          commands: [.run, .watch],
                                          reading: .number(needs: "--stuck-after needs a number of seconds above 0 and at most 600, for example --stuck-after 5",
                                                           accepts: { $0 > 0 && $0 <= 600 }))
    static let predict = CommandOption("--predict", "KEY",
                                       help: "your answer to the page's prediction (tour predict <page>), graded from this run and recorded in your progress",
                                       commands: [.run],
                                       reading: .text(needs: "--predict needs your answer's key, for example --predict a (tour predict <page> lists them)"),
                                       refusals: [.watch: "watch reruns the page at every save, so it grades no prediction; use tour run <page> --plain --predict KEY"])
    static let theme = CommandOption("--theme", "NAME",
                                     help: "the colours: dark (the default), light (a light background, a projector) or contrast (strong colours on black); also TOUR_THEME=NAME",
                                     commands: [.tutorial, .notes, .present], reading: .theme)
    static let session = CommandOption("--session", "NAME", help: "the presenter's session to follow, as tour notes lists them",
                                       commands: [.notes],
                                       reading: .text(needs: "--session needs a presenter's session name, for example --session 4242 (tour notes says which ones are live)"))
    static let check = CommandOption("--check", help: "the pre-flight of a talk's script instead of the talk", commands: [.present])
    static let export = CommandOption("--export", "FOLDER", help: "write a talk's backup slides there instead of presenting it",
                                      commands: [.present],
                                      reading: .text(needs: "--export needs a folder for the slides, for example tour present --export slides \(ShippedTalks.partOne)"))
    static let json = CommandOption("--json", help: "one JSON document: the progress, for a workshop leader to collect; explore's report, "
                                    + "with schedules, failing and shortest; the room's snapshot", commands: [.progress, .explore, .room])
    static let participant = CommandOption("--name", "N", help: "your name: in --json, and in the room with --room (also TOUR_ROOM_NAME; else $USER)",
                                           commands: [.tutorial, .progress],
                                           reading: .text(needs: "--name needs the participant's name, for example --name ana"))
    static let room = CommandOption("--room", "HOST:PORT", help: "the workshop's room (also TOUR_ROOM=HOST:PORT; its password in TOUR_ROOM_PASSWORD, "
                                    + "else asked): your progress goes to the leader, polls on stage come to you; with present, ask the room each prediction",
                                    commands: [.tutorial, .present],
                                    reading: .text(needs: "--room needs the room's address, for example --room 192.168.1.20:1883 (tour room prints it)"))
    static let summary = CommandOption("--summary", "FILE...", help: "several participants' --json documents: who is on which page, and which exercises most have not passed",
                                       commands: [.progress],
                                       reading: .words(needs: "--summary needs the participants' files, for example --summary ana.json bob.json (each made by tour progress --json)"))
    static let everyPage = CommandOption("--all", help: "every page (every exercise, with --exercise)", commands: [.reset])
    static let undo = CommandOption("--undo", help: "put back the version the page's last reset replaced", commands: [.reset])
    static let exercise = CommandOption("--exercise", help: "the page's exercise instead of the page; a page and its exercise are never reset together",
                                        commands: [.reset])
    static let progress = CommandOption("--progress", help: "start progress afresh (asks first; the old file is kept beside it)", commands: [.reset])
    static let yes = CommandOption("--yes", help: "with --progress: do not ask", commands: [.reset])
    static let preemptions = CommandOption("--preemptions", "K", help: "search every schedule with at most K preemptions (default 2, 0 to "
                                           + "\(maximumPreemptions)): a switch away from a thread that could go on",
                                           commands: [.explore],
                                           reading: .number(needs: "--preemptions needs a whole number from 0 to \(maximumPreemptions), for example --preemptions 2",
                                                            accepts: { $0 == $0.rounded() && (0...Double(maximumPreemptions)).contains($0) }))
    static let random = CommandOption("--random", "N", help: "search N schedules drawn at random (PCT) instead, 1 to \(CountText.grouped(maximumRandom)), "
                                      + "from --seed S (one is chosen and printed without it)",
                                      commands: [.explore],
                                      reading: .number(needs: "--random needs a whole number of schedules from 1 to \(CountText.grouped(maximumRandom)), for example --random 1000",
                                                       accepts: { $0 == $0.rounded() && (1...Double(maximumRandom)).contains($0) }))
    static let fixed = CommandOption("--fixed", help: "the level's fix instead of the level as written", commands: [.explore, .play])
    static let save = CommandOption("--save", "FILE", help: "write the shortest failing schedule there, for tour play <level> --schedule FILE; "
                                    + "refused before the search as --trace is", commands: [.explore],
                                    reading: .text(needs: "--save needs a file name, for example --save race.schedule"))
    static let schedule = CommandOption("--schedule", "FILE", help: "replay a saved schedule (tour explore --save) step by step, then "
                                        + "read steps on", commands: [.play],
                                        reading: .text(needs: "--schedule needs a schedule file, for example --schedule race.schedule (tour explore <level> --save FILE writes one)"))

    static let broker = CommandOption("--broker", "HOST:PORT", help: "use the MQTT broker already running there instead of starting one",
                                      commands: [.room],
                                      reading: .text(needs: "--broker needs the broker's address, for example --broker 192.168.1.20:1883"))
    static let brokerPort = CommandOption("--port", "N", help: "the port of the broker tour room starts (1 to 65535; a free one without it)",
                                          commands: [.room],
                                          reading: .number(needs: "--port needs a whole number from 1 to 65535 for the broker tour room starts, for example --port 41883",
                                                           accepts: { $0 == $0.rounded() && (1...65535).contains($0) }))

    /// The most preemptions `--preemptions` takes: the schedules grow as the steps to the power of the bound.
    static let maximumPreemptions = 5
    /// The most schedules `--random` draws.
    static let maximumRandom = 1_000_000

    /// The message for a recording option (`--record`, `--cast`) given no file.
    private static func recordingNeeds(_ option: String) -> String {
        "\(option) needs a file name for the recording, for example \(option) demo.cast"
    }

    /// The options `command` takes, in the usage's order.
    public static func taken(by command: CommandName) -> [CommandOption] {
        all.filter { $0.commands.contains(command) }
    }
}
