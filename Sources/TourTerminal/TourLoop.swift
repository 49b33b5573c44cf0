import Foundation
import Presenting
import TourCore
import TourInterface
import PageProtocol
import RoomProtocol

/// The event loop: one serial queue owns the model and the screen; the terminal's input, a clock while a page
/// runs, and the runners' events all arrive on it, and nothing runs while nothing happens.
///
/// Everything it reads from or hands work to is given to it: the screen, the input, the clock it paces frames and
/// ticks by, the workers that run, build and check pages, and what leaves the process at the end. `tour` gives it
/// the terminal's; its tests give it a `TestScreen`, typed keys, a `TestClock` and stand-in workers.
///
/// `@unchecked Sendable` because every stored property is touched only on `queue`.
final class TourLoop: @unchecked Sendable {
    /// Frames follow host events at most this often; keys draw at once.
    static let frameInterval: UInt64 = 33_000_000
    /// How often open spans and the clock move on while a page runs, in nanoseconds.
    static let tickInterval: UInt64 = 66_000_000
    /// How often the clock moves on while only a build is in flight: its elapsed time needs no more, and each frame's
    /// CPU is taken from the compiler on a small machine.
    static let buildTickInterval: UInt64 = 250_000_000

    private let queue = DispatchQueue(label: "tour.interface", qos: .userInteractive)
    private let screen: any Screen
    private let keys: any TerminalInputSource
    private let clock: any HostClock
    private let workers: TourLoopWorkers
    /// Leaves the process once quitting has stopped everything; a test notes it instead.
    private let leave: () -> Void
    private var model: TourModel
    private var runs: [Int: any RunningPage] = [:]
    /// Runs whose first output line has not arrived yet: that line is drawn at once, not at the next frame's turn.
    private var runsBeforeFirstOutput: Set<Int> = []
    private var ticker: ClockWake?
    private var tickerInterval: UInt64?
    private var inbox: HostEventInbox!
    private var rebuilds: (any PageRebuilding)!
    private var exercises: (any ExerciseChecking)!
    private let editor: EditorHandoff
    /// The checkout: `S` writes its pictures under its `.tour` folder.
    private let packageRoot: URL
    /// Where opened pages and runs are recorded, off `queue`: a write waits for the file's lock, which another
    /// tutorial may hold, and the interface must not wait with it.
    private let progress: ProgressStore?
    private let progressQueue = DispatchQueue(label: "tour.progress", qos: .utility)
    private var lastFrame: UInt64 = 0
    private var frameScheduled = false
    private var needsFrame = false
    /// `--record`: every frame drawn also goes to this recording.
    private let recording: ScreenRecording?
    /// The presenter's notes channel, opened by the first snapshot; `notesProblem` says why it could not open.
    private var notes: NotesPublisher?
    private var notesProblem: String?
    /// The room the tutorial sits in, if any: opened at `start`, left at quitting.
    private let seat: RoomSeat?
    private var participantLink: (any ParticipantLinking)?
    /// In a room, a look every `progressLookInterval` at the progress file for writes by other commands (`tour check`
    /// in another terminal): what they record reaches the room too.
    private var progressLook: ClockWake?
    /// The progress file's change time as last read or written here; only `progressQueue` touches it.
    private nonisolated(unsafe) var progressSeen: timespec?
    static let progressLookInterval: UInt64 = 2_000_000_000
    private var leaderLink: (any LeaderLinking)?

    init(screen: any Screen, keys: any TerminalInputSource, model: TourModel, packageRoot: URL, editor: EditorHandoff,
         progress: ProgressStore?, recording: ScreenRecording? = nil, clock: any HostClock = SystemClock(),
         workers: TourLoopWorkers = .live, room seat: RoomSeat? = nil, leave: @escaping () -> Void) {
        self.seat = seat
        self.keys = keys
        self.clock = clock
        self.workers = workers
        self.leave = leave
        self.recording = recording
        self.packageRoot = packageRoot
        self.progress = progress
        self.screen = screen
        self.model = model
        self.editor = editor
        inbox = HostEventInbox(queue: queue) { [unowned self] batch in receive(batch) }
        rebuilds = workers.rebuilds(queue, packageRoot) { [unowned self] event in
            handle(.editLoop(event), drawNow: false)
            if runs.isEmpty && !rebuilds.isBuilding && model.presenter == nil { stopTicking() }
        }
        exercises = workers.exerciseChecks(queue, packageRoot) { [unowned self] event in
            handle(.exercise(event), drawNow: false)
        }
    }

