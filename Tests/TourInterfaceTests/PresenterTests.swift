import Foundation
import Presenting
import Testing
import TourCore
import PageProtocol
@testable import TourInterface
import TourTestSupport

/// Pages for the presenter: one with speaker notes, a knob and two runs of code, then the fixture queue page.
enum PresenterFixtures {
    static let stageSource = """
        /*:
         # Stage

         A queue runs operations for you.

         - speaker: Ask who has used a queue.
         */
        import LessonKit

        let width = knob("width", default: 1, in: 1...4, "how many run at once")
        duration {
            work(42)
        }
        /*:
         The queue's width is the knob.

         - speaker: Point at the second lane.
         - speaker: They usually ask why not one thread per operation.
         */
        let label = "stage"
        """

    static let start: UInt64 = 5_000_000_000_000

    static func catalog() throws -> PageCatalog {
        let root = ScratchSpace.folder.appendingPathComponent("tour-presenter-\(UUID().uuidString)")
        for (folder, source) in [("01-Stage", stageSource), ("02-Queue", FixturePages.queueSource)] {
            let directory = root.appendingPathComponent("Lessons").appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try source.write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        }
        return try PageCatalog.load(root: root)
    }

    /// The presenter on both pages, sources read, its clock started at `start`.
    static func model(width: Int = 120, height: Int = 40, script: String? = nil) throws -> TourModel {
        let catalog = try catalog()
        var model = TourModel.load(catalog, speed: 1, size: Size(width: width, height: height), glyphs: .unicode,
                                   pictureDepth: .colors256, exercises: [])
        model.readEverySource()
        let playback = try script.map { text in
            try #require(TalkPlayback(try TalkScript.parse(text)) { name in
                catalog.page(named: name).flatMap { catalog.pages.firstIndex(of: $0) }
            })
        }
        model.startPresenting(playback: playback)
        _ = model.update(.tick(now: start))
        return model
    }

    /// A run of the stage page: a span on each of two threads, a result on line 11, two lines of output.
    static var stageRun: RunScript {
        var script = RunScript()
        script.knob("width", value: "1", defaultValue: "1", min: 1, max: 4, help: "how many run at once")
        script.print("one at a time", at: 1)
        script.span(1, "work", from: 2, to: 300, thread: RunScript.mainThread, queue: RunScript.mainQueue)
        script.span(2, "helper", from: 50, to: 250, thread: RunScript.worker, queue: RunScript.workerQueue)
        script.result(line: 11, "298.0 ms", at: 300, kind: .duration)
        script.print("done", at: 310)
        script.end(.exited(code: 0), at: 320)
        return script
    }
}

extension TourModel {
    fileprivate var shown: Int { presenter?.shownBlocks(onPage: current, of: presentedBlocks.count) ?? 0 }

    /// The snapshots `event` publishes.
    fileprivate mutating func published(_ event: TourEvent) -> [PresenterSnapshot] {
        update(event).compactMap { if case .publishPresenterSnapshot(let snapshot) = $0 { snapshot } else { nil } }
    }
}

@Suite("Presenter", .bodiesBelowTheRunner)
struct PresenterTests {
    @Test("Space and → reveal the next block, ← goes back; past the last block comes the next page, before the first the previous")
    func revealAndBack() async throws {
        var model = try PresenterFixtures.model()
        #expect(model.current == 0)
        #expect(model.presentedBlocks.count == 5)
        #expect(model.shown == 1)
        model.press(.character(" "))
        #expect(model.shown == 2)
        model.press(.right, .right)
        #expect(model.shown == 4)
        model.press(.left)
        #expect(model.shown == 3)
        model.press(.right, .right)
        #expect(model.shown == 5)
        model.press(.right)
        #expect(model.current == 1)
        #expect(model.shown == 1)
        model.press(.left)
        #expect(model.current == 0)
        #expect(model.shown == 5, "back on a page shows it as far as it was revealed")
        model.press(.character("p"))
        #expect(model.current == 0)
        #expect(model.notice == "This is the talk's first page.")
    }

