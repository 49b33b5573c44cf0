import Foundation
import LessonKit

/// The page's reports in words: after each gesture and at the end.
extension ImageList.Counts {
    /// What happened between `earlier` (the finger touching the list at `rowsThen`) and now (lifted at `rowsNow`),
    /// with `waiting`, the operations a suspended queue held when it resumed, or nil if it was not suspended.
    func gestureSummary(since earlier: Self, from rowsThen: Range<Int>, to rowsNow: Range<Int>, waiting: Int?) -> [String] {
        let entered = rowsEntered - earlier.rowsEntered
        let cancelled = operationsCancelled - earlier.operationsCancelled
        let begun = workBegunWhileScrolling - earlier.workBegunWhileScrolling
        var lines = [
            "Finger lifted at \(describe(rowsNow)) (from \(describe(rowsThen))): \(entered) \(entered == 1 ? "row" : "rows") came into view "
                + "and as many left; \(cancelled) \(cancelled == 1 ? "operation" : "operations") cancelled before \(cancelled == 1 ? "its" : "their") work began.",
            "  \(begun) \(begun == 1 ? "download or filter" : "downloads and filters") queued during the drag began while the finger was down.",
        ]
        if let waiting {
            lines.append(waiting == 0 ? "  The suspended queue was empty when it resumed."
                                      : "  The suspended queue held \(waiting) operations, cancelled ones included, when it resumed.")
        }
        return lines
    }

    /// The totals of the run, for a queue that ran at most `queueWidth` operations at once.
    func finalSummary(queueWidth: Int) -> [String] {
        let downloads = downloadsBegun.values.reduce(0, +)
        let repeated = downloadsBegun.filter { $0.value > 1 }.keys.sorted()
        return [
            "Downloads: \(downloads) for \(downloadsBegun.count) photos"
                + (repeated.isEmpty ? ", none twice." : "; downloaded more than once: \(repeated.joined(separator: ", "))."),
            "Filters run: \(filtersBegun). Operations cancelled before their work began: \(operationsCancelled).",
            "At most \(mostWorkAtOnce) \(mostWorkAtOnce == 1 ? "download or filter" : "downloads and filters") worked at once; "
                + "the queue allows \(queueWidth), and this process may use \(usableCores()) cores.",
        ]
    }
}

/// "rows 4 to 7".
func describe(_ rows: Range<Int>) -> String {
    "rows \(rows.lowerBound) to \(rows.upperBound - 1)"
}
