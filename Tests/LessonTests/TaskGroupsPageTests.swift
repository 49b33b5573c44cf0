import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 10 proves what it teaches about task groups from its own trace.
@Suite("Page 10: Task groups", .bodiesBelowTheRunner)
struct TaskGroupsPageTests {
    static let speed = 5.0
    /// One run with the default knobs serves most claims.
    static let run = Task { await recordRun(product: "Lesson10TaskGroups", speed: speed) }
    /// Every knob turned: a group one wide, and no child that fails.
    static let turned = Task {
        await recordRun(product: "Lesson10TaskGroups", knobs: [("groupWidth", "1"), ("failingChild", "false")], speed: speed)
    }

    static let photoNames = ["astronaut", "chelsea", "coffee", "hubble", "retina", "rocket"]
    static let poolWidth = sysconf(Int32(_SC_NPROCESSORS_CONF))

    static func span(_ name: String, in run: RunRecord) throws -> (span: Span, end: UInt64) {
        let span = try #require(run.spans(named: name).first, "no span named \(name)")
        return (span, try #require(span.end, "\(name) never ended"))
    }

    static func mark(_ name: String, in run: RunRecord) throws -> Mark {
        try #require(run.marks.first { $0.name == name }, "no mark named \(name)")
    }

    /// The spans whose names start with `prefix` that began inside `outer`.
    static func spans(_ prefix: String, inside outer: (span: Span, end: UInt64), of run: RunRecord) -> [Span] {
        run.spans.filter { $0.name.hasPrefix(prefix) && $0.start >= outer.span.start && $0.start < outer.end }
    }

    @Test func endsNormallyAsItSays() async {
        for run in [await Self.run.value, await Self.turned.value] {
            #expect(run.ending == .exited(code: 0))
            #expect(run.endedAsExpected)
            #expect(run.outputText.last?.hasPrefix("Done:") == true)
        }
    }

    @Test func aGroupHandsOverEachResultOnceItsChildFinishedAndOutlivesEveryChild() async throws {
        let run = await Self.run.value
        let group = try Self.span("withTaskGroup", in: run)
        let filters = Self.spans("tilt-shift ", inside: group, of: run)
        try #require(filters.count == Self.photoNames.count)
        #expect(filters.allSatisfy { ($0.end ?? .max) <= group.end }, "withTaskGroup returned before a child ended")
        let arrivals = run.marks.filter { $0.name.hasPrefix("arrived: ") }
        #expect(arrivals.count == Self.photoNames.count)
        for arrival in arrivals {
            let name = String(arrival.name.dropFirst("arrived: ".count))
            let filter = try #require(filters.first { $0.name == "tilt-shift \(name)" })
            #expect(try #require(filter.end) <= arrival.time, "\(name) arrived before its child had filtered it")
        }
        let names = arrivals.map { String($0.name.dropFirst("arrived: ".count)) }
        #expect(run.outputText.contains("Filtered in the order they finished: \(names.joined(separator: ", "))"))
    }

    @Test func aGroupsChildrenRunOnTheGlobalExecutorsQueue() async throws {
        let run = await Self.run.value
        let filters = Self.spans("tilt-shift ", inside: try Self.span("withTaskGroup", in: run), of: run)
        try #require(!filters.isEmpty)
        #expect(filters.allSatisfy { $0.queue == "Swift global concurrent queue" }, "\(Set(filters.map(\.queue)))")
    }

    @Test func aGroupLimitedByHandRunsNoMoreThanItsWidthAtOnce() async throws {
        for (run, width) in [(await Self.run.value, 2), (await Self.turned.value, 1)] {
            let group = try Self.span("group of width \(width)", in: run)
            let downloads = Self.spans("download ", inside: group, of: run)
            try #require(downloads.count == Self.photoNames.count)
            let widest = try #require(run.mostAtOnce(downloads)).count
            #expect(widest == width, "width \(width) ran \(widest) downloads at once")
            #expect(run.outputText.contains("The group of width \(width) ran at most \(widest) downloads at once"))
        }
    }

    @Test func asyncLetRunsBothDownloadsAtOnce() async throws {
        let run = await Self.run.value
        let scope = try Self.span("async let", in: run)
        let coffee = try #require(Self.spans("download coffee", inside: scope, of: run).first)
        let chelsea = try #require(Self.spans("download chelsea", inside: scope, of: run).first)
        #expect(run.ranTogether(coffee, chelsea))
        let ends = [try #require(coffee.end), try #require(chelsea.end)]
        #expect(ends.allSatisfy { $0 <= scope.end }, "both downloads ended inside the async let scope")
    }

    @Test func oneChildThrowsAndTheGroupCancelsItsSiblingsAndWaitsForThem() async throws {
        let run = await Self.run.value
        let group = try Self.span("withThrowingTaskGroup", in: run)
        let thrown = try Self.mark("upload throws", in: run)
        let sleeper = try Self.span("sleeper", in: run)
        #expect(try Self.mark("sleeper cancelled", in: run).time >= thrown.time)
        #expect(sleeper.end >= thrown.time && Double(sleeper.end - sleeper.span.start) / 1e9 < 2 / Self.speed,
                "the sleeper's Task.sleep ended early, when the group cancelled it")
        let stop = try #require(run.marks.first { $0.name.hasPrefix("worker saw cancellation before chunk ") })
        #expect(stop.time >= thrown.time)
        let chunks = Self.spans("worker chunk ", inside: group, of: run)
        #expect(chunks.count < 10, "the worker stopped before its last chunk")
        #expect(chunks.allSatisfy { $0.start < stop.time }, "no chunk began after the worker saw the cancellation")
        let lastChunk = try #require(chunks.max { $0.start < $1.start })
        #expect(stop.name == "worker saw cancellation before chunk \(chunks.count + 1)")
        #expect(try #require(lastChunk.end) <= stop.time, "the chunk in progress ran to its end first")
        #expect(sleeper.end <= group.end && stop.time <= group.end, "the error left the group only after its children ended")
        #expect(run.outputText.contains("withThrowingTaskGroup: the group threw serverRefused, after its other children ended"))
        // The prose leaves the siblings' fate to the prediction; the run explains it, in its own output.
        #expect(run.outputText.contains { $0.hasPrefix("When the error left the group's closure, the group cancelled the children still running and waited for them.") })
    }

    @Test func withoutAFailingChildEveryChildRunsToItsEnd() async throws {
        let run = await Self.turned.value
        #expect(!run.marks.contains { $0.name == "upload throws" || $0.name == "sleeper cancelled" })
        let group = try Self.span("withThrowingTaskGroup", in: run)
        #expect(Self.spans("worker chunk ", inside: group, of: run).count == 10)
        #expect(run.outputText.contains("withThrowingTaskGroup: every child finished"))
        #expect(!run.outputText.contains { $0.hasPrefix("When the error left the group's closure") }, "no error, nothing to explain")
    }

    static let ways = ["operations", "GCD", "task group"]

    @Test func theThreeWaysRunAsPhasesOneAfterAnother() async throws {
        let run = await Self.run.value
        #expect(run.phases.map(\.name) == Self.ways)
        let ends = try run.phases.map { try #require($0.end, "\($0.name) never ended") }
        #expect(zip(ends, run.phases.dropFirst()).allSatisfy { $0 <= $1.start }, "one after another, so a span belongs to one way")
    }

    @Test func eachWayHandsEachPhotoFromItsDownloadToItsFilterAndSaysHowManyHopped() async throws {
        let run = await Self.run.value
        for summary in run.phaseSummaries() {
            let way = summary.phase.name
            let downloads = summary.work.filter { $0.name.hasPrefix("\(way): download ") }
            let filters = summary.work.filter { $0.name.hasPrefix("\(way): tilt-shift ") }
            try #require(downloads.count == Self.photoNames.count && filters.count == Self.photoNames.count, "\(way)")
            #expect(summary.work.count == downloads.count + filters.count, "\(way) traced nothing but its steps")
            #expect(summary.handOffs.map(\.name).sorted() == Self.photoNames.map { "hand-off \($0)" }, "\(way): one hand-off a photo")
            for name in Self.photoNames {
                let download = try #require(downloads.first { $0.name == "\(way): download \(name)" })
                let filter = try #require(filters.first { $0.name == "\(way): tilt-shift \(name)" })
                let handOff = try #require(summary.handOffs.first { $0.name == "hand-off \(name)" })
                // The hand-off ends where the filter starts, on the thread that filters.
                #expect((handOff.end ?? .max) <= filter.start && handOff.endThread == filter.thread, "\(way) \(name)")
                if way == "task group" {
                    // The timer's callback made it ready and resumed the child, whose download span then ended on the
                    // thread that goes on to filter.
                    #expect(handOff.start <= (download.end ?? 0) && download.endThread == filter.thread, "\(name)")
                } else {
                    // Ready on the thread that downloaded, once the download's wait was over.
                    #expect(handOff.thread == download.thread && handOff.start >= (download.end ?? .max), "\(way) \(name)")
                }
            }
            let line = try #require(run.outputText.first { $0.hasPrefix("\(way): ") }, "no line for \(way)")
            let inFlight = try #require(run.mostAtOnce(downloads)).count
            let filtering = try #require(run.mostAtOnce(filters)).count
            #expect(line.hasSuffix(" on \(summary.threads.count) threads, at most \(inFlight) downloads in flight and \(filtering) filters at once; \(summary.hops.count) of its \(summary.handOffs.count) hand-offs hopped to another thread"), "\(line)")
            if way == "GCD" {
                #expect(downloads.allSatisfy { $0.queue == "com.apple.root.default-qos" } && filters.allSatisfy { $0.queue == "com.apple.root.default-qos" })
            }
            if way == "task group" {
                #expect(inFlight == Self.photoNames.count, "every child's download waited at once")
                #expect(filtering <= Self.poolWidth, "the pool filtered no more than its width at once")
                #expect((downloads + filters).allSatisfy { $0.queue == "Swift global concurrent queue" })
            }
        }
    }
}