    @Test("r runs the page as the tutorial does; the run's output and timeline take room below the prose; t hides them")
    func runTakesTheRoom() async throws {
        var model = try PresenterFixtures.model()
        model.press(.right, .right)
        let started = model.run(PresenterFixtures.stageRun)
        let runID = try #require(started)
        #expect(model.currentPage.runID == runID)
        let layout = PresenterLayout(size: model.size, model: model)
        let output = try #require(layout.output)
        let timeline = try #require(layout.timeline)
        #expect(layout.prose.maxY <= output.y)
        #expect(output.height >= 8 && timeline.height >= 8)
        let screen = TourRenderer.render(model)
        #expect(screen.find("one at a time", in: output) != nil)
        #expect(screen.find("work", in: timeline) != nil)
        #expect(screen.find("298.0 ms") != nil, "the result sits beside its line")
        model.press(.character("t"))
        #expect(PresenterLayout(size: model.size, model: model).output == nil)
    }

    @Test("A knob changed on stage shows a caption the room reads, for five seconds of the injected clock")
    func knobCaption() async throws {
        var model = try PresenterFixtures.model()
        model.press(.character("+"), .character("+"))
        #expect(model.presenter?.caption?.text == "width 2 → 3")
        #expect(model.currentPage.knobSettings == [KnobSetting(name: "width", value: "3")])
        // In big type: the caption's first row of block letters.
        let bigRow = BigType.rows("width 2 → 3")[0]
        #expect(TourRenderer.render(model).find(bigRow) != nil)
        _ = model.update(.tick(now: PresenterFixtures.start + PresenterCaption.duration + 1))
        #expect(TourRenderer.render(model).find(bigRow) == nil)
        #expect(PresenterLayout(size: model.size, model: model).caption == nil)
    }

    @Test("The clock in the corner counts from the first tick, as the ticks say")
    func clock() async throws {
        var model = try PresenterFixtures.model()
        #expect(TourRenderer.render(model).text(ofRow: 0).hasSuffix("0:00"))
        _ = model.update(.tick(now: PresenterFixtures.start + 65_400_000_000))
        #expect(TourRenderer.render(model).text(ofRow: 0).hasSuffix("1:05"))
        #expect(PresenterView.clockText(3_725_000_000_000) == "1:02:05")
    }

    @Test("Speaker notes never reach the room's screen; they go with the block before them in the snapshot")
    func speakerNotes() async throws {
        var model = try PresenterFixtures.model()
        model.press(.right)
        var snapshot = try #require(model.presenterSnapshot)
        #expect(snapshot.block == 1)
        #expect(snapshot.current == "A queue runs operations for you.")
        #expect(snapshot.notes == ["Ask who has used a queue."])
        #expect(snapshot.next?.hasPrefix("import LessonKit") == true)
        model.press(.right, .right)
        snapshot = try #require(model.presenterSnapshot)
        #expect(snapshot.notes == ["Point at the second lane.", "They usually ask why not one thread per operation."])
        model.press(.right)
        let screen = TourRenderer.render(model)
        #expect(screen.find("Point at") == nil)
        #expect(screen.find("Ask who") == nil)
        #expect(screen.find("Speaker") == nil)
        #expect(screen.find("let label") != nil)
    }

