import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 2 proves what it teaches from its own trace: each test reads the events of a real run.
@Suite("Page 2: Queue")
struct QueuePageTests {
    /// The page with its default knobs.
    static let run = recordRun(product: "Lesson02Queue", speed: 10)
    /// The page with every knob turned the other way, in one run to keep the suite fast.
    static let turned = recordRun(product: "Lesson02Queue", knobs: [
        ("maxConcurrentOperationCount", "1"), ("workload", "computing"),
        ("previewPriority", "veryLow"), ("serialQoSQueue", "true"),
    ], speed: 10)

    static let photoCount = 6

    @Test func endsNormallyAsItSays() {
        for run in [Self.run, Self.turned] {
            #expect(run.ending == .exited(code: 0))
            #expect(run.endedAsExpected)
            #expect(run.outputText.last?.hasPrefix("Done:") == true)
        }
    }

    @Test func theQueueRunsEveryFilterOnItsOwnThreads() throws {
        let filters = Self.filterSpans(in: Self.run)
        try #require(filters.count == Self.photoCount)
        #expect(filters.allSatisfy { $0.thread != Self.run.pid }, "addOperation hands the work to the queue's threads")
        #expect(Self.run.outputText.contains("\(Self.photoCount) of \(Self.photoCount) photos filtered, at most 2 at a time, in " + Self.batchTime(in: Self.run)))
    }

    @Test func maxConcurrentOperationCountBoundsTheOverlap() throws {
        let wide = Self.filterSpans(in: Self.run)
        let serial = Self.filterSpans(in: Self.turned)
        try #require(wide.count == Self.photoCount && serial.count == Self.photoCount)
        #expect(Self.mostAtOnce(wide) <= 2)
        #expect(Self.mostAtOnce(serial) == 1, "with a width of 1 no two filters overlap")
    }

    @Test func sleepingJobsUseAlmostNoCPU() throws {
        let jobs = Self.run.spans.filter { $0.name.hasPrefix("sleeping job ") }
        #expect(jobs.count == 8)
        let usage = try #require(Self.cpuUsage(in: Self.run))
        let sleptSeconds = jobs.compactMap(\.duration).reduce(0, +)
        #expect(usage.cpuSeconds < sleptSeconds / 10, "a thread that waits does not compute")
    }

    @Test func computingJobsAreCappedByTheCores() throws {
        let jobs = Self.turned.spans.filter { $0.name.hasPrefix("computing job ") }
        #expect(jobs.count == 8)
        let usage = try #require(Self.cpuUsage(in: Self.turned))
        #expect(usage.cpuSeconds > 0)
        // The printed average is rounded to two decimals.
        #expect(usage.busyCores <= Double(usage.cores) + 0.01, "no more cores can be busy than the machine has")
    }

    @Test func higherQueuePriorityStartsFirst() {
        #expect(Self.startOrder(of: ["backup", "filter", "preview"], in: Self.run) == ["preview", "filter", "backup"])
        // At veryLow the preview ties with the backup, and the one added first wins.
        #expect(Self.startOrder(of: ["backup", "filter", "preview"], in: Self.turned) == ["filter", "backup", "preview"])
    }

    @Test func qualityOfServiceOrdersOnlyAQueueWiderThanOne() throws {
        let classes = ["background", "utility", "userInitiated", "userInteractive"]
        let wide = Self.startOrder(of: classes, in: Self.run)
        try #require(wide.count == 4)
        #expect(Set(wide.prefix(2)) == ["userInteractive", "userInitiated"], "the two most urgent fill both slots")
        // The other two are picked as slots free up: each only after that many jobs have ended their work.
        let bodyEnds = Self.run.spans.filter { $0.name.hasSuffix(" at work") }.compactMap(\.end)
        for (name, slotsFreed) in [("utility", 1), ("background", 2)] {
            let start = try #require(Self.run.operations.first { $0.name == name }?.firstTime(of: .executing))
            #expect(bodyEnds.filter { $0 < start }.count >= slotsFreed)
        }
        #expect(Self.startOrder(of: classes, in: Self.turned) == classes, "on a serial queue they start in the order added")
    }

    @Test func qualityOfServiceLeavesTheThreadAlone() {
        for run in [Self.run, Self.turned] {
            let reports = run.outputText.filter { $0.contains("Thread.current.qualityOfService") }
            #expect(reports.count == 4)
            #expect(reports.allSatisfy { $0.hasSuffix("nice 0, Thread.current.qualityOfService = default") })
        }
    }

