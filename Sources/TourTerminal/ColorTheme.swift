import TourCore
import TourInterface

/// How the palette's colours become terminal colour indices: 256 colours in the theme chosen (`ThemeName`), the 8
/// basic ones, or none.
enum ColorTheme: Equatable {
    case extended(ThemeName)
    case basic
    /// NO_COLOR, or a monochrome terminal: attributes only.
    case monochrome

    /// The theme for a terminal with `colors` colours, honouring NO_COLOR (https://no-color.org); `name` picks the
    /// 256-colour palette (8 colours have one, readable on any background).
    static func choose(colors: Int32, hasColors: Bool, environment: [String: String], name: ThemeName = .dark) -> ColorTheme {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        guard hasColors, colors >= 8 else { return .monochrome }
        return colors >= 256 ? .extended(name) : .basic
    }

    /// Whether the terminal shows 256 colours, in whichever theme: pictures need them.
    var isExtended: Bool {
        if case .extended = self { true } else { false }
    }

    /// The terminal colour index for `color`, or nil for the terminal's default.
    func index(of color: PaletteColor?) -> Int16? {
        guard let color else { return nil }
        switch self {
        case .extended(.dark): return Self.extendedIndices[color]
        case .extended(.light): return Self.lightIndices[color]
        case .extended(.contrast): return Self.contrastIndices[color]
        case .basic: return Self.basicIndices[color]
        case .monochrome: return nil
        }
    }

    /// For a light background: darker, saturated colours, and a pale shade behind code (xterm 255, not 236's dark
    /// grey, which was dark on dark on a projector's white).
    private static let lightIndices: [PaletteColor: Int16] = [
        .accent: 25, .muted: 242, .heading: 24, .keyword: 90, .string: 130, .comment: 244, .number: 54,
        .inlineCode: 130, .link: 25, .codeBackground: 255, .result: 28, .stderr: 160, .success: 28, .failure: 160,
        .warning: 166, .running: 31, .note: 25, .important: 160, .experiment: 28, .example: 90, .deepDive: 60,
        .queue1: 25, .queue2: 28, .queue3: 136, .queue4: 91, .queue5: 166, .queue6: 30, .selectedSpan: 178, .mark: 163, .bar: 236,
    ]

    /// For a room where grey washes out: the brightest colours on a black shade behind code, no greys but for comments.
    private static let contrastIndices: [PaletteColor: Int16] = [
        .accent: 51, .muted: 252, .heading: 231, .keyword: 213, .string: 228, .comment: 250, .number: 159,
        .inlineCode: 228, .link: 51, .codeBackground: 16, .result: 46, .stderr: 196, .success: 46, .failure: 196,
        .warning: 226, .running: 51, .note: 51, .important: 202, .experiment: 46, .example: 213, .deepDive: 189,
        .queue1: 33, .queue2: 46, .queue3: 226, .queue4: 201, .queue5: 208, .queue6: 51, .selectedSpan: 226, .mark: 201, .bar: 231,
    ]

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
