import PageProtocol
import TourCore

/// One knob as the knob panel shows it: what the page declared, the value the last run used, and its range.
public struct KnobRow: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case integer(ClosedRange<Int>)
        case boolean
        /// The names to pick from; empty while they are unknown (before the first run of a page whose choices
        /// the source does not list where the knob is declared).
        case choice([String])
    }

    public var name: String
    public var kind: Kind
    public var defaultValue: String
    /// The value the last run used, or the default before any run.
    public var value: String
    public var help: String

    public init(name: String, kind: Kind, defaultValue: String, value: String, help: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.value = value
        self.help = help
    }

    /// The knob as a run reported it.
    public init(_ knob: KnobValue) {
        let kind: Kind
        switch knob.type {
        case .bool: kind = .boolean
        case .choice: kind = .choice(knob.choices)
        case .int: kind = .integer((knob.minimum ?? Int.min)...(knob.maximum ?? Int.max))
        }
        self.init(name: knob.name, kind: kind, defaultValue: knob.defaultValue, value: knob.value, help: knob.help)
    }

    /// The knob as the page's source declares it, before any run; its help text arrives with the first run.
    public init(_ declaration: KnobDeclaration) {
        switch declaration.kind {
        case .integer(let defaultValue, let range):
            self.init(name: declaration.name, kind: .integer(range), defaultValue: String(defaultValue), value: String(defaultValue), help: "")
        case .boolean(let defaultValue):
            self.init(name: declaration.name, kind: .boolean, defaultValue: String(defaultValue), value: String(defaultValue), help: "")
        case .choice(let defaultValue, let choices):
            self.init(name: declaration.name, kind: .choice(choices ?? []), defaultValue: defaultValue, value: defaultValue, help: "")
        }
    }

    /// The value one step up (`by: 1`) or down (`by: -1`) from `current`: integers stop at their range,
    /// yes/no flips, choices go round.
    public func value(after current: String, by step: Int) -> String {
        switch kind {
        case .integer(let range):
            let number = Int(current) ?? Int(defaultValue) ?? range.lowerBound
            return String(min(range.upperBound, max(range.lowerBound, number + step)))
        case .boolean:
            return KnobKind.booleanValue(of: current) == true ? "false" : "true"
        case .choice(let choices):
            guard !choices.isEmpty else { return current }
            let index = choices.firstIndex(of: current) ?? 0
            return choices[(index + step + choices.count * 2) % choices.count]
        }
    }

    /// "1…6", "true or false", "coffee, chelsea, …": what values the knob takes.
    public func range(glyphs: Glyphs) -> String {
        switch kind {
        case .integer(let range) where range.lowerBound > Int.min && range.upperBound < Int.max:
            return "\(range.lowerBound)\(glyphs.ellipsis)\(range.upperBound)"
        case .integer:
            return "a whole number"
        case .boolean:
            return "true or false"
        case .choice(let choices):
            return choices.isEmpty ? "run once to see the choices" : choices.joined(separator: ", ")
        }
    }
}
