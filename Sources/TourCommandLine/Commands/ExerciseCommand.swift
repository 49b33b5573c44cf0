import ExerciseJudging
import Foundation
import PageProtocol
import TourCore

/// `tour check`, `tour hint`, `tour solution` and `tour predict`: a page's exercises from the command line, with the
/// progress store and the catalog passed in, so tests run them against a scratch package and a temporary store.
public enum ExerciseCommand {
    /// Lines for stdout, messages for stderr, and the exit status.
    public typealias Outcome = ProgressCommand.Outcome

    /// The page `query` names and its exercises, or a usage mistake that says what would be right.
    public static func exercises(named query: String, catalog: PageCatalog) throws(TourCommand.UsageError) -> (page: Page, exercises: PageExercises) {
        guard let page = catalog.page(named: query) else {
            throw TourCommand.UsageError(description: "there is no page \(EchoedInput.quoted(query)); the pages are \(catalog.choices)")
        }
        guard let exercises = ExerciseCatalog.exercises(forPage: page.slug) else {
            let others = catalog.pages.filter { ExerciseCatalog.exercises(forPage: $0.slug) != nil }
                .map { "\($0.number) (\($0.slug))" }.joined(separator: ", ")
            throw TourCommand.UsageError(description: "page \(page.number) (\(page.slug)) has no exercise yet; the pages with exercises are \(others)")
        }
        return (page, exercises)
    }

    /// `tour predict <page>`: the question, its choices, and how to answer.
    public static func predict(_ query: String, catalog: PageCatalog, store: ProgressStore?) -> Outcome {
        var outcome = Outcome()
        let found: (page: Page, exercises: PageExercises)
        do { found = try exercises(named: query, catalog: catalog) } catch { return usage(error) }
        let prediction = found.exercises.prediction
        outcome.lines = ["Page \(found.page.number) (\(found.page.slug)), before you run it:"] + prediction.questionLines
        if let answer = read(store, into: &outcome)?.answer(to: found.exercises) {
            outcome.lines.append("(You answered this before, \(answer.right ? "right" : "wrong"); a new answer replaces it.)")
        }
        let example = prediction.choices.first?.key ?? "a"
        outcome.lines.append("Answer by running the page with it: tour run \(found.page.slug) --plain --predict \(example)")
        return outcome
    }

    /// `tour hint <page>`: the next hint each time ("hint 2 of 3"), remembered in progress; after the last, the last.
    public static func hint(_ query: String, catalog: PageCatalog, store: ProgressStore?) -> Outcome {
        var outcome = Outcome()
        let found: (page: Page, exercises: PageExercises)
        do { found = try exercises(named: query, catalog: catalog) } catch { return usage(error) }
        let challenge = found.exercises.challenge
        do {
            try found.exercises.keepOriginalExercise(of: found.page, packageRoot: catalog.root)
        } catch {
            outcome.messages.append("\(error); tour reset will not be able to put \(challenge.file) back")
        }
        let shown = read(store, into: &outcome)?.attempts(on: found.exercises).hintsShown ?? 0
        let hint = challenge.hint(after: shown)
        outcome.lines = ["\(challenge.title): hint \(hint.number) of \(challenge.hints.count)", hint.text]
        let record = record(.hintShown(page: found.page.slug, exercise: challenge.id, number: hint.number), in: store, into: &outcome)
        if let record, record.solutionIsOpen(for: found.exercises) {
            outcome.lines.append("The reference solution is open: tour solution \(found.page.slug)")
        } else if hint.number < challenge.hints.count {
            outcome.lines.append("Again for the next one: tour hint \(found.page.slug)")
        }
        return outcome
    }

