import ExerciseJudging
@preconcurrency import Glibc
import Foundation
import TourCore
import TourInterface

/// The exercises' machinery behind the interface: watches the current page's exercise folder, runs checks through
/// the engine's check runner off the interface's queue, and reads the reference solution. It decides nothing: every
/// save, phase and verdict goes back to the model as an `ExerciseEvent`.
///
/// `@unchecked Sendable` because its state is touched only on `queue`; checks and the watcher report through it.
final class ExerciseChecks: @unchecked Sendable {
    private let queue: DispatchQueue
    private let packageRoot: URL
    /// Runs on `queue`.
    private let deliver: (ExerciseEvent) -> Void
    private var watcher: SourceWatcher?
    private var watchedFolder: URL?
    /// The page whose exercise folder is watched.
    private var watchedPage: String?
    /// The checks in flight, by id; cancelling one cancels its build or stops its run.
    private var checks: [Int: Task<Void, Never>] = [:]

    init(queue: DispatchQueue, packageRoot: URL, deliver: @escaping (ExerciseEvent) -> Void) {
        self.queue = queue
        self.packageRoot = packageRoot
        self.deliver = deliver
    }

    /// Watches `exercise`'s folder (`PageExercises.exerciseFiles` of `page`) instead of the one watched so far; a
    /// no-op for the folder watched. Watching writes nothing: the exercise's original is kept when `E` hands it to an
    /// editor (`EditorHandoff`), as a page's is, so that only opening the tutorial never writes into the package.
    func watch(_ page: Page, exercise: Page) {
        let folder = exercise.source.deletingLastPathComponent()
        guard folder != watchedFolder else { return }
        watcher?.stop()
        watchedFolder = folder
        watchedPage = page.folder
        let watcher = SourceWatcher(folder: folder)
        watcher.start(every: 0.1) { [weak self] event in
            switch event {
            case .changed(let files): self?.post(.exerciseChanged(page: page, files: files))
            case .unavailable: self?.post(.exerciseUnavailable(page: page))
            }
        }
        self.watcher = watcher
    }

    /// Another page is shown now: its own exercise, if it has one, is watched next (`watch`), no other.
    func pageShown(_ page: Page) {
        guard watchedPage != page.folder else { return }
        watcher?.stop()
        watcher = nil
        watchedFolder = nil
        watchedPage = nil
    }

    /// Builds, runs and judges the challenge's program through the engine's `ExerciseCheck`, off the queue; the
    /// start of its run and its verdict come back as events. A check cancelled since sends nothing.
    func check(_ order: CheckOrder) {
        let checker = ExerciseCheck(packageRoot: packageRoot)
        let (checkID, challenge) = (order.checkID, order.challenge)
        checks[checkID] = Task.detached { [self] in
            let outcome = await checker.run(challenge, progress: { [self] stage in
                if case .running = stage { post(.checkRunning(checkID: checkID)) }
            })
            guard !Task.isCancelled else { return }
            queue.async { [self] in
                checks[checkID] = nil
                deliver(.checkFinished(checkID: checkID, outcome.verdict, run: outcome.record))
            }
        }
    }

    /// Stops a check: its build is cancelled or its run stopped, and no verdict comes back.
    func cancel(checkID: Int) {
        checks.removeValue(forKey: checkID)?.cancel()
    }

    /// The reference solution, read and parsed now, on the queue (one small file); never written.
    func readSolution(_ page: Page, file: URL) -> ExerciseEvent {
        do {
            let text = try String(contentsOf: file, encoding: .utf8)
            return .solutionRead(page: page, .read(ParsedPageSource(Page.SourceTexts(main: text))))
        } catch {
            return .solutionRead(page: page, .unreadable("\(file.path) cannot be read (\(error.localizedDescription))"))
        }
    }

    func stopAll() {
        watcher?.stop()
        for check in checks.values { check.cancel() }
    }

    private func post(_ event: ExerciseEvent) {
        queue.async { self.deliver(event) }
    }
}
