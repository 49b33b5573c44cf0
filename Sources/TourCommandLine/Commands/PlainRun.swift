import ExerciseJudging
import Foundation
import Synchronization
import PageProtocol
import TourCore

/// `tour run <page>`: runs one page in its own process and streams it as plain lines.
public enum PlainRun {
    /// Checks the request against the catalog and the page's declared knobs before anything runs.
    public static func validate(_ options: TourCommand.RunOptions, catalog: PageCatalog) throws -> Page {
        guard let page = catalog.page(named: options.page) else {
            throw TourCommand.UsageError(description: "there is no page \(EchoedInput.quoted(options.page)); the pages are \(catalog.choices)")
        }
        if let problem = targetProblem(options) { throw TourCommand.UsageError(description: problem) }
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

    /// What is wrong with a file `--trace`, `--svg` or `--cast` names, if anything: known before the page is found.
    private static func targetProblem(_ options: TourCommand.RunOptions) -> String? {
        if let problem = options.exports.problem { return problem }
        if let file = options.castFile, let problem = AsciicastRecorder.problem(withTarget: file, option: "--cast") { return problem }
        return nil
    }

    /// A page started before the host read its catalog (`startEarly`), its events held until `execute` prints them.
    public struct EarlyStart: Sendable {
        let run: PageRun
        let product: String
        let events: HeldEvents

        /// Stops the page and waits for it: the run that follows is not this one.
        func discard() {
            run.stop()
            run.waitUntilEnded()
        }
    }

    /// Starts the page `options` names as the first thing `tour run` does, so that the page's own start-up runs
    /// beside the host's reading of the catalog and printing of the header rather than after them: only when it
    /// can be found from the folder names alone and nothing in the request needs the page read first (knobs are
    /// checked against its source, `--predict` against its exercise). Nil when the run must wait for the catalog.
    /// The caller has called `LiveProcessGroups.stopAllOnExit` first: a request refused later ends the page with the host.
    public static func startEarly(_ options: TourCommand.RunOptions, root: URL = PageCatalog.defaultRoot) -> EarlyStart? {
        guard options.knobs.isEmpty, options.predict == nil, targetProblem(options) == nil,
              let program = PageCatalog.program(named: options.page, root: root) else { return nil }
        let executable = BuildProducts.executable(named: program.product)
        // A page to build first waits for the catalog: its build is said in the page's own words.
        guard !ProgramFreshness.isStale(program: executable, sourceFolder: program.sourceFolder) else { return nil }
        let events = HeldEvents()
        let run = PageRun.start(request(options, executable: executable), handler: events.deliver)
        return EarlyStart(run: run, product: program.product, events: events)
    }

    /// The run `options` asks for, of the program at `executable`.
    private static func request(_ options: TourCommand.RunOptions, executable: String) -> RunRequest {
        // On a terminal the page shares it with the host, so a page that reads its standard input gets the learner's keys.
        RunRequest(executable: executable, knobSettings: options.knobs, speed: options.speed, seed: options.seed,
                   stuckAfter: options.stuckAfter, terminal: SharedTerminal.isAvailable ? .shared : .none)
    }

    /// Runs the page, writing every line through `emit` as the style allows it to be printed, and returns the exit status.
    ///
    /// With `--predict`, the answer is graded from this run's record once it has ended, the grade printed and handed
    /// to `graded` (for the progress record). With `--cast`, every line printed is also recorded, with its time, as
    /// an asciicast of a `castSize` terminal (the one `tour` prints to, or 80×24 off one). `early` is the run
    /// `startEarly` started for these options, if any: it is
    /// the page's run when it runs `page`'s program, and is stopped otherwise.
    public static func execute(_ options: TourCommand.RunOptions, page: Page, catalog: PageCatalog,
                               style: PlainStyle, early: EarlyStart? = nil, graded: (PredictionGrade) -> Void = { _ in },
                               castSize: (width: Int, height: Int) = (80, 24),
                               emit printLine: @escaping @Sendable (String) -> Void) -> ExitStatus {
        let early = early.flatMap { early -> EarlyStart? in
            guard early.product != page.product else { return early }
            early.discard()
            return nil
        }
        var cast: AsciicastRecorder?
        if let file = options.castFile {
            do {
                cast = try AsciicastRecorder(path: file, width: castSize.width, height: castSize.height,
                                             title: "ConcurrencyTour, page \(page.number): \(page.title)")
                cast?.mark("run of page \(page.number)")
            } catch {
                printLine("The recording was not started: \(error)")
                early?.discard()
                return .usage
            }
        }
        let emit: @Sendable (String) -> Void = { [cast] line in
            let printable = style.printable(line)
            printLine(printable)
            // The terminal turns each newline into a carriage return and a line feed; a replay must do the same.
            cast?.record(printable + "\r\n")
        }
        var report = PlainReport(style: style, cores: ProcessInfo.processInfo.activeProcessorCount)
        if let width = options.timelineWidth { report.timelineWidth = width }
        for line in report.header(page: page, of: catalog.pages.count, speed: options.speed, knobs: options.knobs, seed: options.seed) {
            emit(line)
        }
        if options.speakerNotes {
            for line in report.speakerNoteLines(page.readSourceTexts().main) { emit(line) }
        }
        let recorder = RunRecorder { [report] event, record in
            if let line = report.liveLine(for: event, in: record) { emit(line) }
        }
        if early == nil, page.programIsStale() {
            guard buildFirst(page, catalog: catalog, emit: emit) else {
                try? cast?.finish()
                return .couldNotStart
            }
        }
        let run: PageRun
        if let early {
            // The header is out: the lines the page has sent meanwhile follow it, in order.
            early.events.release(to: recorder.apply)
            run = early.run
        } else {
            run = PageRun.start(request(options, executable: BuildProducts.executable(named: page.product)), handler: recorder.apply)
        }
        let ending = run.waitUntilEnded()
        let record = recorder.record
        for line in report.summary(of: record, source: page.readSourceTexts().main) { emit(line) }
        if let key = options.predict, let prediction = ExerciseCatalog.exercises(forPage: page.slug)?.prediction,
           let grade = try? prediction.grade(answer: key, from: record) {
            emit("Prediction: \(grade.message)")
            graded(grade)
        }
        guard options.exports.write(record, title: "\(page.number) \(page.title)", emit: emit) else { return .traceNotWritten }
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

extension PlainRun {
    /// Builds `page`'s program, whose program is missing or older than its source (`swift run tour` builds no page),
    /// saying so first; on failure, says why in the compiler's words, each message on its line. True when it built.
    static func buildFirst(_ page: Page, catalog: PageCatalog, emit: @escaping @Sendable (String) -> Void) -> Bool {
        buildFirst(product: page.product, sources: page.listSourceFiles(), named: "page \(page.number)", root: catalog.root,
                   remedy: "fix it, or put the original back with tour reset \(page.number).", emit: emit)
    }

    /// Builds the program `product` of the files `sources` (a page's, a level's), named in the messages as `name`
    /// ("page 3"), as `buildFirst(_:catalog:emit:)` says; `remedy` ends the message of a program that does not compile.
    static func buildFirst(product: String, sources: [URL], named name: String, root: URL, remedy: String,
                           emit: @escaping @Sendable (String) -> Void) -> Bool {
        let named = name.prefix(1).uppercased() + name.dropFirst()
        emit("Building \(name) first: its program is missing or older than its source…")
        let outcome = PageBuilder(packageRoot: root).build(product: product, sources: sources).waitUntilDone()
        switch outcome.status {
        case .succeeded:
            emit(String(format: "(built in %.2f s)", outcome.seconds))
            return true
        case .failed:
            for line in BuildReport.failureLines(outcome) { emit(line) }
            let count = outcome.diagnostics.errors.count
            emit("\(named) does not compile (\(count) error\(count == 1 ? "" : "s")), so it did not run: \(remedy)")
        case .timedOut:
            emit("The build of \(name) took longer than \(Int(outcome.seconds.rounded())) s and was stopped. Its last lines:")
            for line in outcome.output.suffix(10) { emit("  \(line)") }
        case .couldNotStart(let reason):
            emit("Could not start the build of \(name): \(reason)")
        case .cancelled:
            emit("The build of \(name) was stopped.")
        }
        return false
    }
}

/// A run's events from its start until whoever reads them is ready: held in order, handed over all at once, and
/// passed straight on after that.
final class HeldEvents: Sendable {
    private struct State {
        var held: [HostEvent] = []
        var handler: (@Sendable (HostEvent) -> Void)?
    }

    private let state = Mutex(State())

    /// Holds `event`, or hands it on once released. The run delivers one event at a time, in order.
    func deliver(_ event: HostEvent) {
        state.withLock { state in
            if let handler = state.handler { handler(event) } else { state.held.append(event) }
        }
    }

    /// Hands the events held so far to `handler`, in order, and every later one as it comes.
    func release(to handler: @escaping @Sendable (HostEvent) -> Void) {
        state.withLock { state in
            state.held.forEach(handler)
            state.held = []
            state.handler = handler
        }
    }
}