    /// At launch the page on screen is read by an effect of the launch itself, which the loop folds in before it
    /// performs the launch's own publish: the launch's snapshot (no blocks yet) is then no longer the latest, and
    /// the loop drops it rather than send it after the newer one.
    @Test("A snapshot made before the page was read is not the latest once the read has been folded in")
    func aSnapshotOvertakenByTheReadIsNotTheLatest() async throws {
        let catalog = try PresenterFixtures.catalog()
        var model = TourModel.load(catalog, speed: 1, size: Size(width: 120, height: 40), glyphs: .unicode,
                                   pictureDepth: .colors256, exercises: [])
        model.startPresenting(playback: nil)
        let launch = model.update(.launched)
        let page = try #require(catalog.pages.first)
        #expect(launch.contains(.readSource(page)))
        let beforeRead = try #require(launch.compactMap { if case .publishPresenterSnapshot(let snapshot) = $0 { snapshot } else { nil } }.first)
        #expect(beforeRead.blockCount == 0)
        let afterRead = try #require(model.published(.editLoop(.sourceRead(page: page, page.readParsedSource()))).first)
        #expect(afterRead.blockCount > 0)
        #expect(!model.isLatestPublished(beforeRead))
        #expect(model.isLatestPublished(afterRead))
    }

    @Test("The snapshot is published when it changes, and the clock changes it at most once a second")
    func publishing() async throws {
        var model = try PresenterFixtures.model()
        #expect(model.published(.tick(now: PresenterFixtures.start + 300_000_000)).isEmpty)
        let afterSecond = model.published(.tick(now: PresenterFixtures.start + 1_100_000_000))
        #expect(afterSecond.map(\.elapsedSeconds) == [1])
        let reveal = model.published(.key(.right))
        #expect(reveal.map(\.block) == [1])
        #expect(model.published(.key(.character("?"))).isEmpty)
    }

    @Test("The code under discussion has the bar beside it; code revealed before it is dimmed")
    func highlightedCode() async throws {
        var model = try PresenterFixtures.model()
        model.press(.right, .right)
        var screen = TourRenderer.render(model)
        let work = try #require(screen.find("work(42)"))
        #expect(screen[1, work.y].character == PresenterView.presenterBar)
        #expect(!screen[work.x, work.y].style.dim)
        model.press(.right, .right)
        screen = TourRenderer.render(model)
        let dimmed = try #require(screen.find("work(42)"))
        #expect(screen[dimmed.x, dimmed.y].style.dim)
        let label = try #require(screen.find("let label"))
        #expect(screen[1, label.y].character == PresenterView.presenterBar)
    }

    @Test("On stage, pages opened and run leave the learner's progress alone; in the tutorial the same keys record them")
    func rehearsalsAreNotProgress() async throws {
        func progress(_ effects: [TourEffect]) -> [TourEffect] { effects.filter { if case .recordProgress = $0 { true } else { false } } }
        var tutorial = try FixturePages.model()
        #expect(!progress(tutorial.update(.key(.character("r")))).isEmpty, "the tutorial records a run")
        #expect(!progress(tutorial.update(.key(.character("n")))).isEmpty, "and a page opened")

        var model = try PresenterFixtures.model()
        #expect(progress(model.update(.launched)).isEmpty)
        #expect(model.update(.key(.character("r"))).contains { if case .start = $0 { true } else { false } }, "the page runs")
        #expect(progress(model.update(.key(.character("n")))).isEmpty)
        #expect(model.current == 1)
        #expect(progress(model.update(.key(.character("r")))).isEmpty)
    }

