import Foundation

extension PageLayout {
    /// The layout of `page`'s document at `width`, laid out once and reused from `cache` while neither changes:
    /// every frame and every scroll key needs it, and laying out a long page each time costs milliseconds.
    /// The compiler's messages and the exercises, which change without the text changing, are added to the cached
    /// layout each time.
    static func cached(for page: PageState, width: Int, glyphs: Glyphs, speakerNotes: Bool, in cache: PageLayoutCache) -> PageLayout {
        cache.layout(for: page, width: width, glyphs: glyphs, speakerNotes: speakerNotes)
            .annotated(with: page.diagnosticsOnPage, selected: page.build.selected, glyphs: glyphs)
            .withExercises(page.exercise, glyphs: glyphs)
    }
}

/// The last few page layouts, by page text, width, glyphs, open deep dives and whether speaker notes show; one per
/// model (see `RenderCaches`).
final class PageLayoutCache: @unchecked Sendable {
    private struct Entry {
        var text: PageText
        var layout: PageLayout
        var glyphs: Glyphs
        var openDeepDives: Set<Int>
        var speakerNotes: Bool
        var showsKeys: Bool
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private let capacity = 8

    /// `speakerNotes: false` leaves the `- speaker:` callouts out of the document itself, so the blocks the presenter
    /// reveals are the blocks laid out; `true` (`tour --notes`) draws them as the speaker's boxes.
    /// `showsKeys: false` leaves out the keys a page's text teaches, for the presenter's screen.
    func layout(for page: PageState, width: Int, glyphs: Glyphs, speakerNotes: Bool, showsKeys: Bool = true) -> PageLayout {
        let document = speakerNotes ? page.document : page.document.withoutSpeakerNotes
        // A page not read yet has nothing to lay out, and nothing to cache it under.
        guard let text = page.text else {
            return PageLayout(document: document, width: width, glyphs: glyphs, openDeepDives: page.openDeepDives,
                              showsSpeakerNotes: speakerNotes, showsKeys: showsKeys)
        }
        return lock.withLock {
            if let entry = entries.first(where: { $0.text === text && $0.layout.width == max(10, width) && $0.glyphs == glyphs
                && $0.openDeepDives == page.openDeepDives && $0.speakerNotes == speakerNotes && $0.showsKeys == showsKeys }) {
                return entry.layout
            }
            let layout = PageLayout(document: document, width: width, glyphs: glyphs, openDeepDives: page.openDeepDives,
                                    showsSpeakerNotes: speakerNotes, showsKeys: showsKeys)
            entries.insert(Entry(text: text, layout: layout, glyphs: glyphs, openDeepDives: page.openDeepDives,
                                 speakerNotes: speakerNotes, showsKeys: showsKeys), at: 0)
            if entries.count > capacity { entries.removeLast() }
            return layout
        }
    }
}
