/// A knob as a page declares it: its name, and what values it takes with its default. The one check of a value asked for a
/// knob (`value(from:)`) lives here: the host makes it before a run, from the knobs it reads in the page's source, and
/// LessonKit's `knob(…)` makes it as the page runs, so both accept and refuse the same values with the same words.
public struct KnobSpec: Sendable, Equatable {
    public var name: String
    public var kind: KnobKind

    public init(name: String, kind: KnobKind) {
        self.name = name
        self.kind = kind
    }

    /// A value of a knob, typed.
    public enum Value: Sendable, Equatable {
        case integer(Int)
        case boolean(Bool)
        /// The raw value of a case of the page's choice enumeration.
        case choice(String)

        /// The value as it is written in `--set` and in a `knob` event.
        public var text: String {
            switch self {
            case .integer(let number): String(number)
            case .boolean(let flag): String(flag)
            case .choice(let name): name
            }
        }
    }

    /// The knob's default value.
    public var defaultValue: Value {
        switch kind {
        case .integer(let value, _): .integer(value)
        case .boolean(let value): .boolean(value)
        case .choice(let value, _): .choice(value)
        }
    }

    /// The value `text` asks for, or the problem that says what this knob takes instead.
    ///
    /// - Integer: a whole number in the declared range, in decimal with an optional sign.
    /// - Boolean: `true`, `yes`, `on`, `1` or `false`, `no`, `off`, `0`, in any case (`KnobKind.booleanValue(of:)`).
    /// - Choice: one of the raw values, exactly; any text when the choices are not known (the page checks it then).
    /// - An empty value is refused like any other that does not fit, with this knob's name and what it takes.
    public func value(from text: String) throws(LaunchProblem) -> Value {
        switch kind {
        case .integer(_, let range):
            if let number = Int(text), range.contains(number) { return .integer(number) }
            throw refusal(of: text, takes: "takes a whole number from \(range.lowerBound) to \(range.upperBound)")
        case .boolean:
            if let flag = KnobKind.booleanValue(of: text) { return .boolean(flag) }
            throw refusal(of: text, takes: "is true or false")
        case .choice(_, let choices?):
            if choices.contains(text) { return .choice(text) }
            throw refusal(of: text, takes: "is one of \(choices.joined(separator: ", "))")
        case .choice(_, nil):
            return .choice(text)
        }
    }

    /// "knob executionBlocks takes a whole number from 1 to 6, not '99'"; for an empty value, with an example of a right one.
    private func refusal(of text: String, takes: String) -> LaunchProblem {
        guard !text.isEmpty else {
            return LaunchProblem("knob \(name) \(takes), but '\(name)=' gives it no value; write for example --set \(name)=\(defaultValue.text)")
        }
        return LaunchProblem("knob \(name) \(takes), not \(EchoedInput.quoted(text))")
    }

    /// The message for a setting of a knob that `knobs` (a page's knobs, named `page` in the message) does not have.
    public static func unknownKnob(_ name: String, among knobs: [String], of page: String) -> LaunchProblem {
        let known = knobs.isEmpty ? "\(page) has no knobs" : "the knobs of \(page) are \(knobs.joined(separator: ", "))"
        return LaunchProblem("no knob named \(EchoedInput.quoted(name)); \(known)")
    }
}

/// What values a knob takes, and its default: one case for each of LessonKit's three `knob` functions.
public enum KnobKind: Sendable, Equatable {
    case integer(default: Int, range: ClosedRange<Int>)
    case boolean(default: Bool)
    /// A choice from a `String` enumeration; values are raw values. `choices` is nil when the host could not read
    /// them from the page's source before the run; the page itself knows them.
    case choice(default: String, choices: [String]?)

    /// The words a boolean knob takes, in any case: `true`, `yes`, `on`, `1` and `false`, `no`, `off`, `0`.
    public static func booleanValue(of text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }
}

extension KnobAnnouncement {
    /// The `knob` event for `spec` when this run uses `value`.
    public init(_ spec: KnobSpec, value: KnobSpec.Value, help: String) {
        var minimum: Int?
        var maximum: Int?
        var choices: [String] = []
        let type: KnobType
        switch spec.kind {
        case .integer(_, let range):
            (type, minimum, maximum) = (.int, range.lowerBound, range.upperBound)
        case .boolean:
            type = .bool
        case .choice(_, let known):
            (type, choices) = (.choice, known ?? [])
        }
        self.init(name: spec.name, type: type, value: value.text, defaultValue: spec.defaultValue.text,
                  minimum: minimum, maximum: maximum, choices: choices, help: help)
    }
}
