@preconcurrency import Glibc
import Foundation
import TourCore
import TourInterface
import PageProtocol

/// The edit loop's machinery behind the interface: watches the current page's folder, rebuilds page programs
/// off the interface's queue, and resets pages. It decides nothing: every change, build line and outcome goes
/// back to the model as an `EditLoopEvent`, which decides what happens next.
///
/// `@unchecked Sendable` because its state is touched only on `queue`; builds and the watcher report through it.
final class PageRebuilds: @unchecked Sendable {
    private let queue: DispatchQueue
    private let builder: PageBuilder
    private let originals: OriginalPages
    /// Runs on `queue`.
    private let deliver: (EditLoopEvent) -> Void
    private var watcher: SourceWatcher?
    private var watchedFolder: String?
    private var builds: [Int: PageBuild] = [:]

    init(queue: DispatchQueue, packageRoot: URL, deliver: @escaping (EditLoopEvent) -> Void) {
        self.queue = queue
        self.builder = PageBuilder(packageRoot: packageRoot)
        self.originals = OriginalPages(packageRoot: packageRoot)
        self.deliver = deliver
    }

    var isBuilding: Bool { !builds.isEmpty }

    /// A `stat` of each program and its few sources: well under a millisecond, done before the first frame.
    func stalePrograms(among pages: [Page]) -> [Page] {
        pages.filter { $0.programIsStale() }
    }

    /// Watches `page`'s folder instead of the one watched so far; a no-op for the page already watched.
    func watch(_ page: Page) {
        guard page.folder != watchedFolder else { return }
        watcher?.stop()
        watchedFolder = page.folder
        let watcher = SourceWatcher(folder: page.source.deletingLastPathComponent())
        // Where the watcher has to poll (no inotify), ten polls a second: a change is reported after its 0.1 s quiet
        // period either way, and each poll's wake-up costs CPU the whole time the tutorial sits open.
        watcher.start(every: 0.1) { [weak self] event in
            switch event {
            case .changed(let files): self?.post(.sourceChanged(page: page, files: files))
            case .unavailable(let missing, let unreadable): self?.post(.sourceUnavailable(page: page, missing: missing, unreadable: unreadable))
            }
        }
        self.watcher = watcher
        post(.watchStarted(page: page, programIsStale: page.programIsStale()))
        // So the first save after launch takes the direct route without first asking the drivers for its jobs.
        DispatchQueue.global(qos: .utility).async { [builder] in
            builder.prepareDirectBuild(product: page.product, sources: page.listSourceFiles())
        }
    }

    func build(_ order: BuildOrder) {
        let buildID = order.buildID
        let build = builder.build(product: order.page.product, sources: order.page.listSourceFiles(), onLine: { [weak self] line in
            self?.post(.buildOutput(buildID: buildID, lines: [line.text]))
        }, onRoute: { [weak self] route in
            self?.post(.buildStarted(buildID: buildID, time: monotonicNanoseconds(), route: route))
        })
        builds[buildID] = build
        build.whenDone { [weak self] outcome in
            guard let self else { return }
            queue.async {
                self.builds[buildID] = nil
                self.deliver(.buildFinished(buildID: buildID, outcome))
            }
        }
    }

    /// Stops a build; its `.buildFinished` still arrives, as cancelled.
    func cancel(buildID: Int) {
        builds[buildID]?.cancel()
    }

    /// Puts the page's original text back; the watcher then reports the change, which rebuilds and reruns it.
    func reset(_ page: Page) {
        let result: PageResetResult
        do {
            switch try originals.reset(page) {
            case .restored: result = .restored
            case .unchanged: result = .unchanged
            case .noOriginal: result = .noOriginal
            }
        } catch {
            result = .failed("\(error)")
        }
        post(.resetFinished(page: page, result))
    }

    /// Puts back the version the page's last reset replaced; the watcher then reports the change, as after a reset.
    func undoReset(_ page: Page) {
        let result: PageResetResult
        do {
            switch try originals.undoReset(page) {
            case .restored: result = .undone
            case .nothingToUndo: result = .nothingToUndo
            }
        } catch {
            result = .undoFailed("\(error)")
        }
        post(.resetFinished(page: page, result))
    }

    func stopAll() {
        watcher?.stop()
        for build in builds.values { build.cancel() }
    }

    private func post(_ event: EditLoopEvent) {
        queue.async { self.deliver(event) }
    }
}
