/// A part of the tutorial, a run of pages under one heading in `tour list` and the sidebar: part one's operations and
/// Dispatch, part two's Swift Concurrency.
///
/// A page opens a part with a paragraph of its own between its title and its first paragraph, `Part two: Swift
/// Concurrency`; the pages after it belong to that part until one opens the next (`docs/page-format.md`, Parts).
public struct PagePart: Sendable, Equatable {
    /// "Part two", as written before the colon.
    public var label: String
    /// "Swift Concurrency", as written after it.
    public var title: String

    public init(label: String, title: String) {
        self.label = label
        self.title = title
    }

    /// The part a paragraph opens: "Part", one word, a colon and a title, as in `Part two: Swift Concurrency`; nil for
    /// any other paragraph.
    public init?(line: String) {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let label = line[..<colon]
        let words = label.split(separator: " ", omittingEmptySubsequences: false)
        let title = line[line.index(after: colon)...].trimmingWhitespace()
        guard words.count == 2, words[0] == "Part", !words[1].isEmpty, words[1].allSatisfy({ $0.isLetter || $0.isNumber }),
              !title.isEmpty else { return nil }
        self.init(label: String(label), title: title)
    }

    /// "Part two: Swift Concurrency", as the page writes it.
    public var heading: String { "\(label): \(title)" }
}
