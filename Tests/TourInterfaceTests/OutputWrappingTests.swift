import Testing
import TourCore
@testable import RunModel
@testable import TourInterface

/// The output pane wraps a long line on words, as a reader expects, and splits a word only when no row could hold it.
@Suite("Output pane wrapping", .bodiesBelowTheRunner)
struct OutputWrappingTests {
    static func rows(_ text: String, width: Int) -> [String] {
        OutputView.wrappedRows(of: OutputEntry(prefix: [], text: text, style: .plain), width: width)
            .map { String($0.map(\.character)).trimmingCharacters(in: .whitespaces) }
    }

    @Test("A word that fits a row is never split, wherever the row ends")
    func wordsStayWhole() {
        let text = "The queue waited in waitUntilAllOperationsAreFinished for every one of its operations to end"
        // Continuation rows are indented two columns on a narrow pane: from 35 columns the longest word fits one.
        for width in 35...60 {
            let rows = Self.rows(text, width: width)
            let words = rows.flatMap { $0.split(separator: " ").map(String.init) }
            #expect(words == text.split(separator: " ").map(String.init), "at \(width) columns: \(rows)")
        }
    }

    @Test("A word longer than the row is split at the row's end, and nothing is lost")
    func longWordsAreSplit() {
        let rows = Self.rows("a waitUntilAllOperationsAreFinished", width: 10)
        #expect(rows.joined() == "awaitUntilAllOperationsAreFinished")
        #expect(rows.dropLast().allSatisfy { $0.count <= 10 })
    }

    @Test("A crash's explanation is shown in words, without the backticks that mark its code")
    func explanationsWithoutBackticks() {
        var record = RunRecord()
        record.apply(.ended(.dispatchTrap, time: 1_000))
        let ending = RunEnding.dispatchTrap
        #expect(ending.explanation.contains("`sync`"), "the explanation marks code")
        let entries = OutputEntries(record: record, glyphs: .unicode)
        let texts = (0..<entries.count).map { entries[$0].text }
        #expect(texts.contains { $0.contains("most often sync onto the serial queue") }, "\(texts)")
        #expect(!texts.contains { $0.contains("`") })
    }
}
