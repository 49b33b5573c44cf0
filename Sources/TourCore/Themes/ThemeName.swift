import PageProtocol

/// The colour themes of the full-screen tutorial, the presenter and `tour notes`: dark for a terminal with a dark
/// background (the default), light for a light one (a projector's white screen), contrast for a room where grey on
/// black washes out. Chosen once, with `--theme NAME`, `theme NAME` in a talk's script, or `TOUR_THEME=NAME`.
public enum ThemeName: String, CaseIterable, Sendable, Equatable {
    case dark
    case light
    case contrast

    /// The names, for messages: "dark, light or contrast".
    public static var choices: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The theme `name` names, or a message that says what would be right.
    public static func parse(_ name: String?, from source: String) throws(ThemeProblem) -> ThemeName {
        guard let name, !name.isEmpty, !name.hasPrefix("-") else {
            throw ThemeProblem(description: "\(source) needs a theme: \(choices), for example \(source) light")
        }
        guard let theme = ThemeName(rawValue: name) else {
            throw ThemeProblem(description: "\(source) takes \(choices), not \(EchoedInput.quoted(name))")
        }
        return theme
    }

    /// The theme `TOUR_THEME` names in `environment`, nil when it names none; a wrong name is said, not ignored.
    public static func fromEnvironment(_ environment: [String: String]) throws(ThemeProblem) -> ThemeName? {
        guard let name = environment["TOUR_THEME"], !name.isEmpty else { return nil }
        return try parse(name, from: "TOUR_THEME")
    }
}

/// A theme named wrongly, in words.
public struct ThemeProblem: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}
