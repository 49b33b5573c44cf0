import Foundation
import PageProtocol

/// `tour run <page>`: runs one page in its own process and streams it as plain lines.
public enum PlainRun {
    /// Exit statuses of `tour run`, as `tour --help` documents them.
    public enum Status: Int32 {
        case endedAsExpected = 0
        case endedOtherwise = 1
        case usage = 2
        case couldNotStart = 3
        /// The page ran, but the file `--trace`, `--svg` or `--cast` named could not be written.
        case traceNotWritten = 4
    }

    /// Checks the request against the catalog and the page's declared knobs before anything runs.
    public static func validate(_ options: TourCommand.RunOptions, catalog: PageCatalog) throws -> Page {
        guard let page = catalog.page(named: options.page) else {
            throw TourCommand.UsageError(description: "there is no page \(EchoedInput.quoted(options.page)); the pages are \(catalog.choices)")
        }
        if let file = options.traceFile, let problem = ChromeTrace.problem(withTarget: file) {
            throw TourCommand.UsageError(description: problem)
        }
        if let file = options.castFile, let problem = AsciicastRecorder.problem(withTarget: file, option: "--cast") {
            throw TourCommand.UsageError(description: problem)
        }
        if let file = options.svgFile, let problem = TimelineSVG.problem(withTarget: file) {
            throw TourCommand.UsageError(description: problem)
        }
        if let key = options.predict { _ = try ExerciseCommand.validatePrediction(key, page: page) }
        // Reading the knobs parses the whole page and its helpers: only a run that sets one waits for that.
        guard !options.knobs.isEmpty else { return page }
        let declared = page.readSourceTexts().declaredKnobs
        for setting in options.knobs {
            do throws(LaunchProblem) {
                guard let knob = declared.first(where: { $0.name == setting.name }) else {
                    throw KnobSpec.unknownKnob(setting.name, among: declared.map(\.name), of: "page \(page.number) (\(page.slug))")
                }
                _ = try knob.spec.value(from: setting.value)
            } catch {
                throw TourCommand.UsageError(description: error.description)
            }
        }
        return page
    }

    /// Runs the page, writing every line through `emit` as the style allows it to be printed, and returns the exit status.
    ///
    /// With `--predict`, the answer is graded from this run's record once it has ended, the grade printed and handed
    /// to `graded` (for the progress record). With `--cast`, every line printed is also recorded, with its time, as
    /// an asciicast of a `castSize` terminal.
    public static func execute(_ options: TourCommand.RunOptions, page: Page, catalog: PageCatalog,
                               style: PlainStyle, graded: (PredictionGrade) -> Void = { _ in },
                               castSize: (width: Int, height: Int) = (80, 24),
                               emit printLine: @escaping @Sendable (String) -> Void) -> Status {
        var cast: AsciicastRecorder?
        if let file = options.castFile {
            do {
                cast = try AsciicastRecorder(path: file, width: castSize.width, height: castSize.height)
            } catch {
                printLine("The recording was not started: \(error)")
                return .usage
            }
        }
        let emit: @Sendable (String) -> Void = { [cast] line in
            let printable = style.printable(line)
            printLine(printable)
            // The terminal turns each newline into a carriage return and a line feed; a replay must do the same.
            cast?.record(printable + "\r\n")
        }
        let report = PlainReport(style: style, cores: ProcessInfo.processInfo.activeProcessorCount)
        for line in report.header(page: page, of: catalog.pages.count, speed: options.speed, knobs: options.knobs, seed: options.seed) {
            emit(line)
        }
        if options.speakerNotes {
            for line in report.speakerNoteLines(page.readSourceTexts().main) { emit(line) }
        }
        let recorder = RunRecorder { event, record in
            if let line = report.liveLine(for: event, in: record) { emit(line) }
        }
        // On a terminal the page shares it with the host, so a page that reads its standard input gets the learner's keys.
        let terminal: TerminalAccess = SharedTerminal.isAvailable ? .shared : .none
        let run = PageRun.start(
            RunRequest(executable: BuildProducts.executable(named: page.product), knobSettings: options.knobs,
                       speed: options.speed, seed: options.seed, stuckAfter: options.stuckAfter, terminal: terminal),
            handler: recorder.apply
        )
        let ending = run.waitUntilEnded()
        let record = recorder.record
        for line in report.summary(of: record, source: page.readSourceTexts().main) { emit(line) }
        if let key = options.predict, let prediction = ExerciseCatalog.exercises(forPage: page.slug)?.prediction,
           let grade = try? prediction.grade(answer: key, from: record) {
            emit("Prediction: \(grade.message)")
            graded(grade)
        }
        if let file = options.traceFile {
            do {
                try ChromeTrace.write(record, title: "\(page.number) \(page.title)", to: file)
                emit("Trace written to \(file) (\(record.threads.count) threads); open it at https://ui.perfetto.dev")
            } catch {
                emit("The trace was not written: \(error)")
                return .traceNotWritten
            }
        }
        if let file = options.svgFile {
            do {
                try TimelineSVG.write(record, title: "\(page.number) \(page.title)", to: file)
                emit("Timeline drawn in \(file) (\(record.threads.count) lanes); open it in a browser")
            } catch {
                emit("The picture was not written: \(error)")
                return .traceNotWritten
            }
        }
        if let cast {
            do {
                try cast.finish()
                // Said on the terminal only: the recording ends with the page's last line.
                printLine(style.printable("Recording written to \(cast.path); replay it with asciinema play \(cast.path)"))
            } catch {
                printLine(style.printable("The recording was not written: \(error)"))
                return .traceNotWritten
            }
        }
        if case .failedToStart = ending { return .couldNotStart }
        return record.endedAsExpected ? .endedAsExpected : .endedOtherwise
    }
}
