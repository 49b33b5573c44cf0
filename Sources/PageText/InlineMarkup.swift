/// Splits one block's prose into styled spans: `code`, *emphasis*, _emphasis_, **strong**, __strong__ and links.
///
/// Markup that does not close is kept as literal text, so a stray backtick or asterisk never hides words.
public enum InlineMarkup {
    /// `backslashEscapes`: a backslash before punctuation keeps that character literal and is not shown, as in a
    /// page's Markdown. Without them every backslash is text, as in the exercises' prompts and hints, which the
    /// command line prints as written and which quote Swift (`trace("band \(band)")`).
    public static func spans(in text: String, backslashEscapes: Bool = true) -> [InlineSpan] {
        var scanner = InlineScanner(characters: Array(text), backslashEscapes: backslashEscapes)
        return scanner.scan()
    }
}

private struct InlineScanner {
    let characters: [Character]
    let backslashEscapes: Bool
    private var spans: [InlineSpan] = []
    private var pendingText = ""

    private static let escapableCharacters = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

    init(characters: [Character], backslashEscapes: Bool) {
        self.characters = characters
        self.backslashEscapes = backslashEscapes
    }

    mutating func scan() -> [InlineSpan] {
        var index = 0
        while index < characters.count {
            let current = characters[index]
            if backslashEscapes, current == "\\", index + 1 < characters.count,
               Self.escapableCharacters.contains(characters[index + 1]) {
                pendingText.append(characters[index + 1])
                index += 2
                continue
            }
            if let (span, end) = styledSpan(at: index) {
                flushText()
                spans.append(span)
                index = end
            } else {
                // A backtick run that opens no code span is text as a whole: its tail must not
                // pair with a later, shorter run the author meant literally.
                let end = current == "`" ? runEnd(from: index) : index + 1
                // Character by character: appending a slice of `Character`s goes through a generic path many
                // times slower, and this runs for most characters of every paragraph.
                for character in characters[index..<end] { pendingText.append(character) }
                index = end
            }
        }
        flushText()
        return spans
    }

    private mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        spans.append(.text(pendingText))
        pendingText = ""
    }

    /// The span that starts at `index` and the index just past it, if the markup there closes.
    private func styledSpan(at index: Int) -> (InlineSpan, Int)? {
        switch characters[index] {
        case "`": codeSpan(at: index)
        case "[": link(at: index)
        case "*", "_": strongSpan(at: index) ?? emphasisSpan(at: index)
        default: nil
        }
    }

    private func runEnd(from start: Int) -> Int {
        var index = start
        while index < characters.count && characters[index] == characters[start] { index += 1 }
        return index
    }

    /// Finds a backtick run as long as the one opening at `start`, as Markdown pairs code spans.
    private func codeSpan(at start: Int) -> (InlineSpan, Int)? {
        let contentStart = runEnd(from: start)
        let length = contentStart - start
        guard let closing = closingBacktickRun(length: length, from: contentStart) else { return nil }
        var content = characters[contentStart..<closing]
        // One space on each side lets a code span begin or end with a backtick: `` `x` ``.
        if content.count >= 2, content.first == " ", content.last == " ", content.contains(where: { $0 != " " }) {
            content = content.dropFirst().dropLast()
        }
        return (.code(String(content)), closing + length)
    }

    private func closingBacktickRun(length: Int, from start: Int) -> Int? {
        var index = start
        while index < characters.count {
            guard characters[index] == "`" else {
                index += 1
                continue
            }
            let end = runEnd(from: index)
            if end - index == length { return index }
            index = end
        }
        return nil
    }

    /// `[text](target)`; the target may contain balanced parentheses, and `@next`/`@previous` stay as written.
    private func link(at start: Int) -> (InlineSpan, Int)? {
        guard let textEnd = characters[(start + 1)...].firstIndex(of: "]"),
              textEnd > start + 1,
              !characters[(start + 1)..<textEnd].contains("["),
              textEnd + 1 < characters.count, characters[textEnd + 1] == "(" else { return nil }
        var depth = 0
        var index = textEnd + 2
        while index < characters.count {
            switch characters[index] {
            case "(": depth += 1
            case ")" where depth == 0:
                let target = String(characters[(textEnd + 2)..<index]).trimmingWhitespace()
                guard !target.isEmpty else { return nil }
                let text = InlineMarkup.spans(in: String(characters[(start + 1)..<textEnd]), backslashEscapes: backslashEscapes).plainText
                return (.link(text: text, target: target), index + 1)
            case ")": depth -= 1
            default: break
            }
            index += 1
        }
        return nil
    }

    private func strongSpan(at start: Int) -> (InlineSpan, Int)? {
        guard let (content, end) = delimited(at: start, length: 2) else { return nil }
        return (.strong(content), end)
    }

    private func emphasisSpan(at start: Int) -> (InlineSpan, Int)? {
        guard let (content, end) = delimited(at: start, length: 1) else { return nil }
        return (.emphasis(content), end)
    }

    /// The flattened text between a run of `length` delimiters at `start` and the run that closes it.
    ///
    /// Follows Markdown's flanking rules closely enough for prose: an opener is followed by a non-space,
    /// a closer preceded by one, and `_` only delimits at word edges, so `max_count_value` stays one word.
    private func delimited(at start: Int, length: Int) -> (String, Int)? {
        let delimiter = characters[start]
        let contentStart = start + length
        guard contentStart < characters.count,
              characters[start..<contentStart].allSatisfy({ $0 == delimiter }),
              !characters[contentStart].isWhitespace,
              characters[contentStart] != delimiter || length == 2,
              delimiter == "*" || start == 0 || !characters[start - 1].isWordCharacter else { return nil }
        var index = contentStart
        while index < characters.count {
            let current = characters[index]
            if current == "`", let (_, end) = codeSpan(at: index) {
                index = end
                continue
            }
            guard current == delimiter else {
                index += 1
                continue
            }
            let end = runEnd(from: index)
            let closes = index > contentStart
                && !characters[index - 1].isWhitespace
                && (delimiter == "*" || end == characters.count || !characters[end].isWordCharacter)
            if closes && end - index == length {
                let content = String(characters[contentStart..<index])
                return (InlineMarkup.spans(in: content, backslashEscapes: backslashEscapes).plainText, end)
            }
            // `**word***` closes on the first two, leaving one literal asterisk, as in Markdown.
            if closes && length == 2 && end - index > 2 {
                let content = String(characters[contentStart..<index])
                return (InlineMarkup.spans(in: content, backslashEscapes: backslashEscapes).plainText, index + 2)
            }
            index = end
        }
        return nil
    }
}

extension Character {
    fileprivate var isWordCharacter: Bool { isLetter || isNumber }
}

extension StringProtocol {
    /// The text without spaces, tabs or line breaks at either end.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