    @Test func aSuspendedQueueStartsNothingNewUntilResumed() throws {
        let run = Self.run
        let suspended = try #require(run.marks.first { $0.name == "queue suspended" }?.time)
        let resumed = try #require(run.marks.first { $0.name == "queue resumed" }?.time)
        let starts = try (1...4).map { number in
            try #require(run.operations.first { $0.name == "download \(number)" }?.firstTime(of: .executing))
        }
        #expect(starts[0] < suspended, "the page suspends the queue once the first download runs")
        // A download handed to a thread just before the suspension may still begin; the queue's width is 1.
        #expect(starts.filter { $0 > suspended && $0 < resumed }.count <= 1)
        #expect(starts[2] > resumed && starts[3] > resumed)
        for number in 1...4 {
            #expect(run.operations.first { $0.name == "download \(number)" }?.changes.last?.state == .finished)
        }
    }

    @Test func cancelAllLetsTheRunningOperationFinishAndSkipsTheRest() throws {
        let run = Self.run
        let cancelled = try #require(run.marks.first { $0.name == "cancelAllOperations" }?.time)
        let firstUpload = try #require(run.operations.first { $0.name == "upload 1" })
        #expect(try #require(firstUpload.firstTime(of: .executing)) < cancelled)
        #expect(run.spans.filter { $0.name.hasPrefix("upload 1 part ") }.count == 3, "the running upload ran its body to the end")
        let bodyEnd = try #require(run.spans(named: "upload 1 part 3").first?.end)
        for number in 2...5 {
            let upload = try #require(run.operations.first { $0.name == "upload \(number)" })
            let states = upload.changes.map(\.state)
            #expect(states.contains(.cancelled) && states.contains(.finished))
            #expect(!states.contains(.executing), "upload \(number) never ran its main()")
            #expect(!run.spans.contains { $0.name.hasPrefix("upload \(number) part") })
            let completion = try #require(run.marks.first { $0.name == "completion block of upload \(number)" })
            #expect(completion.time > bodyEnd, "the cancelled uploads waited for the running one's slot")
        }
        #expect(run.marks.filter { $0.name.hasPrefix("completion block of upload ") }.count == 5)
    }

    @Test func knobsAreAnnounced() {
        let names = Self.turned.knobs.map(\.name)
        #expect(names == ["maxConcurrentOperationCount", "workload", "previewPriority", "serialQoSQueue"])
        #expect(Self.turned.knobs.first { $0.name == "workload" }?.value == "computing")
    }

    // MARK: - Reading the trace

    static func filterSpans(in run: RunRecord) -> [Span] {
        run.spans.filter { $0.name.hasPrefix("filtering ") }
    }

    /// The text `duration` showed beside the batch's wait, which the page also prints.
    static func batchTime(in run: RunRecord) -> String {
        let filtersEnd = filterSpans(in: run).compactMap(\.end).max() ?? 0
        return run.results.filter { $0.kind == .duration && $0.time >= filtersEnd }.first?.text ?? "?"
    }

    /// The names among `names`, ordered by when each operation began executing.
    static func startOrder(of names: [String], in run: RunRecord) -> [String] {
        names.compactMap { name in run.operations.first { $0.name == name }.flatMap { op in op.firstTime(of: .executing).map { (name, $0) } } }
            .sorted { $0.1 < $1.1 }
            .map(\.0)
    }

    struct CPUUsage {
        var cpuSeconds: Double
        var busyCores: Double
        var cores: Int
    }

    /// Reads "CPU used: 0.337 s, 0.98 cores busy on average; this machine has 2 cores".
    static func cpuUsage(in run: RunRecord) -> CPUUsage? {
        guard let line = run.outputText.first(where: { $0.hasPrefix("CPU used: ") }) else { return nil }
        let numbers = line.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        guard numbers.count == 3 else { return nil }
        return CPUUsage(cpuSeconds: numbers[0], busyCores: numbers[1], cores: Int(numbers[2]))
    }

    /// The largest number of `spans` open at one instant.
    static func mostAtOnce(_ spans: [Span]) -> Int {
        let edges = spans.flatMap { span in [(span.start, 1), (span.end ?? .max, -1)] }
        // At equal times an end comes before a start: touching spans do not overlap.
        let ordered = edges.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var open = 0, most = 0
        for edge in ordered {
            open += edge.1
            most = max(most, open)
        }
        return most
    }
}
