/// How many terminal columns text takes, and how to cut or pad text to a width.
///
/// Making a page's raw output safe to draw is `TerminalText.sanitized`, shared with plain mode.
public enum TextWidth {
    /// 2 for East Asian wide characters and emoji, 0 for control characters, else 1.
    ///
    /// A small table rather than `wcwidth`, so rendering is the same in tests and in every locale.
    public static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        // Below the first wide range: nearly every character of a page, which is laid out before its first frame.
        if value < wideRanges[0].lowerBound { return 1 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    /// `text` cut to `width` columns, ending in `ellipsis` when something was cut.
    public static func truncated(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        let room = width - of(ellipsis)
        guard room > 0 else { return String(text.prefix(width)) }
        var result = ""
        var used = 0
        for character in text {
            let next = of(character)
            if used + next > room { break }
            result.append(character)
            used += next
        }
        return result + ellipsis
    }

    /// `text` padded with spaces, or cut, to exactly `width` columns.
    public static func padded(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        let cut = truncated(text, to: width, ellipsis: ellipsis)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }
}