    @Test("Nothing on stage teaches the room a key or shows the script's line: page links, deep dives, the timeline, a run starting, the header")
    func noKeyHintsOnStage() async throws {
        func screen(_ model: TourModel) -> String { TourRenderer.render(model).lines.joined(separator: "\n") }
        let hints = ["(n)", "(p)", "o opens", "h/l span", "W shows each", "Press r to run", "script line", "script done", "by hand"]
        var tutorial = try FixturePages.model(withDeepDives: true)
        _ = tutorial.run(PresenterFixtures.stageRun)
        #expect(screen(tutorial).contains("h/l span"), "the tutorial teaches its keys")
        let tutorialRows = PageLayout(document: tutorial.currentPage.document, width: 100, glyphs: .unicode).rows
            .map { String($0.cells.map(\.character)) }
        #expect(tutorialRows.contains { $0.contains("Dispatch (n)") }, "the tutorial's page link says its key")

        var model = try FixturePages.model(withDeepDives: true)
        model.startPresenting(playback: TalkPlayback(try TalkScript.parse("page 1\nwait\npage 3\nwait\n")) { Int($0).map { $0 - 1 } })
        _ = model.update(.tick(now: PresenterFixtures.start))
        let blocks = model.presentedBlocks.count
        model.presenter?.revealed[0] = blocks
        #expect(screen(model).contains("Dispatch"), "the page link is shown")
        _ = model.update(.key(.character("r")))
        #expect(model.currentPage.isRunning)
        for hint in hints { #expect(!screen(model).contains(hint), "as the run starts: \(hint)") }
        let runID = try #require(model.currentPage.runID)
        for event in PresenterFixtures.stageRun.events { _ = model.update(.host(runID: runID, event)) }
        #expect(screen(model).contains("helper"), "the run's lanes are shown")
        for hint in hints { #expect(!screen(model).contains(hint), "after the run: \(hint)") }
        model.press(.character("n"))
        #expect(model.current == 2)
        let (page, pageBlocks) = (model.current, model.presentedBlocks.count)
        model.presenter?.revealed[page] = pageBlocks
        #expect(screen(model).contains("Deep dive"))
        for hint in hints { #expect(!screen(model).contains(hint), "on the deep dives' page: \(hint)") }
    }

    @Test("80×24 on stage with more lanes than fit: the timeline says how many are hidden, and the output keeps rows for its last lines and the ending")
    func manyLanesAt80() async throws {
        var model = try PresenterFixtures.model(width: 80, height: 24)
        var script = RunScript()
        for lane in 0..<10 {
            script.span(lane + 1, "client \(lane + 1)", from: Double(lane), to: 200, thread: RunScript.worker + Int32(lane), queue: RunScript.workerQueue)
        }
        for line in 0..<8 { script.print("client \(line + 1) read its name back", at: 210 + Double(line)) }
        script.end(.exited(code: 0), at: 300)
        _ = model.run(script)
        let layout = PresenterLayout(size: model.size, model: model)
        let output = try #require(layout.output)
        let timeline = try #require(layout.timeline)
        #expect(output.height >= PresenterLayout.outputMinimum)
        let screen = TourRenderer.render(model)
        #expect(screen.find("+", in: Rect(x: timeline.x, y: timeline.maxY - 1, width: timeline.width, height: 1)) != nil,
                "the timeline's border says how many lanes are hidden")
        #expect(screen.text(ofRow: timeline.maxY - 1).contains("lanes"))
        #expect(screen.find("ended normally", in: output) != nil)
        #expect(screen.find("client 8 read its name back", in: output) != nil)
    }

    @Test("On stage the lanes that ran spans come before the threads that only waited, so a short timeline shows the work")
    func workingLanesFirstOnStage() async throws {
        var model = try PresenterFixtures.model(width: 80, height: 24)
        var script = RunScript()
        // Six threads that only waited (sampled, never in a span), then two that worked.
        script.samples(from: 0, to: 100) { _ in (0..<6).map { ThreadStateReading(thread: RunScript.worker + 10 + Int32($0), state: .waiting) } }
        script.span(1, "the real work", from: 50, to: 200, thread: RunScript.worker, queue: RunScript.workerQueue)
        script.span(2, "more work", from: 60, to: 180, thread: RunScript.worker + 1, queue: RunScript.workerQueue)
        script.end(.exited(code: 0), at: 300)
        _ = model.run(script)
        let record = try #require(model.currentPage.record)
        let lanes = model.timelineLanes(record).lanes.map(\.key)
        #expect(Array(lanes.prefix(2)) == [.thread(RunScript.worker), .thread(RunScript.worker + 1)], "\(lanes)")
        let timeline = try #require(PresenterLayout(size: model.size, model: model).timeline)
        #expect(TourRenderer.render(model).find("the real work", in: timeline) != nil)
        model.press(.character("P"))
        #expect(model.timelineLanes(record).lanes.first?.key != .thread(RunScript.worker), "the tutorial keeps the threads' order")
    }

    @Test("P opens the presenter on the tutorial's page; Esc goes back to the tutorial")
    func fromTheTutorial() async throws {
        var model = try FixturePages.model()
        model.press(.character("n"))
        model.press(.character("P"))
        #expect(model.presenter != nil)
        #expect(model.current == 1)
        #expect(TourRenderer.render(model).find("Pages") == nil, "no sidebar on stage")
        model.press(.escape)
        #expect(model.presenter == nil)
    }

    @Test("A notice (the notes channel that could not open, say) is said on the presenter's last row")
    func noticeOnStage() async throws {
        var model = try PresenterFixtures.model(width: 80, height: 24)
        #expect(model.update(.notice("Speaker notes are off: the notes folder /x/tour belongs to another user")).isEmpty)
        #expect(model.notice == "Speaker notes are off: the notes folder /x/tour belongs to another user")
        let screen = TourRenderer.render(model)
        #expect(screen.find("Speaker notes are off") != nil)
    }

    @Test("120×40: the title and clock, the revealed blocks, then a finished run with its caption")
    func snapshots120() async throws {
        var model = try PresenterFixtures.model()
        model.press(.right, .right)
        Snapshot.expect(TourRenderer.render(model).lines, matches: "presenter-120-revealed")
        model.press(.character("+"))
        model.run(PresenterFixtures.stageRun)
        Snapshot.expect(TourRenderer.render(model).lines, matches: "presenter-120-after-run")
    }

    @Test("80×24: the same, still clear")
    func snapshots80() async throws {
        var model = try PresenterFixtures.model(width: 80, height: 24)
        model.press(.right, .right)
        Snapshot.expect(TourRenderer.render(model).lines, matches: "presenter-80-revealed")
        model.press(.character("+"))
        model.run(PresenterFixtures.stageRun)
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "presenter-80-after-run")
        #expect(screen.find(BigType.rows("width 1 → 2")[0]) != nil)
        #expect(screen.find("298.0 ms") != nil)
        #expect(screen.find("done") != nil)
    }
}

@Suite("Presenter playing a script", .bodiesBelowTheRunner)
struct PresenterScriptTests {
    static let script = """
        # a rehearsal
        page stage
        reveal 2
        note Wait for the laugh.
        set width 3
        run
        wait
        pause 10
        caption One at a time
        pause 5
        page queue
        """

