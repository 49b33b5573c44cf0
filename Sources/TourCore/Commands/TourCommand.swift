/// What the learner asked `tour` to do, parsed from its arguments.
public enum TourCommand: Equatable, Sendable {
    case interactive(speed: Double)
    case list
    case run(RunOptions)
    /// `tour watch <page>`: run, then rebuild and rerun on every saved change.
    case watch(RunOptions)
    /// `tour reset <page>`, or every page when nil (`tour reset --all`).
    case reset(page: String?)
    /// `tour reset --undo <page>`: put back the version the page's last reset replaced.
    case undoReset(page: String)
    case help
    case version

    /// The options of `tour run <page>`.
    public struct RunOptions: Equatable, Sendable {
        public var page: String
        public var plain = false
        public var knobs: [KnobSetting] = []
        public var speed: Double = 1
        public var traceFile: String?
        public var stuckAfter: Double = 3

        public init(page: String) {
            self.page = page
        }
    }

    /// `name=value` from `--set`.
    public struct KnobSetting: Equatable, Sendable {
        public var name: String
        public var value: String
    }

    /// A mistake on the command line, with the message that says what would be right.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static let usage = """
        ConcurrencyTour: learn Operation, OperationQueue and Grand Central Dispatch by running them.

        Usage:
          tour                          open the full-screen tutorial (needs a terminal)
          tour list                     the eight pages, in order
          tour run <page> [options]     run one page and stream what it does, line by line
          tour watch <page> [options]   run the page, then rebuild and rerun it each time its source is saved
                                        (compile errors are shown on their lines; Ctrl-C ends it)
          tour reset <page> | --all     put a page (or every page) back to its original text; the text it
                                        replaces is kept in .tour/before-reset (the last \(OriginalPages.keptVersionLimit) of each page)
          tour reset --undo <page>      put back the version the page's last reset replaced
          tour --help | --version

        <page> is a number (1-8) or a name such as operation, queue, in-practice.

        Options for run and watch:
          --plain              no colour and ASCII only (for screen readers, logs and pipes)
          --set name=value     set a knob of the page; repeat for several knobs
          --speed N            run simulated waits N times faster (0.1 to 100; times shown stay real)
          --trace FILE.json    run only: also write the run as Chrome trace JSON (open it in Perfetto); a
                               regular file there is replaced, anything else is refused before the run
          --stuck-after S      call the run stuck after S seconds without progress (default 3)

