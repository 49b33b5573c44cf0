@preconcurrency import Glibc
import Foundation
import Presenting
import TourCore
import TourInterface

/// The full-screen tutorial. Entry point used by `tour` when it is started without a command.
public enum InteractiveTour {
    /// Runs the interface until the learner quits, which exits the process; returns only when the interface
    /// cannot start, with status 2 after saying why and what to use instead.
    /// It opens on the page at `startPage` when given, else on the page the learner's progress says they left.
    /// `seed` fixes every run's random delays (`--seed`), `speakerNotes` shows the `- speaker:` callouts (`--notes`),
    /// and `castFile` records the screen as an asciicast (`--record`). With `presenting`, it opens on stage instead
    /// (`tour present`): the presenter on those pages, or playing that script. With `room`, it sits in a room: a
    /// participant's (`tour --room`) or the presenter's (`tour present --room`).
    public static func run(catalog: PageCatalog, speed: Double, startPage: Int? = nil, seed: UInt64? = nil,
                           speakerNotes: Bool = false, castFile: String? = nil, presenting: Presenting? = nil,
                           theme: ThemeName = .dark, room: RoomSeat? = nil) -> Int32 {
        setlocale(LC_ALL, "")
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            return refuse("the full-screen tutorial needs a terminal, and stdin or stdout is not one")
        }
        guard !catalog.pages.isEmpty else {
            return refuse("there are no pages under \(catalog.root.path)/Lessons")
        }
        if let castFile, let problem = AsciicastRecorder.problem(withTarget: castFile, option: "--record") {
            return refuse(problem)
        }
        let environment = ProcessInfo.processInfo.environment
        // Until `stopAllOnExit` below makes Ctrl-\ end the tutorial, it does nothing: left to the Swift runtime, its
        // backtracer would print over the first frame.
        signal(SIGQUIT, SIG_IGN)
        let screen: CursesScreen
        do {
            screen = try CursesScreen(environment: environment, themeName: theme)
        } catch {
            return refuse("\(error)")
        }
        TerminalRestore.installCrashHandlers()
        var recording: ScreenRecording?
        if let castFile {
            do {
                let title = presenting == nil ? "ConcurrencyTour" : "ConcurrencyTour on stage"
                recording = try ScreenRecording(path: castFile, size: screen.size, theme: screen.theme, title: title)
            } catch {
                screen.close()
                return refuse(error.description)
            }
        }
        // The page left last time is shown first; a progress file that cannot be read is said in the status line.
        let progress = ProgressStore(environment: environment)
        var reading = ProgressStore.Reading(record: ProgressRecord())
        var progressProblem: String?
        do {
            if let progress { reading = try progress.read() }
            progressProblem = reading.setAside?.briefMessage
        } catch {
            progressProblem = "Progress not read: \(error)"
        }
        var model = TourModel.load(catalog, speed: speed, size: screen.size, glyphs: screen.glyphs, pictureDepth: screen.pictureDepth,
                                   progress: reading.record, timeZone: .current)
        model.cores = ProcessInfo.processInfo.activeProcessorCount
        // TOUR_BUILD_NOTICE=off keeps a scripted launch (a test, a recorded demo) from using up the learner's notice.
        if environment["TOUR_BUILD_NOTICE"] != "off" { model.notice = FirstLaunch.buildNotice(packageRoot: catalog.root) }
        if let progressProblem { model.notice = progressProblem }
        if let startPage { model.current = startPage }
        model.seed = seed
        // Read from the levels' sources: nothing is built or run before the first frame.
        model.showLevels(LevelCatalog.load(root: catalog.root).levelsOnPages)
        model.showsSpeakerNotes = speakerNotes
        if let presenting {
            // On stage the room sees no notice about builds or progress.
            model.notice = nil
            // The script was checked against these pages, so each of its pages is found.
            let playback = presenting.script.flatMap { script in
                TalkPlayback(script) { name in catalog.page(named: name).flatMap { catalog.pages.firstIndex(of: $0) } }
            }
            model.startPresenting(order: presenting.order, playback: playback)
        }
        switch room {
        case .participant(let name, _)?: model.room = ParticipantRoom(name: name)
        case .leader(let session, _)?: model.stageRoom = StageRoom(session: session)
        case nil: break
        }
        let editor = EditorChoice.choose(environment: environment)
        model.editing = EditingSettings(editor: editor?.command, editorOrigin: editor?.origin ?? "")
        let handoff = EditorHandoff(editor: editor, originals: OriginalPages(packageRoot: catalog.root), environment: environment)
        let loop = TourLoop(screen: screen, keys: CursesKeys(screen: screen), model: model, packageRoot: catalog.root,
                            editor: handoff, progress: progress, recording: recording, room: room) {
            leave(recording: recording)
        }
        LiveProcessGroups.stopAllOnExit(beforeExit: { loop.restoreTerminal() })
        loop.start()
        dispatchMain()
    }

    /// Ends the process once the learner quit and the loop stopped its work: the terminal given back, every page's
    /// process group ended, and the recording closed.
    private static func leave(recording: ScreenRecording?) -> Never {
        TerminalRestore.restore()
        LiveProcessGroups.shared.killAll()
        if let recording {
            if let problem = recording.finish() {
                FileHandle.standardError.write(Data("tour: \(problem)\n".utf8))
                exit(4)
            }
            print("Recording written to \(recording.path); replay it with asciinema play \(recording.path)")
        }
        exit(0)
    }

    private static func refuse(_ reason: String) -> Int32 {
        let message = """
            tour: cannot open the full-screen tutorial: \(reason).
            Run a page as plain lines instead, for example: tour run 1 --plain   (tour list shows the pages)

            """
        FileHandle.standardError.write(Data(message.utf8))
        return 2
    }
}

/// What `tour present` puts on stage: the pages in order (indices into the catalog; every page when empty), or a
/// talk's script to play, already checked against the catalog (`TalkPlan.check`).
public struct Presenting: Sendable {
    public var order: [Int]
    public var script: TalkScript?

    public init(order: [Int] = [], script: TalkScript? = nil) {
        self.order = order
        self.script = script
    }
}