    /// `tour solution <page>`: the reference solution, once the check has passed or two hints were shown; else how to
    /// open it. It is printed, never written over the learner's file.
    public static func solution(_ query: String, catalog: PageCatalog, store: ProgressStore?) -> Outcome {
        var outcome = Outcome()
        let found: (page: Page, exercises: PageExercises)
        do { found = try exercises(named: query, catalog: catalog) } catch { return usage(error) }
        let challenge = found.exercises.challenge
        let record = read(store, into: &outcome) ?? ProgressRecord()
        guard record.solutionIsOpen(for: found.exercises) else {
            let shown = record.attempts(on: found.exercises).hintsShown
            let more = ProgressRecord.hintsBeforeSolution - shown
            outcome.lines = ["The solution of \"\(challenge.title)\" opens once tour check \(found.page.slug) passes, or after "
                             + "\(ProgressRecord.hintsBeforeSolution) hints (you have seen \(shown); tour hint \(found.page.slug) "
                             + "\(more == 1 ? "once more" : "\(more) more times"))."]
            outcome.status = .endedOtherwise
            return outcome
        }
        let file = catalog.root.appendingPathComponent(challenge.solutionFile)
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            outcome.messages.append("cannot read the reference solution \(file.path)")
            outcome.status = .couldNotStart
            return outcome
        }
        outcome.lines = ["Reference solution of \"\(challenge.title)\" (\(challenge.solutionFile); your \(challenge.file) is unchanged):", ""]
            + text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        _ = Self.record(.solutionOpened(page: found.page.slug, exercise: challenge.id), in: store, into: &outcome)
        return outcome
    }

    /// `tour check <page>`: builds and runs the learner's file, prints each finding with its mark, records the
    /// check, writes its run to the files `exports` names, and says what to do next. 0 when it passed, 1 when it did
    /// not (a program that does not compile included), 2 for a page with no exercise or a file that cannot be written
    /// (said before the build), 4 when the run's trace or picture could not be written after all.
    public static func check(_ query: String, catalog: PageCatalog, store: ProgressStore?, style: PlainStyle,
                             exports: RunExports = RunExports(), productsDirectory: URL = BuildProducts.directory,
                             emit: @escaping @Sendable (String) -> Void) async -> ExitStatus {
        let found: (page: Page, exercises: PageExercises)
        do { found = try exercises(named: query, catalog: catalog) } catch {
            emit("tour: \(error)")
            return .usage
        }
        if let problem = exports.problem {
            emit("tour: \(problem)")
            return .usage
        }
        return await checkOnce(found.exercises, page: found.page, catalog: catalog, store: store, style: style,
                               exports: exports, productsDirectory: productsDirectory, emit: emit)
    }

    /// One check of `exercises`' challenge, its lines through `emit`, recorded in `store`, its run written to the
    /// files `exports` names: `.endedAsExpected` when it passed, `.endedOtherwise` when not, `.traceNotWritten` when
    /// a file could not be written. `tour check` and each save in `tour watch` run this.
    @discardableResult
    public static func checkOnce(_ exercises: PageExercises, page: Page, catalog: PageCatalog, store: ProgressStore?,
                                 style: PlainStyle, exports: RunExports = RunExports(),
                                 productsDirectory: URL = BuildProducts.directory,
                                 emit: @escaping @Sendable (String) -> Void) async -> ExitStatus {
        let printable: @Sendable (String) -> Void = { emit(style.printable($0)) }
        let challenge = exercises.challenge
        do {
            try exercises.keepOriginalExercise(of: page, packageRoot: catalog.root)
        } catch {
            printable("Warning: \(error); tour reset will not be able to put \(challenge.file) back")
        }
        printable("Checking \(challenge.file): \(challenge.title)")
        let check = ExerciseCheck(packageRoot: catalog.root, productsDirectory: productsDirectory)
        let outcome = await check.run(challenge, progress: { stage in printable(progressLine(stage)) })
        if Task.isCancelled { return .endedOtherwise }
        var messages: [String] = []
        let record = recordCheck(exercises, outcome.verdict, store: store, messages: &messages)
        // Empty when the build did not fail on a line (a linker error, a timeout): the verdict's finding says why.
        let compileErrors = outcome.build.status == .failed ? outcome.build.diagnostics.errorLines(relativeTo: catalog.root) : []
        for line in report(outcome.verdict, exercises: exercises, page: page, record: record, style: style,
                           compileErrors: compileErrors) { emit(line) }
        for message in messages { printable("tour: \(message)") }
        if !exports.isEmpty {
            guard let run = outcome.record else {
                printable("Nothing was exported: \(challenge.file) was not built, so it did not run.")
                return .endedOtherwise
            }
            guard exports.write(run, title: "\(page.number) \(challenge.title) (your exercise)", emit: printable) else {
                return .traceNotWritten
            }
        }
        return outcome.verdict.passed ? .endedAsExpected : .endedOtherwise
    }

    /// The line a check prints as it reaches `stage`.
    public static func progressLine(_ stage: ExerciseCheck.Stage) -> String {
        switch stage {
        case .building(_, let sanitized): sanitized ? "Building \(ExerciseCheck.threadSanitizerBuildNote)..." : "Building..."
        case .running: "Running..."
        }
    }

    /// The lines of a verdict: each finding with its mark, a headline, and the next step (a hint, or the solution).
    /// `compileErrors` (`BuildDiagnostics.errorLines`), when the program did not compile, stand instead of the findings.
    public static func report(_ verdict: CheckVerdict, exercises: PageExercises, page: Page, record: ProgressRecord?,
                              style: PlainStyle, compileErrors: [String] = []) -> [String] {
        let pass = style.unicode ? "✔" : "ok"
        let fail = style.unicode ? "✘" : "XX"
        var lines = compileErrors.isEmpty ? verdict.findings.map { finding in
            let mark = finding.holds ? style.green(pass) : style.red(fail)
            return "  \(mark) \(finding.text)"
        } : compileErrors
        let slug = page.slug
        let challenge = exercises.challenge
        if verdict.passed {
            lines.append(style.bold("Passed: \(challenge.title)."))
            lines.append("The reference solution is now open: tour solution \(slug) (it never replaces your file).")
        } else {
            let count = verdict.failures.count
            lines.append(style.bold(compileErrors.isEmpty ? "Not yet: \(count) thing\(count == 1 ? "" : "s") still wrong."
                                    : "Not yet: \(challenge.file) does not compile; the lines above say where."))
            let shown = record?.attempts(on: exercises).hintsShown ?? 0
            if shown < challenge.hints.count {
                lines.append("Next: tour hint \(slug) (hint \(shown + 1) of \(challenge.hints.count)); then tour check \(slug) again.")
            } else {
                lines.append("Next: tour solution \(slug) shows the reference solution; then tour check \(slug) again.")
            }
        }
        return lines.map { style.printable($0) }
    }

    /// `tour run <page> --predict KEY`: refuses a key that is not one of the page's answers, before the run.
    public static func validatePrediction(_ key: String, page: Page) throws(TourCommand.UsageError) -> Prediction {
        guard let exercises = ExerciseCatalog.exercises(forPage: page.slug) else {
            throw TourCommand.UsageError(description: "page \(page.number) (\(page.slug)) has no prediction yet; run it without --predict")
        }
        do {
            _ = try exercises.prediction.choice(forKey: key)
        } catch {
            throw TourCommand.UsageError(description: error.description)
        }
        return exercises.prediction
    }

    /// Records a check; returns the record as written, for the next step's advice.
    static func recordCheck(_ exercises: PageExercises, _ verdict: CheckVerdict, store: ProgressStore?, messages: inout [String]) -> ProgressRecord? {
        var outcome = Outcome()
        let checked = ProgressEvent.checked(page: exercises.page, exercise: exercises.challenge.id, passed: verdict.passed,
                                            firstFailure: verdict.failures.first?.text)
        let record = record(checked, in: store, into: &outcome)
        messages += outcome.messages
        return record
    }

    /// Records `event`; a problem is a message, never the end of the command. Returns the record as written.
    static func record(_ event: ProgressEvent, in store: ProgressStore?, into outcome: inout Outcome) -> ProgressRecord? {
        guard let store else {
            outcome.messages.append("progress not recorded: \(ProgressCommand.noLocation)")
            return nil
        }
        do {
            let reading = try store.record(event)
            if let setAside = reading.setAside { outcome.messages.append(setAside.message) }
            return reading.record
        } catch {
            outcome.messages.append("progress not recorded: \(error)")
            return nil
        }
    }

    /// The record, or nil with a message when there is none to read.
    static func read(_ store: ProgressStore?, into outcome: inout Outcome) -> ProgressRecord? {
        guard let store else { return nil }
        do {
            let reading = try store.read()
            if let setAside = reading.setAside { outcome.messages.append(setAside.message) }
            return reading.record
        } catch {
            outcome.messages.append("\(error)")
            return nil
        }
    }

    static func usage(_ error: TourCommand.UsageError) -> Outcome {
        var outcome = Outcome()
        outcome.messages = [error.description]
        outcome.status = .usage
        return outcome
    }
}
