import Foundation

/// A page's text made safe to put on a terminal, in the interface and in plain mode alike: what a page prints must
/// never move the cursor, change colours or retitle the window behind the tutorial's back.
public enum TerminalText {
    /// `text` with tabs expanded to the next multiple of four columns, and escape sequences and every other control
    /// character removed: C0 (below U+0020), DEL, and C1 (U+0080–U+009F, which a terminal may read as ESC + letter,
    /// U+009B being CSI).
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        var column = 0
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x09:
                let spaces = 4 - column % 4
                result += String(repeating: " ", count: spaces)
                column += spaces
            case 0x1B:
                skipEscapeSequence(&scalars)
            case _ where isControl(scalar):
                continue
            default:
                result.unicodeScalars.append(scalar)
                column += 1
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Skips what follows an ESC: a CSI (`ESC [ … final`), a string (`ESC ]`, `P`, `X`, `^` or `_`, up to BEL or
    /// `ESC \`, so an OSC's window title does not show as text), or the one character of a two-character escape.
    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let introducer = scalars.next() else { return }
        switch introducer {
        case "[":
            while let scalar = scalars.next() {
                if (0x40...0x7E).contains(scalar.value) { return }
            }
        case "]", "P", "X", "^", "_":
            while let scalar = scalars.next() {
                if scalar.value == 0x07 { return }
                if scalar.value == 0x1B {
                    _ = scalars.next()
                    return
                }
            }
        default:
            return
        }
    }

    /// `text` in ASCII, for plain mode's promise of ASCII only: common punctuation and symbols become their usual
    /// ASCII spelling (`—` → `-`, `…` → `...`, `µ` → `u`, `×` → `x`, `→` → `->`), letters lose their accents
    /// (`é` → `e`), combining marks are dropped, and anything else becomes one `?` a character.
    public static func ascii(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : transliterated(text)
    }

    private static func transliterated(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else if let spelling = asciiSpellings[scalar] {
                result += spelling
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue
            } else if let base = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars.first, base.isASCII {
                // A precomposed letter: its canonical decomposition starts with the bare letter.
                result.unicodeScalars.append(base)
            } else {
                result += "?"
            }
        }
        return result
    }

    /// The ASCII spelling of the non-ASCII characters the tutorial and its pages use, and their close relatives.
    private static let asciiSpellings: [Unicode.Scalar: String] = [
        "\u{A0}": " ", "·": ".", "•": "*", "—": "-", "–": "-", "‐": "-", "−": "-", "…": "...",
        "‘": "'", "’": "'", "‚": ",", "“": "\"", "”": "\"", "„": "\"", "«": "<<", "»": ">>",
        "µ": "u", "μ": "u", "×": "x", "÷": "/", "±": "+/-", "≤": "<=", "≥": ">=", "≠": "!=", "≈": "~",
        "→": "->", "←": "<-", "↑": "^", "↓": "v", "⇒": "=>", "↔": "<->",
        "▲": "^", "▼": "v", "▶": ">", "◀": "<", "✓": "v", "✔": "v", "✗": "x", "✘": "x",
        "─": "-", "━": "-", "═": "=", "│": "|", "┃": "|", "║": "|",
        "┌": "+", "┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
        "╭": "+", "╮": "+", "╰": "+", "╯": "+", "█": "#", "▓": "#", "▒": "#", "░": "#",
        "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D",
        "©": "(c)", "®": "(R)", "™": "(TM)", "€": "EUR", "£": "GBP",
    ]
}