    /// Draws the first frame and starts listening; returns at once.
    func start() {
        queue.async { [self] in
            takeSeat()
            // The first page's source is read before the first frame, so it never draws empty.
            perform(model.update(.launched))
            // On stage the talk's clock starts with the first frame.
            if model.presenter != nil {
                perform(model.update(.tick(now: clock.now)))
                startTicking()
            }
            drawFrame()
            keys.start(on: queue) { [unowned self] inputs in receive(inputs) }
        }
    }

    /// Returns once everything already on the loop's queue has run: a test's key has been handled and its frame drawn.
    func settled() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async { done.resume() }
        }
    }

    /// Opens the room's link, if the tutorial sits in one: what it reports comes onto the queue as `.room` events.
    /// A participant publishes their progress once now, as the file has it, and then each time it is written.
    private func takeSeat() {
        let status: RoomSeat.StatusHandler = { [queue, unowned self] status in
            queue.async { [unowned self] in handle(.room(.status(status)), drawNow: false) }
        }
        let heard: RoomSeat.HeardHandler = { [queue, unowned self] event in
            queue.async { [unowned self] in handle(.room(.heard(event)), drawNow: false) }
        }
        switch seat {
        case .participant(_, let open)?:
            participantLink = open(status, heard)
            guard let progress else { return }
            progressQueue.async { [unowned self] in publishIfChanged(progress, force: true) }
            progressLook = clock.repeating(every: Self.progressLookInterval, on: progressQueue) { [unowned self] in
                publishIfChanged(progress, force: false)
            }
        case .leader(_, let open)?:
            leaderLink = open(status, heard)
        case nil:
            break
        }
    }

    /// On `progressQueue`: reads the progress file and hands the record to the room when the file changed since it was
    /// last read or written here (a `stat`, every two seconds, while in a room), or when `force`d.
    private func publishIfChanged(_ progress: ProgressStore, force: Bool) {
        let changed = Self.changeTime(of: progress.file)
        guard force || changed.map({ !Self.same($0, progressSeen) }) ?? false else { return }
        progressSeen = changed
        guard let reading = try? progress.read() else { return }
        queue.async { [unowned self] in handle(.room(.progressWritten(reading.record)), drawNow: false) }
    }

    /// The file's status change time, or nil when it cannot be read: a rename over it (how the store writes) changes it.
    private static func changeTime(of file: URL) -> timespec? {
        var status = stat()
        return stat(file.path, &status) == 0 ? status.st_ctim : nil
    }

    private static func same(_ time: timespec, _ other: timespec?) -> Bool {
        other.map { $0.tv_sec == time.tv_sec && $0.tv_nsec == time.tv_nsec } ?? false
    }

    /// Ends curses mode from outside the queue (a signal handler), waiting briefly for a frame being drawn.
    func restoreTerminal() {
        let done = DispatchSemaphore(value: 0)
        queue.async {
            TerminalRestore.restore()
            done.signal()
        }
        if done.wait(timeout: .now() + .milliseconds(300)) == .timedOut { TerminalRestore.restore() }
    }

    private func receive(_ inputs: [TerminalInput]) {
        for input in inputs {
            switch input {
            case .key(let key): handle(.key(key), drawNow: true)
            case .mouse(let mouse): handle(.mouse(mouse), drawNow: true)
            case .resized: handle(.resize(screen.adoptTerminalSize()), drawNow: true)
            // The terminal went away without a SIGHUP reaching us.
            case .hungUp: return perform([.quit])
            }
        }
    }

    private func handle(_ event: TourEvent, drawNow: Bool) {
        perform(model.update(event))
        // On stage the clock in the corner and a script's pauses move on while nothing runs.
        if model.presenter != nil { startTicking() }
        if drawNow {
            drawFrame()
        } else {
            requestFrame()
        }
    }

    private func receive(_ batch: [(runID: Int, event: HostEvent)]) {
        var firstOutput = false
        for (runID, event) in batch {
            perform(model.update(.host(runID: runID, event)))
            switch event {
            case .output:
                if runsBeforeFirstOutput.remove(runID) != nil { firstOutput = true }
            case .ended:
                runs[runID] = nil
                runsBeforeFirstOutput.remove(runID)
            default:
                break
            }
        }
        if runs.isEmpty && !rebuilds.isBuilding && model.presenter == nil { stopTicking() }
        // A run's first line is what a learner who just saved a change waits for: it does not wait out the frame
        // interval after the frame that showed the build's end.
        if firstOutput {
            drawFrame()
        } else {
            requestFrame()
        }
    }

    private func perform(_ effects: [TourEffect]) {
        for effect in effects {
            switch effect {
            case .start(let order):
                // Every page gets a pipe for input, so none can read the keys meant for the interface from the terminal.
                let request = RunRequest(executable: BuildProducts.executable(named: order.page.product),
                                         knobSettings: order.knobSettings, speed: order.speed, seed: order.seed,
                                         sendsCommands: true)
                let inbox = self.inbox!
                runs[order.runID] = workers.startRun(request) { event in inbox.post(event, runID: order.runID) }
                runsBeforeFirstOutput.insert(order.runID)
                // On stage a tick may start the clock and play the script's next steps: their effects are carried out too.
                perform(model.update(.tick(now: clock.now)))
                startTicking()
            case .stop(let runID):
                runs[runID]?.stop()
            case .quit:
                // The page just opened is written before exit, so the next start resumes on it.
                progressQueue.sync {}
                rebuilds.stopAll()
                exercises.stopAll()
                for run in runs.values { run.stop() }
                notes?.close()
                progressLook?.cancel()
                participantLink?.leave()
                // A poll left retained would be asked of whoever joins later.
                leaderLink?.closePoll()
                leaderLink?.leave()
                stopTicking()
                leave()
            case .redrawAll:
                screen.invalidate()
            case .edit(let order):
                handOver(order)
            case .playLevel(let level):
                play(level)
            case .build(let order):
                rebuilds.build(order)
                startTicking()
            case .cancelBuild(let buildID):
                rebuilds.cancel(buildID: buildID)
            case .findProgramsToBuild(let pages):
                perform(model.update(.editLoop(.programsToBuild(rebuilds.stalePrograms(among: pages)))))
            case .reset(let page):
                rebuilds.reset(page)
            case .undoReset(let page):
                rebuilds.undoReset(page)
            case .send(let runID, let command):
                runs[runID]?.send(command)
            case .closeInput(let runID):
                runs[runID]?.closeInput()
            case .readSource(let page):
                // A few small files, read and parsed on the queue: the next frame shows them.
                perform(model.update(.editLoop(.sourceRead(page: page, page.readParsedSource()))))
            case .readSourcesAhead(let pages):
                readAhead(pages)
            case .watch(let page):
                rebuilds.watch(page)
                exercises.pageShown(page)
            case .recordProgress(let event):
                record(event)
            case .check(let order):
                exercises.check(order)
            case .cancelCheck(let checkID):
                exercises.cancel(checkID: checkID)
            case .watchExercise(let page, let exercise):
                exercises.watch(page, exercise: exercise)
            case .readSolution(let page, let file):
                // One small file, read on the queue: the overlay shows it in the next frame.
                perform(model.update(.exercise(exercises.readSolution(page, file: file))))
            case .publishPresenterSnapshot(let snapshot):
                // An effect before this one may have published a newer snapshot already (`isLatestPublished`).
                if model.isLatestPublished(snapshot) { publishPresenterSnapshot(snapshot) }
            case .savePictures(let page):
                savePictures(of: page)
            case .publishProgress(let record):
                guard case .participant(let name, _)? = seat else { break }
                participantLink?.publish(ParticipantProgress(participant: name, tourVersion: TourVersion.current,
                                                             writtenAt: progress?.clock() ?? Date(), progress: record))
            case .answerPoll(let answer):
                participantLink?.answer(answer)
            case .askRoom(let poll):
                leaderLink?.ask(poll)
            case .closeRoomPoll:
                leaderLink?.closePoll()
            }
        }
    }

    /// The one place the presenter's position leaves the interface, for `tour notes` in a second terminal. The notes
    /// channel opens at the first snapshot (so a tutorial that never presents opens no socket), and a channel that
    /// cannot open is said once. It runs on `queue`; `publish` hands the line to the publisher's own queue, never blocking.
    private func publishPresenterSnapshot(_ snapshot: PresenterSnapshot) {
        if notes == nil && notesProblem == nil {
            do {
                notes = try NotesPublisher()
            } catch {
                notesProblem = error.description
                handle(.notice("Speaker notes are off: \(error.description)"), drawNow: true)
            }
        }
        notes?.publish(snapshot)
    }

    /// Reads and parses `pages` on a background queue once the block running now (which draws the frame) is done, and
    /// folds each in as it is ready. No frame follows: a page read ahead is not on screen, since the page on screen is
    /// read before its frame.
    private func readAhead(_ pages: [Page]) {
        queue.async { [self] in
            DispatchQueue.global(qos: .utility).async { [self] in
                for page in pages {
                    let source = page.readParsedSource()
                    queue.async { [self] in perform(model.update(.sourceReadAhead(page: page, source))) }
                }
            }
        }
    }

    /// Writes the run the page's panes show as `.tour/pictures/NN-slug.svg` and `.json` (`NN-slug-exercise` for its
    /// exercise's check), off the queue (a long run's picture takes a moment to draw); the paths or the failure come
    /// back as `.picturesSaved`.
    private func savePictures(of page: Page) {
        guard let state = model.pages.first(where: { $0.page == page }), let record = state.shownRecord else { return }
        let folder = packageRoot.appendingPathComponent(".tour/pictures")
        let name = String(format: "%02d-%@", page.number, page.slug) + (state.showsCheckRun ? "-exercise" : "")
        let title = "\(page.number) \(page.title)" + (state.showsCheckRun ? " (your exercise)" : "")
        DispatchQueue.global(qos: .utility).async { [unowned self] in
            let result: PicturesSaved
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let picture = folder.appendingPathComponent(name + ".svg").path
                let trace = folder.appendingPathComponent(name + ".json").path
                try TimelineSVG.write(record, title: title, to: picture)
                try ChromeTrace.write(record, title: title, to: trace)
                result = .saved(picture: ".tour/pictures/\(name).svg", trace: ".tour/pictures/\(name).json")
            } catch {
                result = .failed("\(error)")
            }
            queue.async { [unowned self] in handle(.picturesSaved(result), drawNow: true) }
        }
    }

    /// Records `event` in the progress file; a file set aside or a failed write comes back as a notice. In a room,
    /// the record as written comes back too, for the participant's link to publish: the file is the truth.
    private func record(_ event: ProgressEvent) {
        guard let progress else { return }
        let inRoom = participantLink != nil
        progressQueue.async { [unowned self] in
            let problem: String?
            do {
                let reading = try progress.record(event)
                problem = reading.setAside?.briefMessage
                if inRoom {
                    progressSeen = Self.changeTime(of: progress.file)
                    queue.async { [unowned self] in handle(.room(.progressWritten(reading.record)), drawNow: false) }
                }
            } catch {
                problem = "Progress not recorded: \(error)"
            }
            guard let problem else { return }
            queue.async { [unowned self] in handle(.progressProblem(problem), drawNow: true) }
        }
    }

    /// Lends the terminal to the editor, and takes everything back after.
    private func handOver(_ order: EditOrder) {
        let result = lendTerminal { editor.open(order) }
        perform(model.update(.editLoop(.editorFinished(result))))
    }

    /// Lends the terminal to the level's game, and takes everything back after, as the tutorial was.
    private func play(_ level: String) {
        let problem = lendTerminal { workers.playLevel(level) }
        perform(model.update(.levelPlayed(problem: problem)))
    }

    /// Runs `body`, which has the terminal, with stdin left to it; then draws everything again.
    private func lendTerminal<Result>(_ body: () -> Result) -> Result {
        keys.pause()
        let result = body()
        keys.resume()
        // The terminal may have been resized while another program had it.
        perform(model.update(.resize(screen.adoptTerminalSize())))
        screen.invalidate()
        return result
    }

    /// Draws now if the last frame is old enough, else once when it is: at most one frame per interval.
    private func requestFrame() {
        needsFrame = true
        guard !frameScheduled else { return }
        let due = lastFrame + Self.frameInterval
        if clock.now >= due {
            drawFrame()
            return
        }
        frameScheduled = true
        clock.wake(at: due, on: queue) { [self] in
            frameScheduled = false
            if needsFrame { drawFrame() }
        }
    }

    private func drawFrame() {
        needsFrame = false
        lastFrame = clock.now
        let frame = TourRenderer.render(model)
        screen.draw(frame)
        recording?.record(frame, of: model)
        _ = model.update(.drawn)
    }

    /// Ticks at the run's pace while a page runs, else at the build's.
    private func startTicking() {
        let interval = runs.isEmpty ? Self.buildTickInterval : Self.tickInterval
        guard ticker == nil || tickerInterval != interval else { return }
        ticker?.cancel()
        tickerInterval = interval
        ticker = clock.repeating(every: interval, on: queue) { [unowned self] in handle(.tick(now: clock.now), drawNow: false) }
    }

    private func stopTicking() {
        ticker?.cancel()
        ticker = nil
        tickerInterval = nil
    }
}
