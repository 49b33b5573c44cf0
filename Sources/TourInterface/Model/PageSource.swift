import Foundation
import TourCore

/// A page's `main.swift` (and, for its knobs and live view, the helper files beside it), read and parsed the first time the page is shown: the first frame needs one page,
/// not eight. A class, so every copy of the model shares the one parse.
final class PageSource: @unchecked Sendable {
    let url: URL
    private let lock = NSLock()
    private var cached: Parsed?

    struct Parsed {
        var document: PageDocument
        var knobs: [KnobRow]
        var drawsLiveView: Bool
    }

    /// The hash of the text `cached` was parsed from.
    private var parsedHash: UInt64?

    init(url: URL) {
        self.url = url
    }

    var parsed: Parsed {
        lock.withLock {
            if let cached { return cached }
            // Knobs come from the helper files too: a choice knob's enumeration may be declared in one.
            let texts = Page.sourceTexts(main: url)
            parsedHash = contentHash(Data(texts.main.utf8))
            let parsed = Parsed(document: LiterateParser.parse(texts.main), knobs: texts.declaredKnobs.map(KnobRow.init),
                                drawsLiveView: texts.drawsLiveView)
            cached = parsed
            return parsed
        }
    }

    /// True when the file no longer holds the text that was parsed (never true before the first parse).
    var hasChangedOnDisk: Bool {
        lock.withLock {
            guard let parsedHash else { return false }
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            return contentHash(Data(text.utf8)) != parsedHash
        }
    }
}
