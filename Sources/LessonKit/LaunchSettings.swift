import PageProtocol

/// What the host (or a learner at the shell) asked of this run: knob values, the speed factor and the seed.
///
/// Arguments win over the environment: `--set name=value` (repeatable), `--speed N` and `--seed N`,
/// or `TOUR_SET="name=value,name=value"`, `TOUR_SPEED=N` and `TOUR_SEED=N`. Each is parsed as the host parses it (`KnobSetting`,
/// `SpeedFactor`); a later setting of a knob replaces an earlier one.
struct LaunchSettings: Sendable {
    /// The knob settings in the order given, the environment's first; `KnobSpec.value(from:)` checks one when the page
    /// declares its knob.
    var knobSettings: [KnobSetting] = []
    var speed: Double = 1
    /// The seed of the page's random delays and choices (`Rehearsal`), nil for a random run.
    var seed: UInt64?

    init(arguments: [String], environment: [String: String]) throws(LaunchProblem) {
        if let list = environment[PageEnvironment.knobSettings] {
            knobSettings += try Self.fromEnvironment(PageEnvironment.knobSettings) { () throws(LaunchProblem) in try KnobSetting.list(parsing: list) }
        }
        if let speedText = environment[PageEnvironment.speed] {
            speed = try Self.fromEnvironment(PageEnvironment.speed) { () throws(LaunchProblem) in try SpeedFactor.parse(speedText) }
        }
        if let seedText = environment[PageEnvironment.seed] {
            seed = try Self.fromEnvironment(PageEnvironment.seed) { () throws(LaunchProblem) in try RehearsalSeed.parse(seedText) }
        }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--set":
                knobSettings.append(try KnobSetting(parsing: remaining.popFirst()))
            case "--speed":
                speed = try SpeedFactor.parse(remaining.popFirst())
            case "--seed":
                seed = try RehearsalSeed.parse(remaining.popFirst())
            default:
                throw LaunchProblem("unknown argument \(EchoedInput.quoted(argument)); a page takes --set name=value, --speed N and --seed N")
            }
        }
    }

    /// The value asked for the knob `name`: the last setting of it wins.
    func value(ofKnob name: String) -> String? {
        knobSettings.last { $0.name == name }?.value
    }

    /// What `parse` returns, with a problem said to come from the environment variable `name`, which the learner may
    /// not know is set.
    private static func fromEnvironment<Value>(_ name: String, _ parse: () throws(LaunchProblem) -> Value) throws(LaunchProblem) -> Value {
        do {
            return try parse()
        } catch {
            throw LaunchProblem("in \(name): \(error.description)")
        }
    }
}
