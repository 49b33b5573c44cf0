import Foundation
import Synchronization
import Testing
import TourCore
import TourTestSupport
import PageProtocol

/// Page 7 proves what it teaches about dispatch groups from its own trace.
@Suite("Page 7: Groups", .bodiesBelowTheRunner)
struct GroupsPageTests {
    static let speed = 10.0
    /// One run at a high speed factor serves the claims that do not need a knob.
    static let run = Task { await sharedRun(product: "Lesson07Groups", speed: speed) }

    static func mark(_ name: String) async throws -> Mark {
        let run = await Self.run.value
        return try #require(run.marks.first { $0.name == name }, "no mark named \(name)")
    }

    static func span(_ name: String) async throws -> (span: Span, end: UInt64) {
        let run = await Self.run.value
        let span = try #require(run.spans(named: name).first, "no span named \(name)")
        return (span, try #require(span.end))
    }

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func groupWaitReturnsOnlyAfterEveryBlockItCounted() async throws {
        let run = await Self.run.value
        let filters = run.spans.filter { $0.name.hasPrefix("tilt-shift ") }
        #expect(filters.count == 3)
        let done = try await Self.mark("all photos filtered")
        for filter in filters {
            #expect(try #require(filter.end) <= done.time, "\(filter.name) was still running when wait() returned")
        }
    }

    @Test func eachAnimationRunsForItsDurationOnTheQueueItWasGiven() async throws {
        let run = await Self.run.value
        let expected = [("move box", 1.0, "tour.groups.box"), ("turn box", 2.0, "tour.groups.box"),
                        ("change background", 4.0, "tour.groups.background")]
        for (name, seconds, queue) in expected {
            let (span, _) = try await Self.span(name)
            #expect(span.queue == queue)
            // Thirty frames a second, each waiting at least its frame time: never shorter than the duration.
            #expect(try #require(span.duration) >= seconds / Self.speed * 0.99, "\(name) was shorter than \(seconds) s")
            let frames = Int(seconds * 30)
            #expect(run.outputText.contains("\(name): done after \(frames) frames"))
        }
        #expect(try await Self.span("move box").span.thread != Self.span("change background").span.thread)
    }

    @Test func theTurnIsChainedAfterTheMoveAndTheBackgroundRunsMeanwhile() async throws {
        let move = try await Self.span("move box")
        let turn = try await Self.span("turn box")
        let background = try await Self.span("change background")
        #expect(move.end <= turn.span.start, "the turn starts from the move's completion handler")
        // Both were started together; the box's chain takes three seconds, so the margin is wide.
        #expect(background.span.start < turn.end, "the background animation runs alongside the box")
    }

    @Test func theChainedEnterComesBeforeTheLeaveItFollows() async throws {
        // So the group's count never reaches zero between the move and the turn.
        #expect(try await Self.mark("enter: turn box").time <= Self.mark("leave: move box").time)
    }

    @Test func notifyRunsAfterTheLastLeave() async throws {
        let run = await Self.run.value
        let notify = try await Self.mark("notify")
        let leaves = run.marks.filter { $0.name.hasPrefix("leave: ") }
        #expect(leaves.count == 3)
        for leave in leaves {
            #expect(leave.time <= notify.time, "notify ran before \(leave.name)")
        }
        #expect(run.outputText.contains("Animations completed"))
        #expect(notify.queue == "com.apple.main-thread")
        // After dispatchMain() the main queue is an ordinary serial queue, served by a pool thread.
        #expect(notify.thread != run.pid, "the notify block ran on the original main thread")
    }

    @Test func waitTimesOutFirstThenSucceeds() async throws {
        let run = await Self.run.value
        let waits = run.results.filter { $0.kind == .peek }.sorted { $0.line < $1.line }
        #expect(waits.map(\.text) == ["timedOut", "success"])
        // The successful wait came back only once the last animation had left the group.
        let lastLeave = try #require(run.marks.filter { $0.name.hasPrefix("leave: ") }.map(\.time).max())
        let success = try #require(waits.last)
        #expect(success.time >= lastLeave)
    }

    @Test func theSceneEndsWhereTheAnimationsTookIt() async {
        let run = await Self.run.value
        #expect(run.outputText.contains("The box is at (150, 150), turned 45°, on a blue background"))
    }

    @Test func framesAreMarkedSparinglyAndDoNotFloodTheOutput() async {
        let run = await Self.run.value
        // 210 frames were computed; the timeline gets a mark every fifteen, the output only milestones.
        let frameMarks = run.marks.filter { $0.name.contains(": frame ") }
        #expect(frameMarks.map(\.name).filter { $0.hasPrefix("move box") } == ["move box: frame 15 of 30"])
        #expect(frameMarks.filter { $0.name.hasPrefix("turn box") }.count == 3)
        #expect(frameMarks.filter { $0.name.hasPrefix("change background") }.count == 7)
        #expect(frameMarks.filter { $0.name.hasPrefix("change background") }.allSatisfy { $0.queue == "tour.groups.background" })
        #expect(run.output.count < 20)
    }

    /// A run with every trace event it sent, for the live view's frames, which the record itself ignores.
    static func runWithEvents(speed: Double) async -> (record: RunRecord, events: [PageEvent]) {
        let recorder = RunRecorder()
        let events = Mutex<[PageEvent]>([])
        await PageRunSlots.shared.withSlot {
            let run = PageRun.start(RunRequest(executable: BuildProducts.executable(named: "Lesson07Groups"), speed: speed)) { event in
                recorder.apply(event)
                if case .trace(let trace) = event { events.withLock { $0.append(trace) } }
            }
            await run.ended()
        }
        return (recorder.record, events.withLock { $0 })
    }

    /// At speed 4 the animations last a second, long enough for the pacing to show; the live view draws them all.
    static let animated = Task { await runWithEvents(speed: 4) }

    @Test func theAnimationIsDrawnAtAboutThirtyFramesASecond() async throws {
        let animated = await Self.animated.value
        let (record, events) = animated
        #expect(record.ending == .exited(code: 0))
        #expect(record.rejectedTraceLines == 0, "every frame fits on a line")
        let frames = events.filter(\.isFrame)
        var state = LiveViewState()
        frames.forEach { state.apply($0) }
        #expect(state.rejectedPictures == 0)
        #expect(state.frame?.width == 96 && state.frame?.height == 96)
        // Four seconds at speed 4: about 30 frames, plus one flushed at the end of each animation.
        let first = try #require(frames.first).time, last = try #require(frames.last).time
        let seconds = Double(last - first) / 1e9
        #expect(frames.count >= 15, "\(frames.count) frames in \(seconds) s")
        // Unpaced, the three animations would send their 210 frames (30 per second of their 7 s) in that second; the margin covers the three
        // flushes and a late timer on a loaded machine (35 frames in 0.99 s were seen once), not a missing pacer.
        #expect(Double(frames.count) <= seconds * 30 + 10, "\(frames.count) frames in \(seconds) s: faster than 30 a second")
    }

    @Test func notifyComesAfterTheLastFrameWhichShowsTheFinalScene() async throws {
        let animated = await Self.animated.value
        let (record, events) = animated
        let notify = try #require(record.marks.first { $0.name == "notify" })
        let lastFrame = try #require(events.last { $0.isFrame })
        #expect(lastFrame.time <= notify.time, "a frame was drawn after the group notified")
        let frame = try LiveFrame.decode(try #require(lastFrame.framePicture)).get()
        // The background ends blue, and the box sits at (150, 150) of 200 points: pixel (72, 72) of 96.
        #expect(frame.pixel(x: 0, y: 0) == (25, 51, 204))
        #expect(frame.pixel(x: 72, y: 72) == (250, 220, 60))
        // Turned by 45°, the box reaches its corners' old places no more: (150 ± 19, 150 ± 19) is background.
        #expect(frame.pixel(x: 81, y: 63) == (25, 51, 204))
        #expect(record.outputText.contains("Animations completed"))
    }

    @Test func runAloneThePagePrintsNoFrames() async throws {
        // Without the host there is no live view: the page narrates its milestones and sends nothing.
        // A page run in a slot of its own, read and waited for on a thread of its own (the reads block).
        let (text, status) = try await PageRunSlots.shared.withSlot(label: "Lesson07Groups alone ×10") {
            try await awaitBlocking("page-alone") {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: "Lesson07Groups"))
                process.arguments = ["--speed", "10"]
                process.standardError = FileHandle.nullDevice
                let text = String(decoding: try process.runCapturingOutput(withErrors: false), as: UTF8.self)
                return (text, process.terminationStatus)
            }
        }
        #expect(status == 0)
        let lines = text.split(separator: "\n")
        #expect(lines.contains("Animations completed"))
        #expect(lines.count < 60, "\(lines.count) lines")
        #expect(lines.allSatisfy { $0.count < 200 && !$0.contains("\"px\"") })
    }

