import PageProtocol
import TourCore

/// A command's arguments read against the option table: each option the command takes, its value checked once, here,
/// for every command that takes it; the other words (the command's operands), in order; and whether `--help` was asked.
struct CommandArguments {
    /// An option's value, read as the option's `CommandOption.Reading` says.
    enum Value {
        case flag
        case number(Double)
        case seed(UInt64)
        case knob(KnobSetting)
        case theme(ThemeName)
        case text(String)
        case words([String])
    }

    let command: CommandName
    /// The options given, in order, with their values.
    private(set) var given: [(option: CommandOption, value: Value)] = []
    /// The words that are not options or their values, in order.
    private(set) var operands: [String] = []
    /// `-h` or `--help` was among the arguments: the command's usage is printed instead.
    private(set) var askedForHelp = false

    /// Reads `arguments` for `command`; an option it does not take, or a value its option refuses, is a usage mistake
    /// that says what would be right.
    init(_ arguments: ArraySlice<String>, for command: CommandName) throws(TourCommand.UsageError) {
        self.command = command
        let taken = CommandOption.taken(by: command)
        var remaining = arguments
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" {
                askedForHelp = true
            } else if let option = taken.first(where: { $0.name == argument }) {
                given.append((option, try Self.value(of: option, &remaining)))
            } else if argument.hasPrefix("-") {
                throw Self.refusal(of: argument, by: command)
            } else {
                operands.append(argument)
            }
        }
    }

    /// Whether `option` was given.
    func has(_ option: CommandOption) -> Bool { given.contains { $0.option.name == option.name } }

    /// The last value given to `option`, if any.
    private func last(_ option: CommandOption) -> Value? { given.last { $0.option.name == option.name }?.value }

    func number(_ option: CommandOption) -> Double? { if case .number(let number)? = last(option) { number } else { nil } }
    func seed(_ option: CommandOption) -> UInt64? { if case .seed(let seed)? = last(option) { seed } else { nil } }
    func theme(_ option: CommandOption) -> ThemeName? { if case .theme(let theme)? = last(option) { theme } else { nil } }
    func text(_ option: CommandOption) -> String? { if case .text(let text)? = last(option) { text } else { nil } }
    func words(_ option: CommandOption) -> [String]? { if case .words(let words)? = last(option) { words } else { nil } }

    /// Every knob setting given with `option`, in order.
    func knobs(_ option: CommandOption) -> [KnobSetting] {
        given.compactMap { $0.option.name == option.name ? { if case .knob(let knob) = $0 { knob } else { nil } }($0.value) : nil }
    }

    /// The names of the options given other than `except`, and the operands, as the command line had them.
    func others(except: [CommandOption]) -> [String] {
        given.map(\.option.name).filter { name in !except.contains { $0.name == name } } + operands
    }

    /// The value after `option`, checked as its reading says.
    private static func value(of option: CommandOption, _ remaining: inout ArraySlice<String>) throws(TourCommand.UsageError) -> Value {
        switch option.reading {
        case .flag:
            return .flag
        case .speed:
            return .number(try launch { () throws(LaunchProblem) in try SpeedFactor.parse(remaining.popFirst()) })
        case .seed:
            return .seed(try launch { () throws(LaunchProblem) in try RehearsalSeed.parse(remaining.popFirst()) })
        case .knob:
            return .knob(try launch { () throws(LaunchProblem) in try KnobSetting(parsing: remaining.popFirst()) })
        case .theme:
            do throws(ThemeProblem) {
                return .theme(try ThemeName.parse(remaining.popFirst(), from: option.name))
            } catch {
                throw TourCommand.UsageError(description: error.description)
            }
        case .text(let needs):
            guard let text = remaining.popFirst(), !text.isEmpty, !text.hasPrefix("-") else {
                throw TourCommand.UsageError(description: needs)
            }
            return .text(text)
        case .number(let needs, let accepts):
            guard let text = remaining.popFirst(), let number = Double(text), accepts(number) else {
                throw TourCommand.UsageError(description: needs)
            }
            return .number(number)
        case .words(let needs):
            var words: [String] = []
            while let word = remaining.first, !word.hasPrefix("-") {
                words.append(word)
                remaining.removeFirst()
            }
            guard !words.isEmpty else { throw TourCommand.UsageError(description: needs) }
            return .words(words)
        }
    }

    /// What `read` returns, with a problem of the page's settings (`--set`, `--speed`, `--seed`) as a usage mistake.
    private static func launch<Value>(_ read: () throws(LaunchProblem) -> Value) throws(TourCommand.UsageError) -> Value {
        do {
            return try read()
        } catch {
            throw TourCommand.UsageError(description: error.description)
        }
    }

    /// The mistake of giving `command` an option it does not take: the table's reason when it has one, else the
    /// options the command takes.
    static func refusal(of argument: String, by command: CommandName) -> TourCommand.UsageError {
        if let reason = CommandOption.all.first(where: { $0.name == argument })?.refusals[command] {
            return TourCommand.UsageError(description: reason)
        }
        return TourCommand.UsageError(description: "unknown option \(EchoedInput.quoted(argument)) for \(command.spoken) "
                                      + "(\(accepted(by: command)))")
    }

    /// "this command takes: --plain, --set name=value, …; see tour run --help", from the table.
    static func accepted(by command: CommandName) -> String {
        let options = CommandOption.taken(by: command).map(\.synopsis)
        let help = command == .tutorial ? "tour --help" : "tour \(command.rawValue) --help"
        return options.isEmpty ? "this command takes no options; see \(help)"
            : "this command takes: \(options.joined(separator: ", ")); see \(help)"
    }
}
