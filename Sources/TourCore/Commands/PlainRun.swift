import Foundation

/// `tour run <page>`: runs one page in its own process and streams it as plain lines.
public enum PlainRun {
    /// Exit statuses of `tour run`, as `tour --help` documents them.
    public enum Status: Int32 {
        case endedAsExpected = 0
        case endedOtherwise = 1
        case usage = 2
        case couldNotStart = 3
        /// The page ran, but the file `--trace` named could not be written.
        case traceNotWritten = 4
    }

    /// Checks the request against the catalog and the page's declared knobs before anything runs.
    public static func validate(_ options: TourCommand.RunOptions, catalog: PageCatalog) throws -> Page {
        guard let page = catalog.page(named: options.page) else {
            throw TourCommand.UsageError(description: "there is no page '\(options.page)'; the pages are \(catalog.choices)")
        }
        if let file = options.traceFile, let problem = ChromeTrace.problem(withTarget: file) {
            throw TourCommand.UsageError(description: problem)
        }
        let declared = page.readSourceTexts().declaredKnobs
        for setting in options.knobs {
            guard let knob = declared.first(where: { $0.name == setting.name }) else {
                let names = declared.map(\.name)
                let choices = names.isEmpty ? "page \(page.number) (\(page.slug)) has no knobs" : "the knobs of \(page.slug) are \(names.joined(separator: ", "))"
                throw TourCommand.UsageError(description: "no knob named '\(setting.name)'; \(choices)")
            }
            if let problem = knob.problem(with: setting.value) {
                throw TourCommand.UsageError(description: problem)
            }
        }
        return page
    }

    /// Runs the page, writing every line through `emit`, and returns the exit status.
    public static func execute(_ options: TourCommand.RunOptions, page: Page, catalog: PageCatalog,
                               style: PlainStyle, emit: @escaping @Sendable (String) -> Void) -> Status {
        let report = PlainReport(style: style)
        let knobs = options.knobs.map { (name: $0.name, value: $0.value) }
        for line in report.header(page: page, of: catalog.pages.count, speed: options.speed, knobs: knobs) { emit(line) }
        let recorder = RunRecorder { event, record in
            if let line = report.liveLine(for: event, in: record) { emit(line) }
        }
        let run = PageRun.start(
            RunRequest(executable: BuildProducts.executable(named: page.product), knobSettings: knobs,
                       speed: options.speed, stuckAfter: options.stuckAfter),
            handler: recorder.apply
        )
        let ending = run.waitUntilEnded()
        let record = recorder.record
        for line in report.summary(of: record, source: page.readSourceTexts().main) { emit(line) }
        if let file = options.traceFile {
            do {
                try ChromeTrace.write(record, title: "\(page.number) \(page.title)", to: file)
                emit("Trace written to \(file) (\(record.threads.count) threads); open it at https://ui.perfetto.dev")
            } catch {
                emit("The trace was not written: \(error)")
                return .traceNotWritten
            }
        }
        if case .failedToStart = ending { return .couldNotStart }
        return record.endedAsExpected ? .endedAsExpected : .endedOtherwise
    }
}