        Exit status of run: 0 the page ended as it said it would; 1 it ended otherwise
        (crash, stuck, failure it did not announce); 2 a usage mistake, such as a --trace FILE that is not
        a regular file or is in a folder that does not exist (checked before the page runs); 3 the page
        could not start; 4 the page ran but its trace could not be written.
        """

    public static func parse(_ arguments: [String]) throws -> TourCommand {
        var remaining = arguments[...]
        guard let first = remaining.popFirst() else { return .interactive(speed: 1) }
        switch first {
        case "-h", "--help", "help": return .help
        case "--version", "version": return .version
        case "list":
            guard remaining.isEmpty else { throw UsageError(description: "tour list takes no arguments, but got '\(remaining.joined(separator: " "))'") }
            return .list
        case "--speed":
            return .interactive(speed: try speed(remaining.popFirst()))
        case "run":
            return .run(try runOptions(&remaining, command: "run"))
        case "watch":
            return .watch(try runOptions(&remaining, command: "watch"))
        case "reset":
            return try reset(&remaining)
        default:
            throw UsageError(description: "unknown command '\(first)'; the commands are list, run <page>, watch <page> and reset <page>, or none for the full-screen tutorial (see tour --help)")
        }
    }

    private static func reset(_ remaining: inout ArraySlice<String>) throws -> TourCommand {
        let arguments = Array(remaining)
        switch arguments.count {
        case 1 where arguments[0] == "--all":
            return .reset(page: nil)
        case 1 where !arguments[0].hasPrefix("-"):
            return .reset(page: arguments[0])
        case 2 where arguments.contains("--undo"):
            let page = arguments[0] == "--undo" ? arguments[1] : arguments[0]
            guard !page.hasPrefix("-") else {
                throw UsageError(description: "reset --undo takes one page, for example: tour reset --undo operation")
            }
            return .undoReset(page: page)
        case 1 where arguments[0] == "--undo":
            throw UsageError(description: "reset --undo needs a page, for example: tour reset --undo operation")
        case 0:
            throw UsageError(description: "reset needs a page, for example: tour reset operation, or tour reset --all for every page")
        default:
            throw UsageError(description: "reset takes one page, --all, or --undo and a page, but got '\(arguments.joined(separator: " "))'")
        }
    }

    private static func runOptions(_ remaining: inout ArraySlice<String>, command: String) throws -> RunOptions {
        var page: String?
        var options = RunOptions(page: "")
        while let argument = remaining.popFirst() {
            switch argument {
            case "--plain":
                options.plain = true
            case "--set":
                guard let assignment = remaining.popFirst() else {
                    throw UsageError(description: "--set needs name=value, for example --set maxConcurrentOperationCount=1")
                }
                options.knobs.append(try knob(assignment))
            case "--speed":
                options.speed = try speed(remaining.popFirst())
            case "--trace":
                guard command == "run" else {
                    throw UsageError(description: "watch writes no trace, since it reruns the page at every save; "
                                     + "use tour run <page> --trace FILE.json")
                }
                guard let file = remaining.popFirst(), !file.isEmpty, !file.hasPrefix("--") else {
                    throw UsageError(description: "--trace needs a file name, for example --trace run.json")
                }
                options.traceFile = file
            case "--stuck-after":
                guard let text = remaining.popFirst(), let seconds = Double(text), seconds > 0, seconds <= 600 else {
                    throw UsageError(description: "--stuck-after needs a number of seconds from 0 to 600, for example --stuck-after 5")
                }
                options.stuckAfter = seconds
            case _ where argument.hasPrefix("-"):
                throw UsageError(description: "unknown option '\(argument)' for \(command); the options are --plain, --set name=value, --speed N, --trace FILE.json, --stuck-after S")
            default:
                guard page == nil else {
                    throw UsageError(description: "\(command) takes one page, but got '\(page!)' and '\(argument)'")
                }
                page = argument
            }
        }
        guard let page else { throw UsageError(description: "\(command) needs a page, for example: tour \(command) operation (see tour list)") }
        options.page = page
        return options
    }

    private static func knob(_ assignment: String) throws -> KnobSetting {
        let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw UsageError(description: "'\(assignment)' is not a knob setting; write --set name=value, for example --set maxConcurrentOperationCount=1")
        }
        return KnobSetting(name: String(parts[0]), value: String(parts[1]))
    }

    private static func speed(_ text: String?) throws -> Double {
        guard let text, let value = Double(text), value.isFinite, value >= 0.1, value <= 100 else {
            throw UsageError(description: "--speed needs a number from 0.1 to 100, for example --speed 4, but got '\(text ?? "nothing")'")
        }
        return value
    }
}

extension KnobDeclaration {
    /// Checks `value` against the declaration; returns what is wrong, or nil when the page will accept it.
    public func problem(with value: String) -> String? {
        switch kind {
        case .integer(_, let range):
            guard let number = Int(value), range.contains(number) else {
                return "knob \(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'"
            }
        case .boolean:
            guard ["true", "false", "yes", "no", "on", "off", "1", "0"].contains(value.lowercased()) else {
                return "knob \(name) is true or false, not '\(value)'"
            }
        case .choice(_, let choices?):
            guard choices.contains(value) else {
                return "knob \(name) is one of \(choices.joined(separator: ", ")), not '\(value)'"
            }
        case .choice(_, nil):
            break
        }
        return nil
    }
}
