/// What the learner typed, as a message quotes it back: readable on one line whatever was typed, and never longer
/// than a line, however long the argument was (a 100 KB argument is not echoed whole).
///
/// Every message that repeats user input (a command-line argument, a knob's name or value, a page's name) quotes it
/// with `EchoedInput.quoted`, so a mistake reads the same everywhere.
public enum EchoedInput {
    /// The most characters of an input a message repeats.
    public static let limit = 80

    /// `'text'` in single quotes; control characters written as Swift escapes (`\n`, `\t`, `\u{1B}`) so they
    /// cannot move the cursor or break the line; cut once `limit` characters are shown, escapes counted as they are
    /// written, saying how long the input was: `'aaaa...' (100,000 characters)`.
    public static func quoted(_ text: String) -> String {
        var visible = ""
        var shown = 0
        for scalar in text.unicodeScalars {
            let form = visibleForm(scalar)
            guard shown + form.count <= limit else {
                return "'\(visible)...' (\(CountText.grouped(text.count)) characters)"
            }
            visible += form
            shown += form.count
        }
        return "'\(visible)'"
    }

    private static func visibleForm(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: return String(scalar)
        }
    }
}