    @Test(arguments: [1, 4])
    func photosKnobSetsHowManyFiltersTheGroupWaitsFor(count: Int) async throws {
        let run = await recordRun(product: "Lesson07Groups", knobs: [("photos", "\(count)")], speed: 20)
        let filters = run.spans.filter { $0.name.hasPrefix("tilt-shift ") }
        #expect(filters.count == count)
        #expect(run.ending == .exited(code: 0))
        let waited = try #require(run.output.first { $0.text.hasPrefix("The group waited ") })
        #expect(waited.text.hasSuffix(" for \(count) filter\(count == 1 ? "" : "s") on \(coresOfThisProcess()) cores"))
        let lastFilterEnd = try #require(filters.compactMap(\.end).max())
        #expect(waited.time >= lastFilterEnd, "the group's wait returned before the last filter was done")
    }

    /// What the `photos` callout promises: the filters are real computing work, so once the photos outnumber the cores
    /// the group waits longer. The shortest of three runs of each setting stands for it, and the runs take turns (one,
    /// four, one, four…), so a spell of load from the tests beside it slows both settings alike rather than one of
    /// them; four filters on two cores need twice one filter's computing per core, and 1.3 leaves room. Each run may
    /// use two CPUs only (one on a machine of one), so four photos outnumber its cores on a machine of any size.
    @Test func morePhotosThanCoresMakeTheGroupWaitLonger() async throws {
        // Six runs one after another: each after the first asks for its slot as a follow-up (`PageRunSlots`).
        func wait(photos: Int, urgency: PageRunSlots.Urgency) async throws -> Double {
            let run = await recordRun(product: "Lesson07Groups", knobs: [("photos", "\(photos)")], speed: 20, urgency: urgency,
                                      cpus: 2)
            let cores = min(2, coresOfThisProcess())
            let waited = try #require(run.outputText.first { $0.hasPrefix("The group waited ") })
            #expect(waited.hasSuffix(" on \(cores) cores"), "the run had \(cores) cores: \(waited)")
            let filters = run.spans.filter { $0.name.hasPrefix("tilt-shift ") }
            let start = try #require(filters.map(\.start).min())
            let done = try #require(run.marks.first { $0.name == "all photos filtered" })
            return Double(done.time - start) / 1e9
        }
        var ones: [Double] = []
        var fours: [Double] = []
        for round in 1...3 {
            ones.append(try await wait(photos: 1, urgency: round == 1 ? .normal : .followUp))
            fours.append(try await wait(photos: 4, urgency: .followUp))
        }
        let one = try #require(ones.min())
        let four = try #require(fours.min())
        #expect(four >= one * 1.3, "one photo: \(ones) s, four photos: \(fours) s")
    }

    @Test func anUnbalancedLeaveIsTrappedByLibdispatch() async {
        let run = await recordRun(product: "Lesson07Groups", knobs: [("unbalancedLeave", "true")], speed: Self.speed)
        #expect(run.ending == .dispatchTrap)
        #expect(run.expectation?.ending == .crash)
        #expect(run.endedAsExpected)
        #expect(run.ending?.explanation.contains("leave()") == true)
        #expect(!run.outputText.contains { $0.hasPrefix("Done:") })
    }
}

private extension PageEvent {
    /// The picture of a `frame` event; nil for any other kind.
    var framePicture: PagePicture? {
        if case .frame(let picture) = kind { picture } else { nil }
    }

    var isFrame: Bool { framePicture != nil }
}
