import Foundation

/// The files `--trace` and `--svg` name for one run: checked before the run, so a bad target costs no run, and
/// written after it. `tour run` exports the page's run through it, `tour check` the exercise's.
public struct RunExports: Equatable, Sendable {
    /// `--trace FILE.json`: the run as Chrome trace JSON, for ui.perfetto.dev.
    public var traceFile: String?
    /// `--svg FILE.svg`: the run's timeline as an SVG picture.
    public var svgFile: String?

    public init(traceFile: String? = nil, svgFile: String? = nil) {
        self.traceFile = traceFile
        self.svgFile = svgFile
    }

    /// Whether any file is named.
    public var isEmpty: Bool { traceFile == nil && svgFile == nil }

    /// What is wrong with the trace's or the picture's file, if anything (`ExportTarget`).
    public var problem: String? {
        if let file = traceFile, let problem = ChromeTrace.problem(withTarget: file) { return problem }
        if let file = svgFile, let problem = TimelineSVG.problem(withTarget: file) { return problem }
        return nil
    }

    /// Writes `record` to each file named, saying where or why not through `emit`; false when one was not written.
    public func write(_ record: RunRecord, title: String, emit: (String) -> Void) -> Bool {
        if let file = traceFile {
            do {
                try ChromeTrace.write(record, title: title, to: file)
                emit("Trace written to \(file) (\(record.threads.count) threads); open it at https://ui.perfetto.dev")
            } catch {
                emit("The trace was not written: \(error)")
                return false
            }
        }
        if let file = svgFile {
            do {
                try TimelineSVG.write(record, title: title, to: file)
                emit("Timeline drawn in \(file) (\(record.threads.count) lanes); open it in a browser")
            } catch {
                emit("The picture was not written: \(error)")
                return false
            }
        }
        return true
    }
}
