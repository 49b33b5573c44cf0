import TourCore

extension TourModel {
    /// `o`: opens or closes the deep dive at the top of the page pane, or else the next one below it, bringing it into view.
    mutating func toggleDeepDiveInView() {
        guard let target = deepDiveInView() else { return }
        setDeepDives([target], open: !currentPage.openDeepDives.contains(target), bringIntoView: target)
    }

    /// `O`: opens every deep dive of the page, or closes them all when all are open.
    mutating func toggleAllDeepDives() {
        let lines = Set(currentPage.document.deepDives.map(\.line))
        guard !lines.isEmpty else {
            notice = "This page has no deep dives."
            return
        }
        let open = !lines.isSubset(of: currentPage.openDeepDives)
        setDeepDives(lines, open: open, bringIntoView: nil)
        notice = open ? "\(lines.count) deep dive\(lines.count == 1 ? "" : "s") open; O folds them again." : "Deep dives folded."
    }

    /// A click on a folded deep dive, or on the top border of an open one, opens or closes it.
    mutating func toggleDeepDive(atLine line: Int) {
        setDeepDives([line], open: !currentPage.openDeepDives.contains(line), bringIntoView: line)
    }

    /// The deep dive `o` acts on: the one the top row of the page pane belongs to, else the first one below;
    /// nil, with a notice saying why, when there is none.
    private mutating func deepDiveInView() -> Int? {
        guard layout.panes[.page] != nil else {
            notice = "The page is not on screen: Esc shows it, then o opens its deep dives."
            return nil
        }
        let rows = pageLayout().rows
        if let line = rows.dropFirst(currentPage.pageScroll).lazy.compactMap(\.deepDive).first { return line }
        notice = currentPage.document.deepDives.isEmpty ? "This page has no deep dives." : "No deep dive below this point; g goes to the top."
        return nil
    }

    /// Opens or closes the deep dives at `lines` and keeps the page where the learner reads it: the rows at the top
    /// of the pane stay there, or a deep dive that closes around them leaves its folded row at the top. `bringIntoView`
    /// scrolls to that deep dive if it is below the pane, and shows as much of it as fits once opened.
    private mutating func setDeepDives(_ lines: Set<Int>, open: Bool, bringIntoView target: Int?) {
        let anchor = PageAnchor(row: currentPage.pageScroll, in: pageLayout().rows)
        if open {
            currentPage.openDeepDives.formUnion(lines)
        } else {
            currentPage.openDeepDives.subtract(lines)
        }
        let rows = pageLayout().rows
        var scroll = anchor.row(in: rows)
        let visible = max(1, box(of: .page).inside.height)
        if let target, let first = rows.firstIndex(where: { $0.deepDive == target }),
           let last = rows.lastIndex(where: { $0.deepDive == target }) {
            if first >= scroll + visible {
                scroll = first
            } else if first >= scroll, last >= scroll + visible {
                scroll = min(first, last - visible + 1)
            }
        }
        currentPage.pageScroll = scroll
        self.scroll(.page, .lines(0))
    }
}

/// The top of the page pane in terms that survive opening and closing deep dives: inside one, that deep dive and
/// the row within it; elsewhere, how many rows outside deep dives come before it, since those rows never change.
enum PageAnchor: Equatable {
    case inDeepDive(line: Int, offset: Int)
    case outside(rowsBefore: Int)

    init(row: Int, in rows: [PageRow]) {
        if rows.indices.contains(row), let line = rows[row].deepDive {
            let first = rows.firstIndex { $0.deepDive == line } ?? row
            self = .inDeepDive(line: line, offset: row - first)
        } else {
            self = .outside(rowsBefore: rows.prefix(row).filter { $0.deepDive == nil }.count)
        }
    }

    /// The row of `rows` this anchor names; a deep dive that closed gives its folded row.
    func row(in rows: [PageRow]) -> Int {
        switch self {
        case .inDeepDive(let line, let offset):
            guard let first = rows.firstIndex(where: { $0.deepDive == line }) else { return 0 }
            let count = rows[first...].prefix { $0.deepDive == line }.count
            return first + min(offset, count - 1)
        case .outside(let rowsBefore):
            var seen = 0
            for (index, row) in rows.enumerated() where row.deepDive == nil {
                if seen == rowsBefore { return index }
                seen += 1
            }
            return rows.count
        }
    }
}
