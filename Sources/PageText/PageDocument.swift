/// A tutorial page as the tutorial renders it: prose blocks and runs of code, in source order.
public struct PageDocument: Sendable, Equatable {
    public var blocks: [PageBlock]

    public init(blocks: [PageBlock]) {
        self.blocks = blocks
    }

    /// The text of the page's first heading, the page's title.
    public var title: String? {
        for case .heading(_, let text, _) in blocks {
            return text.plainText
        }
        return nil
    }

    /// The page's deep dives in order, each with its body and the line of its `- deep dive:` marker.
    public var deepDives: [(body: [PageBlock], line: Int)] {
        blocks.compactMap { block in
            if case .deepDive(let body, let line) = block { return (body, line) }
            return nil
        }
    }

    /// The page's `- speaker:` notes in order, each with its text and the line it starts on.
    public var speakerNotes: [(text: String, line: Int)] {
        blocks.compactMap { block in
            if case .callout(.speaker, let body, let line) = block { return (body.plainText, line) }
            return nil
        }
    }

    /// Every code line of the page in order, each with its line number in `main.swift`.
    public var codeLines: [SourceLine] {
        blocks.flatMap { block -> [SourceLine] in
            if case .code(let lines) = block { return lines }
            return []
        }
    }
}

/// One block of a page; `line` is the 1-based line of `main.swift` the block starts on.
public enum PageBlock: Sendable, Equatable {
    case heading(level: Int, text: [InlineSpan], line: Int)
    /// Consecutive prose lines joined with spaces, as soft-wrapped text.
    case paragraph([InlineSpan], line: Int)
    /// A bullet or numbered item; `depth` is 0 at the outermost level and grows with indentation.
    case listItem(ordered: Bool, number: Int?, depth: Int, text: [InlineSpan], line: Int)
    /// A list item that starts with a callout keyword, such as `- experiment: Set the knob to 1.`
    case callout(kind: CalloutKind, body: [InlineSpan], line: Int)
    /// A `- deep dive:` callout: an aside the interface shows folded until the learner opens it. Its body is
    /// paragraphs and list items (`.paragraph`, `.listItem`), so it has room for several; `line` is its marker's.
    case deepDive(body: [PageBlock], line: Int)
    case rule(line: Int)
    /// A run of consecutive code lines, without the blank lines at its ends.
    case code([SourceLine])
}

/// One line of Swift code, numbered as in the file so run results can be shown beside it.
public struct SourceLine: Sendable, Equatable {
    public var number: Int
    public var text: String

    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }
}

/// The callouts a page may use, named as in Xcode's playground markup.
public enum CalloutKind: String, Sendable, Equatable, CaseIterable {
    case note, important, experiment, example
    /// `- speaker:` notes for whoever presents the page: hidden from learners and plain mode unless asked for.
    case speaker
}

/// A piece of inline text with its style; nested markup inside a styled piece is flattened to its text.
public enum InlineSpan: Sendable, Equatable {
    case text(String)
    case code(String)
    case emphasis(String)
    case strong(String)
    /// A link; page links keep their target `@next` or `@previous` for the host to resolve.
    case link(text: String, target: String)

    /// The words a reader sees, without styling.
    public var plainText: String {
        switch self {
        case .text(let text), .code(let text), .emphasis(let text), .strong(let text), .link(let text, _):
            text
        }
    }
}

extension Array where Element == InlineSpan {
    /// The words a reader sees, without styling.
    public var plainText: String {
        map(\.plainText).joined()
    }
}
