import TourInterface

/// How the palette's colours become terminal colour indices: 256 colours, the 8 basic ones, or none.
enum ColorTheme: Equatable {
    case extended
    case basic
    /// NO_COLOR, or a monochrome terminal: attributes only.
    case monochrome

    /// The theme for a terminal with `colors` colours, honouring NO_COLOR (https://no-color.org).
    static func choose(colors: Int32, hasColors: Bool, environment: [String: String]) -> ColorTheme {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        guard hasColors, colors >= 8 else { return .monochrome }
        return colors >= 256 ? .extended : .basic
    }

    /// The terminal colour index for `color`, or nil for the terminal's default.
    func index(of color: PaletteColor?) -> Int16? {
        guard let color else { return nil }
        switch self {
        case .extended: return Self.extendedIndices[color]
        case .basic: return Self.basicIndices[color]
        case .monochrome: return nil
        }
    }

    private static let extendedIndices: [PaletteColor: Int16] = [
        .accent: 75, .muted: 244, .heading: 117, .keyword: 170, .string: 179, .comment: 102, .number: 141,
        .inlineCode: 215, .link: 75, .codeBackground: 236, .result: 114, .stderr: 203, .success: 114, .failure: 203,
        .warning: 214, .running: 45, .note: 75, .important: 209, .experiment: 114, .example: 176, .deepDive: 146,
        .queue1: 68, .queue2: 114, .queue3: 179, .queue4: 141, .queue5: 209, .queue6: 80, .selectedSpan: 220, .mark: 213, .bar: 252,
    ]

    /// Readable on dark and light backgrounds alike; no shading behind code, which 8 colours cannot do subtly.
    private static let basicIndices: [PaletteColor: Int16] = [
        .accent: 6, .muted: 7, .heading: 6, .keyword: 5, .string: 3, .comment: 4, .number: 6,
        .inlineCode: 3, .link: 6, .result: 2, .stderr: 1, .success: 2, .failure: 1,
        .warning: 3, .running: 6, .note: 6, .important: 1, .experiment: 2, .example: 5, .deepDive: 5,
        .queue1: 4, .queue2: 2, .queue3: 6, .queue4: 5, .queue5: 1, .queue6: 3, .selectedSpan: 7, .mark: 5, .bar: 7,
    ]
}
