/// A value asked for one knob of a run, `name=value`: from `--set`, from `TOUR_SET`, or from the knob panel.
///
/// Parsing checks only the shape. Whether the value suits the knob is the knob's own check (`KnobSpec.value(from:)`),
/// made by the host before a run and by the page as it runs, so both give the same answer.
public struct KnobSetting: Sendable, Hashable {
    public var name: String
    /// The value as text, exactly as given; it may be empty, which `KnobSpec.value(from:)` then refuses by name.
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses the argument of `--set`, nil when `--set` came last with nothing after it.
    ///
    /// The name is everything before the first `=` and must not be empty; the value is everything after it, `=` included.
    /// An empty value (`photo=`) is accepted here, so the knob's check can say what that knob would take.
    public init(parsing assignment: String?) throws(LaunchProblem) {
        guard let assignment else {
            throw LaunchProblem("--set needs name=value, for example \(Self.example)")
        }
        guard let equals = assignment.firstIndex(of: "=") else {
            throw LaunchProblem("\(EchoedInput.quoted(assignment)) is not a knob setting: it has no '='; write --set name=value, for example \(Self.example)")
        }
        guard equals != assignment.startIndex else {
            throw LaunchProblem("\(EchoedInput.quoted(assignment)) is not a knob setting: no knob name before '='; write --set name=value, for example \(Self.example)")
        }
        self.init(name: String(assignment[..<equals]), value: String(assignment[assignment.index(after: equals)...]))
    }

    /// Parses `TOUR_SET`, the environment's form of `--set`: settings separated by commas, as in `a=1,b=true`.
    /// Empty items (`a=1,,b=2`, or a trailing comma) are skipped; a value cannot hold a comma here.
    public static func list(parsing text: String) throws(LaunchProblem) -> [KnobSetting] {
        var settings: [KnobSetting] = []
        for item in text.split(separator: ",") {
            settings.append(try KnobSetting(parsing: String(item)))
        }
        return settings
    }

    /// The argument of `--set` that asks for this setting.
    public var assignment: String { "\(name)=\(value)" }

    /// The example a message about the shape of a setting gives.
    private static let example = "--set maxConcurrentOperationCount=1"
}
