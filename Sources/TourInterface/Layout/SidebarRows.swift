import TourCore

/// One row of the sidebar's list of pages: the title of a part, above its first page, or a page by its index.
enum SidebarRow: Equatable {
    case part(String)
    case page(Int)

    /// The rows for `pages`, in order: each page, with its part's title before the first page of each part. Drawing,
    /// the box's height and the mouse all read them, so a click lands on the page drawn under it.
    static func rows(for pages: [Page]) -> [SidebarRow] {
        var rows: [SidebarRow] = []
        for (index, page) in pages.enumerated() {
            if let part = page.part, index == 0 || pages[index - 1].part != part {
                rows.append(.part(part.title))
            }
            rows.append(.page(index))
        }
        return rows
    }
}

extension SidebarRow {
    /// The indices of the pages that open a part after the first: where the compact strip divides the parts.
    static func partStarts(for pages: [Page]) -> Set<Int> {
        let rows = rows(for: pages)
        return Set(rows.indices.dropFirst().compactMap { row -> Int? in
            guard case .part = rows[row - 1], case .page(let index) = rows[row], index > 0 else { return nil }
            return index
        })
    }
}
