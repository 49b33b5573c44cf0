import Foundation
import TourCore

/// A page's `main.swift` and helper files as last read from disk, parsed: the document, the knobs they declare
/// (a choice knob's enumeration may live in a helper), and whether the page draws in the live view.
///
/// Built by the update from what a `.readSource` effect read and parsed, never by reading or parsing here. A class, so every copy
/// of the model shares the one parse and layouts cached for it are found by identity.
final class PageText: Sendable {
    let document: PageDocument
    let knobs: [KnobRow]
    let drawsLiveView: Bool
    /// The hash of every file's text, to tell a read of the same text from a change.
    let hash: UInt64

    /// `hash`: `hash(of: source.texts)`, computed by the caller that compared it first.
    init(_ source: ParsedPageSource, hash: UInt64) {
        self.hash = hash
        document = source.document
        knobs = source.knobs.map(KnobRow.init)
        drawsLiveView = source.texts.drawsLiveView
    }

    static func hash(of texts: Page.SourceTexts) -> UInt64 {
        // A NUL between files: no Swift source holds one, so two splits of the same bytes hash apart.
        contentHash(Data(([texts.main] + texts.helpers).joined(separator: "\0").utf8))
    }
}