    @Test("Steps play until one waits: a run waits for its end, wait for a key, pause for the clock; then the next page")
    func playback() async throws {
        var model = try PresenterFixtures.model(script: Self.script)
        // The first tick played page, reveal, note, set and run: the run is asked for with the script's knob.
        #expect(model.shown == 3)
        #expect(model.presenter?.caption?.text == "width 1 → 3")
        #expect(model.presenterSnapshot?.notes == ["Ask who has used a queue.", "Wait for the laugh."], "the note of the block the reveal passed, then the script's")
        #expect(model.presenter?.playback?.waiting == .run(page: 0, fromRunID: 1))
        #expect(model.currentPage.isRunning)
        #expect(model.currentPage.knobSettings == [KnobSetting(name: "width", value: "3")])
        // Keys do not skip the run.
        model.press(.right)
        #expect(model.presenter?.playback?.waiting == .run(page: 0, fromRunID: 1))
        let runID = try #require(model.currentPage.runID)
        for event in PresenterFixtures.stageRun.events { _ = model.update(.host(runID: runID, event)) }
        #expect(model.presenter?.playback?.waiting == .key)
        model.press(.right)
        let pauseEnds = try #require({ if case .clock(let time) = model.presenter?.playback?.waiting { time } else { nil } }())
        #expect(pauseEnds == PresenterFixtures.start + 10_000_000_000, "the run's times are older than the clock, which never goes back")
        _ = model.update(.tick(now: pauseEnds - 1))
        #expect(model.current == 0)
        _ = model.update(.tick(now: pauseEnds))
        #expect(model.presenter?.caption?.text == "One at a time")
        #expect(model.current == 0)
        // A script's caption stays as long as the script says, past a knob caption's five seconds: until its page step.
        let captionPauseEnds = pauseEnds + 5_000_000_000
        _ = model.update(.tick(now: captionPauseEnds - 1))
        #expect(model.presenter?.caption?.isShown(at: model.now) == true)
        _ = model.update(.tick(now: captionPauseEnds))
        #expect(model.presenter?.caption == nil, "the page step moved the room on")
        #expect(model.current == 1)
        #expect(model.presenter?.playback?.isFinished == true)
        #expect(model.notice == nil, "the room is not told the speaker's keys")
        // Then the speaker goes on by hand.
        model.press(.right)
        #expect(model.shown == 2)
    }

