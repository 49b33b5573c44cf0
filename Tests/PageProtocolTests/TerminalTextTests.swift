import Testing
import PageProtocol
import TourTestSupport

@Suite("Terminal text", .bodiesBelowTheRunner)
struct TerminalTextTests {
    @Test("Escape sequences and control characters are removed: CSI, OSC titles, two-character escapes, C1, DEL")
    func sanitizedRemovesEverySequence() {
        #expect(TerminalText.sanitized("a\u{1B}[2J\u{1B}[31mred\u{1B}[0m b") == "ared b")
        #expect(TerminalText.sanitized("\u{1B}]0;pwned\u{07}title gone") == "title gone")
        #expect(TerminalText.sanitized("\u{1B}]2;pwned\u{1B}\\ST too") == "ST too")
        #expect(TerminalText.sanitized("\u{1B}7saved\u{1B}8") == "saved")
        #expect(TerminalText.sanitized("c1\u{9B}2Jcsi") == "c12Jcsi", "U+009B is CSI to a terminal that honours C1")
        #expect(TerminalText.sanitized("bell\u{07}\u{7F}\r") == "bell")
        #expect(TerminalText.sanitized("plain café") == "plain café")
    }

    @Test("Tabs expand to the next multiple of four columns")
    func tabsExpand() {
        #expect(TerminalText.sanitized("a\tb") == "a   b")
        #expect(TerminalText.sanitized("abcd\te\t") == "abcd    e   ")
    }

    @Test("ASCII spells punctuation and symbols, drops accents, and gives one ? a character for the rest")
    func asciiTransliterates() {
        #expect(TerminalText.ascii("page 1 · Operation — 250 µs, 400×300, a → b…") == "page 1 . Operation - 250 us, 400x300, a -> b...")
        #expect(TerminalText.ascii("café naïve Ærø") == "cafe naive AEro")
        #expect(TerminalText.ascii("e\u{301}") == "e", "a combining accent is dropped")
        #expect(TerminalText.ascii("漢字!") == "??!")
        #expect(TerminalText.ascii("plain") == "plain")
        #expect(TerminalText.ascii("┌─┐ █▓ ▲") == "+-+ ## ^")
    }

    @Test("A duration in microseconds reads in ASCII as us")
    func microsecondsInASCII() {
        #expect(TerminalText.ascii(DurationText.seconds(0.000_25)) == "250 us")
    }
}

@Suite("Echoed input", .bodiesBelowTheRunner)
struct EchoedInputTests {
    @Test("A short input is quoted whole")
    func shortInputWhole() {
        #expect(EchoedInput.quoted("--bogus") == "'--bogus'")
    }

    @Test("A 100 KB input is cut to 80 characters and says how long it was")
    func longInputCut() {
        let argument = String(repeating: "x", count: 100_000)
        let quoted = EchoedInput.quoted(argument)
        #expect(quoted == "'" + String(repeating: "x", count: 80) + "...' (100,000 characters)")
    }

    @Test("Control characters show as escapes, so the message stays one line and cannot move the cursor")
    func controlCharactersVisible() {
        #expect(EchoedInput.quoted("a\nb\u{1B}[2J\t") == #"'a\nb\u{1B}[2J\t'"#)
    }
}
