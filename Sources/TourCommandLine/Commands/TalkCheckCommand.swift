import Foundation
import PageProtocol
import Presenting
import TourCore

/// `tour present --check SCRIPT`: the speaker's pre-flight. Every page, knob and value the script names must exist and
/// every reveal fit its page; every page the talk visits must compile (each whose program is missing or older than its
/// text is built now, so the runs take its text as it is); then each run step runs its page as the talk will (its
/// knobs, the script's speed and seed) and must end as the page says it will.
public enum TalkCheckCommand {
    /// Reads, parses and checks the script at `path`, then runs its run steps one after another, writing what it
    /// finds through `emit`; returns the exit status. `seed` is the runs' until a `seed` step changes it (`--seed`).
    /// A script that cannot be read, or has wrong lines, is said through `complain` (standard error), every wrong line
    /// in one pass, whether it does not parse or does not fit the pages.
    ///
    /// The pages are built into the build folder `productsDirectory` belongs to, and run from it. `rehearsed` is
    /// handed each run's record with its step, as `tour present --export` draws them.
    public static func execute(path: String, catalog: PageCatalog, seed: UInt64? = nil,
                               productsDirectory: URL = BuildProducts.directory,
                               emit: (String) -> Void, complain: (String) -> Void,
                               rehearsed: (TalkPlan.Run, RunRecord) -> Void = { _, _ in }) -> ExitStatus {
        let script: TalkScript
        let plan: TalkPlan
        do {
            let reading = TalkScript.read(try readScript(path))
            script = reading.script
            plan = try TalkPlan.check(reading, pages: catalog.pages.map(TalkPage.init(reading:)), catalog: catalog, seed: seed)
        } catch let problems as TalkScriptProblems {
            for problem in problems.problems { complain("\(path): \(problem)") }
            return .usage
        } catch {
            complain("tour: \(error)")
            return .usage
        }
        emit("\(path): \(script.steps.count) steps over \(plan.pagesVisited.count) page visits; every page, knob, value and reveal exists.")
        let broken = build(plan.pagesVisited, catalog: catalog, productsDirectory: productsDirectory, emit: emit)
        var failed = 0
        var runSeconds = 0.0
        for (index, run) in plan.runs.enumerated() {
            let settings = run.knobSettings.isEmpty ? "" : " with " + run.knobSettings.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
            let what = "line \(run.line): run \(index + 1) of \(plan.runs.count), page \(run.page.number) (\(run.page.slug))\(settings) at \(SpeedText.factor(run.speed))\(run.seed.map { ", seed \($0)" } ?? "")"
            guard !broken.contains(run.page.folder) else {
                failed += 1
                emit("\(what): not run, as the page does not compile")
                continue
            }
            let (record, seconds) = execute(run, productsDirectory: productsDirectory)
            rehearsed(run, record)
            runSeconds += seconds
            let ending = record.ending?.headline ?? "no ending"
            if record.endedAsExpected {
                emit("\(what): ended as expected (\(ending)) in \(SpeedText.seconds(seconds))")
            } else {
                failed += 1
                emit("\(what): did NOT end as expected: \(ending), after \(SpeedText.seconds(seconds))")
            }
            // What the page printed, so the speaker rehearses against the lines the room will read.
            for line in record.output { emit("    " + TerminalText.sanitized(line.text)) }
        }
        emit("Runs: \(plan.runs.count - failed) of \(plan.runs.count) ended as expected, taking \(SpeedText.seconds(runSeconds)) in all. "
             + "The talk plans \(SpeedText.minutes(plan.pauseSeconds)) of pauses and \(plan.waits) waits for a key.")
        if !broken.isEmpty {
            let count = broken.count
            emit("\(count) page\(count == 1 ? "" : "s") of the talk \(count == 1 ? "does" : "do") not compile (named above): "
                 + "fix \(count == 1 ? "it" : "them"), or put \(count == 1 ? "it" : "them") back with tour reset, before the talk.")
        }
        return failed == 0 && broken.isEmpty ? .endedAsExpected : .endedOtherwise
    }

    /// How many of a broken page's errors the pre-flight shows: the first few point at the trouble; the rest are
    /// often the same mistake again.
    static let errorsShown = 3

    /// Builds each page of `pages` whose program is stale once, in the order the talk first visits them, one after
    /// another; returns the folders of those that did not build, each named through `emit` with its first errors and
    /// their lines.
    private static func build(_ pages: [Page], catalog: PageCatalog, productsDirectory: URL, emit: (String) -> Void) -> Set<String> {
        let builder = PageBuilder(packageRoot: catalog.root, productsDirectory: productsDirectory)
        var built: Set<String> = []
        var broken: Set<String> = []
        // A program newer than every file of its page is that text built already: only the others are built again.
        for page in pages where built.insert(page.folder).inserted && page.programIsStale(in: productsDirectory.path) {
            let result = builder.build(product: page.product, sources: page.listSourceFiles()).waitUntilDone()
            guard result.status != .succeeded else { continue }
            broken.insert(page.folder)
            let name = "page \(page.number) (\(page.slug))"
            let errors = result.diagnostics.errors
            switch result.status {
            case .failed where !errors.isEmpty:
                emit("\(name) does not compile (\(errors.count) error\(errors.count == 1 ? "" : "s")):")
                for line in result.diagnostics.errorLines(relativeTo: catalog.root, indent: "  ", limit: errorsShown) { emit(line) }
                if errors.count > errorsShown { emit("  (and \(errors.count - errorsShown) more)") }
            case .failed:
                emit("\(name) does not build: \(result.diagnostics.unlocatedErrors.first ?? result.output.last ?? "the build named no error")")
            case .timedOut:
                emit("\(name) was not built: its build took longer than \(Int(builder.timeout)) s and was stopped")
            case .couldNotStart(let reason):
                emit("\(name) was not built: the build could not start: \(reason)")
            case .cancelled, .succeeded:
                emit("\(name) was not built: its build was cancelled")
            }
        }
        return broken
    }

    /// The script at `path` as text, or a usage error that names what is wrong with the path and the shipped scripts.
    public static func readScript(_ path: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw TourCommand.UsageError(description: "there is no script file \(EchoedInput.quoted(path)); the shipped ones are \(ShippedTalks.named)")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw TourCommand.UsageError(description: "the script \(EchoedInput.quoted(path)) cannot be read as UTF-8 text")
        }
        return text
    }

    /// Runs one run step's page to its end, blocking, and says how long it took.
    private static func execute(_ run: TalkPlan.Run, productsDirectory: URL) -> (RunRecord, Double) {
        let recorder = RunRecorder()
        let started = ContinuousClock.now
        let page = PageRun.start(RunRequest(executable: productsDirectory.appendingPathComponent(run.page.product).path,
                                            knobSettings: run.knobSettings, speed: run.speed, seed: run.seed),
                                 handler: recorder.apply)
        _ = page.waitUntilEnded()
        let elapsed = ContinuousClock.now - started
        return (recorder.record, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// How the check writes speeds and durations: "2×", "3.4 s", "12 min".
enum SpeedText {
    static func factor(_ speed: Double) -> String {
        (speed == speed.rounded() ? String(Int(speed)) : String(speed)) + "x speed"
    }

    static func seconds(_ seconds: Double) -> String {
        String(format: "%.1f s", seconds)
    }

    static func minutes(_ seconds: Double) -> String {
        seconds < 120 ? String(format: "%.0f s", seconds) : String(format: "%.1f min", seconds / 60)
    }
}
