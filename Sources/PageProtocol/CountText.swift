/// Counts as a learner reads them, the same on a page, in the host and in messages.
public enum CountText {
    /// `value` with its thousands grouped, "12,004", whatever the locale.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }
}
