import Foundation
import TourCore

/// A page's `main.swift` (and, for its knobs, the helper files beside it), read and parsed the first time the page is shown: the first frame needs one page,
/// not eight. A class, so every copy of the model shares the one parse.
final class PageSource: @unchecked Sendable {
    let url: URL
    private let lock = NSLock()
    private var cached: (document: PageDocument, knobs: [KnobRow])?

    init(url: URL) {
        self.url = url
    }

    var parsed: (document: PageDocument, knobs: [KnobRow]) {
        lock.withLock {
            if let cached { return cached }
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            // Knobs come from the helper files too: a choice knob's enumeration may be declared in one.
            let parsed = (LiterateParser.parse(text), Page.declaredKnobs(source: url).map(KnobRow.init))
            cached = parsed
            return parsed
        }
    }
}
