import TourCore

/// When pages are read and parsed: the page on screen before its frame, the others ahead of time, off the loop's
/// queue, so launching costs one page's parse and moving to another page none.
extension TourModel {
    /// The pages not yet read, to read ahead once the first frame is on its way.
    func readAhead() -> [TourEffect] {
        let unread = pages.filter { $0.text == nil && $0.page != currentPage.page }.map(\.page)
        return unread.isEmpty ? [] : [.readSourcesAhead(unread)]
    }

    /// Shows `source` as page `index`'s text, unless it is the text the page has already.
    mutating func adopt(_ source: ParsedPageSource, at index: Int) {
        guard pages[index].text?.hash != source.hash else { return }
        pages[index].text = PageText(source)
    }
}
