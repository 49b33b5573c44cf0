import Foundation
import TourCore
import TourInterface

/// A page's run as the loop drives it.
protocol RunningPage: AnyObject {
    func stop()
    @discardableResult func send(_ line: String) -> Bool
    func closeInput()
}

extension PageRun: RunningPage {}

/// The edit loop's machinery as the loop drives it (`PageRebuilds`).
protocol PageRebuilding: AnyObject {
    var isBuilding: Bool { get }
    /// Which of `pages` have a program missing or older than its sources.
    func stalePrograms(among pages: [Page]) -> [Page]
    func watch(_ page: Page)
    func build(_ order: BuildOrder)
    func cancel(buildID: Int)
    func reset(_ page: Page)
    func undoReset(_ page: Page)
    func stopAll()
}

/// The exercises' machinery as the loop drives it (`ExerciseChecks`).
protocol ExerciseChecking: AnyObject {
    func watch(_ page: Page, exercise: Page)
    func pageShown(_ page: Page)
    func check(_ order: CheckOrder)
    func cancel(checkID: Int)
    func readSolution(_ page: Page, file: URL) -> ExerciseEvent
    func stopAll()
}

extension PageRebuilds: PageRebuilding {}
extension ExerciseChecks: ExerciseChecking {}

/// Whom the loop hands its work to beyond the screen and the keys: the page runs, the rebuilds and the exercise
/// checks, each reporting back on the loop's queue. `tour` gives it the real ones (`.live`); the loop's tests give it
/// stand-ins that note what they were asked and report what the test tells them to.
struct TourLoopWorkers {
    /// Starts a page's run; its events go to the handler, on the runner's threads.
    var startRun: (RunRequest, @escaping @Sendable (HostEvent) -> Void) -> any RunningPage
    /// The rebuilds, reporting on the queue given, for the package at the folder given.
    var rebuilds: (DispatchQueue, URL, @escaping (EditLoopEvent) -> Void) -> any PageRebuilding
    /// The exercise checks, reporting on the queue given, for the package at the folder given.
    var exerciseChecks: (DispatchQueue, URL, @escaping (ExerciseEvent) -> Void) -> any ExerciseChecking
    /// Plays the named level with the terminal lent to it, until the player quits; why it could not, or nil.
    var playLevel: (String) -> String? = LevelHandoff.play

    static var live: TourLoopWorkers {
        TourLoopWorkers(
            startRun: { request, handler in PageRun.start(request, handler: handler) },
            rebuilds: { queue, packageRoot, deliver in PageRebuilds(queue: queue, packageRoot: packageRoot, deliver: deliver) },
            exerciseChecks: { queue, packageRoot, deliver in ExerciseChecks(queue: queue, packageRoot: packageRoot, deliver: deliver) }
        )
    }
}
