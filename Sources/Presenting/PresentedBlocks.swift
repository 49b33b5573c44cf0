import TourCore

/// One block of a page as a presenter reveals it, with the `- speaker:` notes written after it.
public struct PresentedBlock: Sendable, Equatable {
    public var block: PageBlock
    /// The speaker's notes between this block and the next one shown, in order; never on the room's screen.
    public var notes: [String]

    public init(block: PageBlock, notes: [String] = []) {
        self.block = block
        self.notes = notes
    }

    /// The block's words without styling, as `tour notes` shows the current and the next block.
    public var plainText: String { Self.plainText(of: block) }

    private static func plainText(of block: PageBlock) -> String {
        switch block {
        case .heading(_, let text, _), .paragraph(let text, _): text.plainText
        case .listItem(_, _, _, let text, _): "- " + text.plainText
        case .callout(let kind, let body, _): kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst() + ": " + body.plainText
        case .deepDive(let body, _): "Deep dive: " + body.map(plainText(of:)).joined(separator: " ")
        case .rule: "---"
        case .code(let lines): lines.map(\.text).joined(separator: "\n")
        }
    }
}

extension PageDocument {
    /// The blocks a presenter reveals one at a time: every block but the speaker's notes, each carrying the notes
    /// that follow it (notes before the first block go with the first).
    public var presentedBlocks: [PresentedBlock] {
        var shown: [PresentedBlock] = []
        var leadingNotes: [String] = []
        for block in blocks {
            if case .callout(.speaker, let body, _) = block {
                if shown.isEmpty { leadingNotes.append(body.plainText) } else { shown[shown.count - 1].notes.append(body.plainText) }
                continue
            }
            shown.append(PresentedBlock(block: block, notes: shown.isEmpty ? leadingNotes : []))
            if shown.count == 1 { leadingNotes = [] }
        }
        return shown
    }
}

extension PageDocument {
    /// The document without its `- speaker:` callouts: what the room sees. Its blocks are `presentedBlocks`' blocks.
    public var withoutSpeakerNotes: PageDocument {
        PageDocument(blocks: blocks.filter { block in
            if case .callout(.speaker, _, _) = block { return false }
            return true
        })
    }
}
