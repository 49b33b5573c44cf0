@preconcurrency import Glibc
import Foundation
import TourCore
import TourInterface

/// The full-screen tutorial. Entry point used by `tour` when it is started without a command.
public enum InteractiveTour {
    /// Runs the interface until the learner quits, which exits the process; returns only when the interface
    /// cannot start, with status 2 after saying why and what to use instead.
    /// It opens on the page at `startPage` when given, else on the page the learner's progress says they left.
    public static func run(catalog: PageCatalog, speed: Double, startPage: Int? = nil) -> Int32 {
        setlocale(LC_ALL, "")
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            return refuse("the full-screen tutorial needs a terminal, and stdin or stdout is not one")
        }
        guard !catalog.pages.isEmpty else {
            return refuse("there are no pages under \(catalog.root.path)/Lessons")
        }
        let environment = ProcessInfo.processInfo.environment
        // Until `stopAllOnExit` below makes Ctrl-\ end the tutorial, it does nothing: left to the Swift runtime, its
        // backtracer would print over the first frame.
        signal(SIGQUIT, SIG_IGN)
        let screen: CursesScreen
        do {
            screen = try CursesScreen(environment: environment)
        } catch {
            return refuse("\(error)")
        }
        TerminalRestore.installCrashHandlers()
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
                                   progress: reading.record)
        model.cores = ProcessInfo.processInfo.activeProcessorCount
        // TOUR_BUILD_NOTICE=off keeps a scripted launch (a test, a recorded demo) from using up the learner's notice.
        if environment["TOUR_BUILD_NOTICE"] != "off" { model.notice = FirstLaunch.buildNotice(packageRoot: catalog.root) }
        if let progressProblem { model.notice = progressProblem }
        if let startPage { model.current = startPage }
        let editor = EditorChoice.choose(environment: environment)
        model.editing = EditingSettings(editor: editor?.command, editorOrigin: editor?.origin ?? "")
        let handoff = EditorHandoff(editor: editor, originals: OriginalPages(packageRoot: catalog.root), environment: environment)
        let loop = TourLoop(screen: screen, model: model, packageRoot: catalog.root, editor: handoff, progress: progress)
        LiveProcessGroups.stopAllOnExit(beforeExit: { loop.restoreTerminal() })
        loop.start()
        dispatchMain()
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
