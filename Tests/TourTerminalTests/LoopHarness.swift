import Dispatch
import Foundation
import Synchronization
import TourCore
import TourInterface
import TourTestSupport
@testable import TourTerminal

/// Input the test types: each `type` reaches the loop on its queue, after what was typed before.
final class TypedKeys: TerminalInputSource, @unchecked Sendable {
    private let deliverer = Mutex<(queue: DispatchQueue, deliver: @Sendable ([TerminalInput]) -> Void)?>(nil)

    func start(on queue: DispatchQueue, deliver: @escaping @Sendable ([TerminalInput]) -> Void) {
        deliverer.withLock { $0 = (queue, deliver) }
    }

    func pause() {}
    func resume() {}

    func type(_ inputs: TerminalInput...) {
        guard let (queue, deliver) = deliverer.withLock({ $0 }) else {
            preconditionFailure("typed before the loop started listening")
        }
        queue.async { deliver(inputs) }
    }
}

/// A page run that no process backs: the test sends its events, and it notes being stopped.
final class StandInRun: RunningPage, @unchecked Sendable {
    let request: RunRequest
    private let handler: @Sendable (HostEvent) -> Void
    private let stops = Mutex(0)

    init(request: RunRequest, handler: @escaping @Sendable (HostEvent) -> Void) {
        self.request = request
        self.handler = handler
    }

    var stopCount: Int { stops.withLock { $0 } }

    /// Sends `event` as the runner would, from a thread of its own.
    func emit(_ event: HostEvent) {
        handler(event)
    }

    func stop() { stops.withLock { $0 += 1 } }
    func send(_ line: String) -> Bool { false }
    func closeInput() {}
}

/// Rebuilds and checks that do nothing but count being stopped: every program counts as built.
final class IdleWorkshop: PageRebuilding, ExerciseChecking, @unchecked Sendable {
    private let stops = Mutex(0)
    var stopAllCount: Int { stops.withLock { $0 } }

    var isBuilding: Bool { false }
    func stalePrograms(among pages: [Page]) -> [Page] { [] }
    func watch(_ page: Page) {}
    func build(_ order: BuildOrder) {}
    func cancel(buildID: Int) {}
    func reset(_ page: Page) {}
    func undoReset(_ page: Page) {}
    func watch(_ page: Page, exercise: Page) {}
    func pageShown(_ page: Page) {}
    func check(_ order: CheckOrder) {}
    func cancel(checkID: Int) {}
    func readSolution(_ page: Page, file: URL) -> ExerciseEvent { .solutionRead(page: page, .unreadable("not in this test")) }
    func stopAll() { stops.withLock { $0 += 1 } }
}

/// A `TourLoop` on `PartedCatalog`'s four pages, drawing on a `TestScreen` of 120 by 40, typed to by `TypedKeys`,
/// paced by a `TestClock`, with stand-in runs and an idle workshop. Nothing in it touches the terminal, starts a
/// process or waits for real time.
final class LoopHarness: @unchecked Sendable {
    let catalog: PartedCatalog
    let clock = TestClock()
    let screen: TestScreen
    let keys = TypedKeys()
    let workshop = IdleWorkshop()
    let loop: TourLoop
    private let noted = Noted()

    /// What the workers and the leaving note, captured by the loop's closures.
    private final class Noted: Sendable {
        let runs = Mutex<[StandInRun]>([])
        let leaves = Mutex(0)
        let plays = Mutex<[String]>([])
    }

    /// `levels` are shown on their pages; playing one notes its name and says `playProblem`, without a terminal. A
    /// tutorial sitting in `room` has the real exercises (their predictions are what a room is asked) and records its
    /// progress in `progress`; `prepare` sets the model up as `InteractiveTour` would (a seat, the stage).
    init(levels: [(name: String, page: Int)] = [], playProblem: String? = nil, room: RoomSeat? = nil, progress: ProgressStore? = nil,
         prepare: (inout TourModel) -> Void = { _ in }) throws {
        catalog = try PartedCatalog()
        screen = TestScreen(clock: clock)
        var model = room == nil
            ? TourModel.load(catalog.catalog, speed: 1, size: screen.size, glyphs: .unicode, pictureDepth: .colors256, exercises: [])
            : TourModel.load(catalog.catalog, speed: 1, size: screen.size, glyphs: .unicode, pictureDepth: .colors256)
        model.showLevels(levels)
        prepare(&model)
        let workers = TourLoopWorkers(
            startRun: { [noted] request, handler in
                let run = StandInRun(request: request, handler: handler)
                noted.runs.withLock { $0.append(run) }
                return run
            },
            rebuilds: { [workshop] _, _, _ in workshop },
            exerciseChecks: { [workshop] _, _, _ in workshop },
            playLevel: { [noted] level in
                noted.plays.withLock { $0.append(level) }
                return playProblem
            })
        let editor = EditorHandoff(editor: nil, originals: OriginalPages(packageRoot: catalog.root), environment: [:])
        loop = TourLoop(screen: screen, keys: keys, model: model, packageRoot: catalog.root, editor: editor, progress: progress,
                        clock: clock, workers: workers, room: room) { [noted] in noted.leaves.withLock { $0 += 1 } }
    }

    /// The runs the loop started, first to last.
    var runs: [StandInRun] { noted.runs.withLock { $0 } }

    /// The levels played, first to last.
    var plays: [String] { noted.plays.withLock { $0 } }

    /// How many times the loop left the process.
    var leaveCount: Int { noted.leaves.withLock { $0 } }

    /// Starts the loop and returns once its first frame is drawn.
    func start() async {
        loop.start()
        await loop.settled()
    }

    /// Starts the loop, presses r on page 1 and returns the run it started, which has printed `firstLine` when given.
    func startRunning(printing firstLine: String? = nil) async throws -> StandInRun {
        await start()
        await type(.key(.character("r")))
        guard let run = runs.first, runs.count == 1 else { throw NoRun(started: runs.count) }
        if let firstLine { await emit(output(firstLine), from: run) }
        return run
    }

    struct NoRun: Error, CustomStringConvertible {
        let started: Int
        var description: String { "r started \(started) runs, not one" }
    }

    /// Types `inputs` and returns once the loop has handled them.
    func type(_ inputs: TerminalInput...) async {
        for input in inputs { keys.type(input) }
        await loop.settled()
    }

    /// Sends `event` from the run and returns once the loop has taken it in.
    func emit(_ event: HostEvent, from run: StandInRun) async {
        run.emit(event)
        await loop.settled()
    }

    /// A line of output the page printed now.
    func output(_ text: String) -> HostEvent {
        .output(OutputLine(stream: .stdout, text: text, time: clock.now))
    }

    /// The last frame's text, one string.
    var screenText: String { screen.lines.joined(separator: "\n") }
}
