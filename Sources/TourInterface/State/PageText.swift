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

    init(_ source: ParsedPageSource) {
        hash = source.hash
        document = source.document
        knobs = source.knobs.map(KnobRow.init)
        drawsLiveView = source.drawsLiveView
    }
}