    @Test("The snapshot lists the knob changes the script makes before its next page")
    func upcomingKnobChanges() async throws {
        var model = try PresenterFixtures.model(script: """
            page stage
            wait
            set width 2
            set width 4
            page queue
            set width 3
            """)
        #expect(model.presenterSnapshot?.upcomingKnobChanges == ["width 1 → 2", "width 2 → 4"])
        model.press(.right)
        #expect(model.current == 1)
        #expect(model.presenterSnapshot?.upcomingKnobChanges == [])
    }

    @Test("A `seed` step gives the runs after it that seed, and `seed off` makes them random again")
    func seedStep() async throws {
        var model = try PresenterFixtures.model(script: "page stage\nwait\nseed 7\nrun\nseed off\nrun\n")
        func startedSeeds(_ effects: [TourEffect]) -> [UInt64?] {
            effects.compactMap { effect -> UInt64?? in if case .start(let order) = effect { .some(order.seed) } else { .none } }
        }
        #expect(model.presenter?.playback?.waiting == .key)
        #expect(startedSeeds(model.update(.key(.right))) == [7])
        let runID = try #require(model.currentPage.runID)
        // The run's end plays on: `seed off`, then the next run.
        let afterRun = PresenterFixtures.stageRun.events.flatMap { model.update(.host(runID: runID, $0)) }
            + model.update(.tick(now: PresenterFixtures.start + 1_000_000_000))
        #expect(startedSeeds(afterRun) == [nil])
        #expect(model.seed == nil)
    }

    @Test("The snapshot counts a pause down and says where the script's pauses put the clock")
    func pauseAndPlanInTheSnapshot() async throws {
        var model = try PresenterFixtures.model(script: "page stage\npause 30\nreveal 1\npause 20\nwait\n")
        #expect(model.presenterSnapshot?.pauseSecondsLeft == 30)
        #expect(model.presenterSnapshot?.plannedSeconds == 30)
        _ = model.update(.tick(now: PresenterFixtures.start + 12_500_000_000))
        #expect(model.presenterSnapshot?.pauseSecondsLeft == 18, "17.5 s left, rounded up")
        _ = model.update(.tick(now: PresenterFixtures.start + 30_000_000_000))
        #expect(model.presenterSnapshot?.plannedSeconds == 50)
        #expect(model.presenterSnapshot?.pauseSecondsLeft == 20)
        model.press(.character(" "))
        #expect(model.presenterSnapshot?.pauseSecondsLeft == nil, "waiting for a key, in no pause")
        #expect(try PresenterFixtures.model().presenterSnapshot?.plannedSeconds == nil, "no script, no plan")
    }

