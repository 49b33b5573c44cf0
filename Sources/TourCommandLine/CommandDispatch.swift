@preconcurrency import Glibc
import ExerciseJudging
import Foundation
import PageProtocol
import Presenting
import RoomLink
import RoomProtocol
import TourCore
import TourTerminal

/// Runs the command `tour` was given: plain mode and the other commands here, the full-screen tutorial, the presenter
/// and the notes through TourTerminal. What a command prints goes to standard output, a mistake to standard error.
public enum CommandDispatch {
    /// Runs `command` and returns its exit status; a command that must end the process itself (one whose pages must
    /// not outlive it) exits instead of returning.
    public static func execute(_ command: TourCommand) -> Int32 {
        switch command {
        case .help:
            print(TourCommand.usage(pageCount: pageCount()))
        case .commandHelp(let name):
            print(TourCommand.usage(of: name, pageCount: pageCount()))
        case .version:
            print("tour \(TourVersion.current) (ConcurrencyTour, trace format v\(TourVersion.traceFormat))")
        case .list:
            let catalog = loadCatalog()
            // The levels, under a part of their own, as they are: the list builds nothing. Problems are said on stderr.
            let levels = LevelCommand.listing(levelPrograms(), pages: catalog.pages, building: nil)
            for problem in levels.problems { complain("tour: \(problem)") }
            let part = levels.lines.isEmpty ? [] : ["", "Be the scheduler (tour play <level> --plain, tour explore <level>)"] + levels.lines
            // One write for the whole list (stdout is line-buffered): a reader on a pipe wakes once, not once a line.
            let lines = (catalog.listing + part).map { $0 + "\n" }
            FileHandle.standardOutput.write(Data(lines.joined().utf8))
        case .levels:
            LiveProcessGroups.stopAllOnExit()
            LiveProcessGroups.exitHost(LevelCommand.levels(levelPrograms(), pages: loadCatalog().pages, output: levelOutput).rawValue)
        case .explore(let options):
            LiveProcessGroups.stopAllOnExit()
            LiveProcessGroups.exitHost(LevelCommand.explore(options, programs: levelPrograms(), output: levelOutput).rawValue)
        case .play(let options):
            LiveProcessGroups.stopAllOnExit(beforeExit: { SharedTerminal.restore() })
            let programs = levelPrograms()
            guard !options.plain, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
                LiveProcessGroups.exitHost(LevelCommand.play(options, programs: programs, input: { readLine() }, output: levelOutput,
                                                             recordWin: { recordProgress(.wonLevel(level: $0, steps: $1)) }).rawValue)
            }
            playFullScreen(options, programs: programs)
        case .run(let options):
            run(options)
        case .watch(let options):
            // From here on no page outlives `tour`.
            LiveProcessGroups.stopAllOnExit(beforeExit: { SharedTerminal.restore() })
            let catalog = loadCatalog()
            let page = checkedPage(options, catalog: catalog)
            WatchCommand.execute(options, page: page, catalog: catalog, style: .detect(forceBare: options.plain)) { line in
                print(line)
            }
        case .reset(let query, let exercise):
            return finish(ResetCommand.execute(query, exercise: exercise, catalog: loadCatalog()))
        case .undoReset(let query, let exercise):
            return finish(ResetCommand.undo(query, exercise: exercise, catalog: loadCatalog()))
        case .progress(let options):
            return finish(ProgressCommand.execute(options, store: Learner.progressStore, catalog: loadCatalog(),
                                                  environment: ProcessInfo.processInfo.environment, style: .detect(forceBare: options.plain)))
        case .resetProgress(let confirmed):
            return finish(ProgressCommand.reset(confirmed: confirmed, store: Learner.progressStore, onTerminal: isatty(STDIN_FILENO) == 1) { question in
                print(question, terminator: "")
                fflush(stdout)
                return readLine()
            })
        case .predict(let query, _):
            return finish(ExerciseCommand.predict(query, catalog: loadCatalog(), store: Learner.progressStore))
        case .hint(let query, _):
            return finish(ExerciseCommand.hint(query, catalog: loadCatalog(), store: Learner.progressStore))
        case .solution(let query, _):
            return finish(ExerciseCommand.solution(query, catalog: loadCatalog(), store: Learner.progressStore))
        case .check(let query, let plain, let exports):
            check(query, plain: plain, exports: exports)
        case .present(let options):
            return present(options)
        case .room(let options):
            RoomCommand.run(options, hosting: rooms, catalog: loadCatalog(), environment: ProcessInfo.processInfo.environment,
                            theme: chosenTheme(nil))
        case .notes(let session, let theme):
            return NotesTerminal.run(session: session, environment: ProcessInfo.processInfo.environment, theme: chosenTheme(theme))
        case .interactive(let options):
            let catalog = loadCatalog()
            var startPage: Int?
            if let query = options.page {
                guard let page = catalog.page(named: query) else { fail("there is no page \(EchoedInput.quoted(query)); the pages are \(catalog.choices)") }
                startPage = catalog.pages.firstIndex(of: page)
            }
            let theme = chosenTheme(options.theme)
            return InteractiveTour.run(catalog: catalog, speed: options.speed, startPage: startPage, seed: options.seed,
                                       speakerNotes: options.speakerNotes, castFile: options.castFile, theme: theme,
                                       room: participantSeat(options))
        }
        return ExitStatus.endedAsExpected.rawValue
    }

    /// Says `message` on standard error as `tour`'s and exits with `status`.
    public static func fail(_ message: String, status: ExitStatus = .usage) -> Never {
        FileHandle.standardError.write(Data("tour: \(message)\n".utf8))
        exit(status.rawValue)
    }

    /// `tour run`: the page starts first, then the catalog is read; the process ends with the page.
    private static func run(_ options: TourCommand.RunOptions) -> Never {
        // From here on no page outlives `tour`, even on Ctrl-C or a request refused once the catalog is read: the page
        // starts first, when its folder name finds it, so its own start-up runs beside the catalog's reading.
        LiveProcessGroups.stopAllOnExit(beforeExit: { SharedTerminal.restore() })
        let early = PlainRun.startEarly(options)
        let catalog = loadCatalog()
        let page = checkedPage(options, catalog: catalog)
        // A recording (`--cast`) is as wide and tall as the terminal the lines are printed to.
        let terminal = TerminalSize.ofStandardOutput().map { (width: $0.width, height: $0.height) } ?? (width: 80, height: 24)
        let status = PlainRun.execute(options, page: page, catalog: catalog, style: .detect(forceBare: options.plain), early: early, graded: { grade in
            if grade.isKnown, let exercises = ExerciseCatalog.exercises(forPage: page.slug) {
                recordProgress(.predicted(page: page.slug, prediction: exercises.prediction.id, right: grade.outcome == .right))
            }
        }, castSize: terminal) { line in
            print(line)
        }
        if status != .couldNotStart { recordProgress(.ran(page: page.slug)) }
        LiveProcessGroups.exitHost(status.rawValue)
    }

    /// `tour check`: a page without an exercise is refused before anything is built; the process ends with the check.
    private static func check(_ query: String, plain: Bool, exports: RunExports) -> Never {
        let catalog = loadCatalog()
        // A page without an exercise is a usage mistake, said on stderr before anything is built.
        do { _ = try ExerciseCommand.exercises(named: query, catalog: catalog) } catch { fail("\(error)") }
        // From here on no program the check starts outlives `tour`, even on Ctrl-C.
        LiveProcessGroups.stopAllOnExit(beforeExit: { SharedTerminal.restore() })
        Task {
            let status = await ExerciseCommand.check(query, catalog: catalog, store: Learner.progressStore, style: .detect(forceBare: plain),
                                                     exports: exports) { line in
                print(line)
            }
            LiveProcessGroups.exitHost(status.rawValue)
        }
        dispatchMain()
    }

    /// `tour present`: the pre-flight (`--check`), the backup slides (`--export`), or the presenter on stage.
    private static func present(_ options: TourCommand.PresentOptions) -> Int32 {
        let catalog = loadCatalog()
        /// The pre-flight of the script at `path`: its report on standard output, a wrong script on standard error. From
        /// here on no page it runs outlives `tour`.
        func preflight(_ path: String, rehearsed: (TalkPlan.Run, RunRecord) -> Void = { _, _ in }) -> ExitStatus {
            LiveProcessGroups.stopAllOnExit(beforeExit: { SharedTerminal.restore() })
            return TalkCheckCommand.execute(path: path, catalog: catalog, seed: options.seed, emit: { line in print(line) },
                                            complain: { line in FileHandle.standardError.write(Data("\(line)\n".utf8)) },
                                            rehearsed: rehearsed)
        }
        if let folder = options.exportFolder, let path = options.script {
            // The pre-flight first: its runs are the rehearsal the slides' timelines come from.
            var runs: [(TalkPlan.Run, RunRecord)] = []
            let status = preflight(path) { runs.append(($0, $1)) }
            guard status == .endedAsExpected else {
                FileHandle.standardError.write(Data("tour: no slides written: the pre-flight did not pass (above)\n".utf8))
                LiveProcessGroups.exitHost(status.rawValue)
            }
            do {
                let script = try TalkScript.parse(try TalkCheckCommand.readScript(path))
                let files = try SlideExport.write(script, catalog: catalog, runs: runs, into: URL(fileURLWithPath: folder),
                                                  theme: chosenTheme(options.theme, script: TalkStep.theme(of: script)))
                print("Slides written to \(folder): \(files.count - 1) pictures, and \(files.last?.lastPathComponent ?? "index.html") to show them in order")
            } catch {
                FileHandle.standardError.write(Data("tour: the slides could not be written: \(error)\n".utf8))
                LiveProcessGroups.exitHost(ExitStatus.traceNotWritten.rawValue)
            }
            LiveProcessGroups.exitHost(ExitStatus.endedAsExpected.rawValue)
        }
        if options.check, let script = options.script {
            LiveProcessGroups.exitHost(preflight(script).rawValue)
        }
        var presenting = Presenting()
        if let path = options.script {
            // The pre-flight's own checks, without the runs: a wrong line is said before the screen changes.
            do {
                let reading = TalkScript.read(try TalkCheckCommand.readScript(path))
                _ = try TalkPlan.check(reading, pages: catalog.pages.map(TalkPage.init(reading:)), catalog: catalog)
                presenting.script = reading.script
            } catch let problems as TalkScriptProblems {
                fail(problems.problems.map { "\(path): \($0)" }.joined(separator: "\n"))
            } catch {
                fail("\(error)")
            }
        }
        for name in options.pages {
            guard let page = catalog.page(named: name), let index = catalog.pages.firstIndex(of: page) else {
                fail("there is no page \(EchoedInput.quoted(name)); the pages are \(catalog.choices)")
            }
            presenting.order.append(index)
        }
        let scriptTheme = presenting.script.flatMap(TalkStep.theme(of:))
        let theme = chosenTheme(options.theme, script: scriptTheme)
        return InteractiveTour.run(catalog: catalog, speed: options.speed, seed: options.seed, castFile: options.castFile,
                                   presenting: presenting, theme: theme, room: leaderSeat(options))
    }

    /// The theme `--theme` chose, else the one `script` chose, else `TOUR_THEME`'s, else dark; a wrong `TOUR_THEME` is said.
    private static func chosenTheme(_ option: ThemeName?, script: ThemeName? = nil) -> ThemeName {
        if let chosen = option ?? script { return chosen }
        do throws(ThemeProblem) {
            return try ThemeName.fromEnvironment(ProcessInfo.processInfo.environment) ?? .dark
        } catch {
            fail(error.description)
        }
    }

    /// The pages, found on disk: only the commands that show or run pages wait for them.
    private static func loadCatalog() -> PageCatalog {
        do {
            return try PageCatalog.load()
        } catch {
            fail("\(error)", status: .couldNotStart)
        }
    }

    /// `tour play <level>` on a terminal: the level and its schedule checked as plain mode checks them, then the board.
    private static func playFullScreen(_ options: TourCommand.PlayOptions, programs: LevelPrograms) -> Never {
        do throws(LevelCommand.Stop) {
            let (level, description) = try LevelCommand.find(options.level, programs: programs, output: levelOutput)
            let schedule = try options.scheduleFile.map { file throws(LevelCommand.Stop) in
                try LevelCommand.checkedSchedule(file, description: description, fixed: options.fixed)
            }
            LevelPlayTerminal.run(level, description: description, fixed: options.fixed, firstSteps: schedule?.threads ?? [],
                                  programs: programs, environment: ProcessInfo.processInfo.environment, theme: chosenTheme(nil),
                                  recordWin: { recordProgress(.wonLevel(level: description.name, steps: $0.steps.count)) }) { state in
                guard let state, state.ended else {
                    print("The game was left before its run ended.")
                    return ExitStatus.endedOtherwise.rawValue
                }
                // A win was recorded when it happened.
                LevelCommand.ending(state, description: description, fixed: options.fixed).forEach { print($0) }
                return (state.failure == nil ? ExitStatus.endedOtherwise : .endedAsExpected).rawValue
            }
        } catch {
            fail(error.message, status: error.status)
        }
    }

    /// The rooms over MQTT: the links `--room` and `present --room` open, and the broker `tour room` starts.
    static let rooms = MQTTRooms()

    /// The levels under the package root, their programs run as this build's.
    private static func levelPrograms() -> LevelPrograms {
        LevelPrograms(catalog: LevelCatalog.load())
    }

    /// A level command's report on standard output, its problems on standard error.
    private static let levelOutput = LevelCommand.Output(emit: { print($0) }, complain: complain)

    /// Says `line` on standard error.
    @Sendable private static func complain(_ line: String) {
        FileHandle.standardError.write(Data("\(line)\n".utf8))
    }

    /// How many pages the catalog has, for the usage's range of page numbers; nil when it cannot be read, and the
    /// usage is printed without it.
    private static func pageCount() -> Int? {
        (try? PageCatalog.load())?.pages.count
    }

    /// The page `options` names, once its knob settings are known to be valid.
    private static func checkedPage(_ options: TourCommand.RunOptions, catalog: PageCatalog) -> Page {
        do {
            return try PlainRun.validate(options, catalog: catalog)
        } catch {
            fail("\(error)")
        }
    }

    /// The learner's progress file, where the environment says it lives: found when first asked for, so `tour run`
    /// starts its page before it spends anything on it.
    private enum Learner {
        static let progressStore = ProgressStore(environment: ProcessInfo.processInfo.environment)
    }

    /// Records what the learner did; a problem with the file is said on stderr and never stops the command.
    private static func recordProgress(_ event: ProgressEvent) {
        do {
            if let setAside = try Learner.progressStore?.record(event).setAside { FileHandle.standardError.write(Data("tour: \(setAside.message)\n".utf8)) }
        } catch {
            FileHandle.standardError.write(Data("tour: progress not recorded: \(error)\n".utf8))
        }
    }

    /// Prints a command's lines and messages and returns its status.
    private static func finish(_ outcome: ProgressCommand.Outcome) -> Int32 {
        for message in outcome.messages { FileHandle.standardError.write(Data("tour: \(message)\n".utf8)) }
        for line in outcome.lines { print(line) }
        return outcome.status.rawValue
    }

    /// Prints a reset's lines, or says them as a usage mistake, and returns its status.
    private static func finish(_ outcome: ResetCommand.Outcome) -> Int32 {
        if outcome.status == .usage { fail(outcome.lines.joined(separator: "\n")) }
        for line in outcome.lines { print(line) }
        return outcome.status.rawValue
    }
}