    @Test("A space cuts a pause short")
    func keyEndsPause() async throws {
        var model = try PresenterFixtures.model(script: "page stage\npause 30\nreveal all\n")
        #expect(model.shown == 1)
        model.press(.character(" "))
        #expect(model.shown == 5)
    }

    @Test("A script's talk is its pages: after its end, space stays on its last page instead of opening the next one")
    func theTalkStopsAtItsEnd() async throws {
        var model = try PresenterFixtures.model(script: "page stage\nreveal all\n")
        #expect(model.presenter?.order == [0])
        #expect(model.presenter?.playback?.isFinished == true)
        model.press(.character(" "))
        #expect(model.current == 0, "page 2 is not in the talk")
        #expect(model.notice == "This is the talk's last page.")
    }

    @Test("n and p take the script along: it plays on from its first step on the page moved to")
    func pageKeysMoveTheScript() async throws {
        var model = try PresenterFixtures.model(script: "page stage\nwait\nreveal 1\nwait\npage queue\nreveal 2\nwait\n")
        #expect(model.presenter?.playback?.line == 2)
        model.press(.character("n"))
        #expect(model.current == 1)
        #expect(model.shown == 3, "the queue page's own reveal played")
        #expect(model.presenter?.playback?.line == 7, "the script waits on the queue page's wait")
        model.press(.character("p"))
        #expect(model.current == 0)
        #expect(model.shown == 1)
        #expect(model.presenter?.playback?.line == 2)
    }

    @Test("A reveal of several blocks sends the speaker's notes of every block it passed")
    func revealManyKeepsEveryNote() async throws {
        let model = try PresenterFixtures.model(script: "page stage\nreveal 3\nwait\n")
        #expect(model.shown == 4)
        let blocks = model.presentedBlocks
        #expect(!blocks[1...2].flatMap(\.notes).isEmpty, "a passed block has a note")
        #expect(model.presenterSnapshot?.notes == blocks[1...3].flatMap(\.notes))
        #expect(model.presenterSnapshot?.notes.contains("Ask who has used a queue.") == true)
    }

    @Test("On a terminal too small for the talk, keys and pauses do not move the script on unseen; it goes on once the terminal is big enough")
    func tooSmallFreezesTheScript() async throws {
        var model = try PresenterFixtures.model(script: "page stage\nwait\nreveal 1\npause 5\nreveal 1\nwait\n")
        _ = model.update(.resize(Size(width: 60, height: 20)))
        model.press(.character(" "), .right, .character("n"))
        #expect(model.shown == 1)
        #expect(model.current == 0)
        #expect(model.presenter?.playback?.waiting == .key)
        _ = model.update(.resize(Size(width: 80, height: 24)))
        model.press(.character(" "))
        #expect(model.shown == 2)
        _ = model.update(.resize(Size(width: 60, height: 20)))
        _ = model.update(.tick(now: PresenterFixtures.start + 6_000_000_000))
        #expect(model.shown == 2, "the pause ended while the terminal was too small, and nothing was revealed")
        _ = model.update(.resize(Size(width: 80, height: 24)))
        #expect(model.shown == 3)
    }

    @Test("A script's end step shows the talk's end slide alone, in big type, and the talk stops there; ← goes back")
    func endSlide() async throws {
        var model = try PresenterFixtures.model(script: "page stage\nwait\nend Questions?\n")
        model.press(.character(" "))
        #expect(model.presenter?.endSlide == "Questions?")
        let screen = TourRenderer.render(model)
        #expect(screen.find(BigType.rows("Questions?")[0]) != nil)
        #expect(screen.find("Stage") == nil, "nothing of the page is left on the end slide")
        model.press(.character(" "), .right)
        #expect(model.presenter?.endSlide == "Questions?", "the talk stops at its end")
        #expect(model.current == 0)
        model.press(.left)
        #expect(model.presenter?.endSlide == nil)
        #expect(TourRenderer.render(model).find("Stage") != nil)
    }
}
