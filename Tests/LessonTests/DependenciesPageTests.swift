import Foundation
import Testing
import TourCore
import PageProtocol
import TourTestSupport

/// Page 4 proves what it teaches from its own trace: each test reads the events of a real run.
@Suite("Page 4: Dependencies", .bodiesBelowTheRunner)
struct DependenciesPageTests {
    /// The speed of both runs: fast, and not 1, so that every printed wait must name its real length too.
    static let speed = 4.0
    /// The page with its default knobs.
    static let run = Task { await sharedRun(product: "Lesson04Dependencies", speed: speed) }
    /// Dependents that do not check, a short link that leads nowhere, and the cycle, which ends the run.
    static let turned = Task { await recordRun(product: "Lesson04Dependencies", knobs: [
        ("checkDependencies", "false"), ("shortLink", "broken"), ("makeCycle", "true"),
    ], speed: speed, stuckAfter: 2) } // Above a 400×300 tilt-shift's silent computing on a loaded machine (0.4 s measured).

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func eachLinkOfTheChainStartsOnlyAfterTheOneBeforeFinishedItsWork() async throws {
        let run = await Self.run.value
        for photo in ["coffee", "rocket"] {
            let loaded = try await Self.time(of: .finished, for: "load \(photo)")
            let filterStart = try await Self.time(of: .executing, for: "tilt-shift \(photo)")
            #expect(loaded < filterStart, "the filter waited for the download of \(photo)")
            let filtered = try #require(run.spans(named: "filtering for tilt-shift \(photo)").first?.end)
            #expect(filtered < (try await Self.time(of: .executing, for: "show \(photo)")))
        }
    }

    @Test func theImageTravelsAlongTheChain() async {
        let run = await Self.run.value
        let shown = run.outputText.filter { $0.contains(#/^show (coffee|rocket): \d+×\d+, detail /#) }
        #expect(shown.count == 2, "each display found the filtered image through its dependency")
    }

    /// At 4× the printed download time names its real length, and the trace measures that length.
    @Test func thePrintedDownloadTimeIsTheMeasuredOne() async throws {
        let run = await Self.run.value
        #expect(run.outputText.contains("Each photo downloads in 0.5 s at 1×, 125 ms at 4×; the chain takes that and its filter"))
        let downloads = run.spans.filter { $0.name.hasPrefix("network load ") }
        #expect(downloads.count == 3, "coffee, rocket and chelsea; the cancelled retina never downloads")
        for download in downloads {
            let duration = try #require(download.duration)
            // Never shorter than the wait at 4×, and shorter than the same wait at 1×: a loaded machine may wake the
            // thread late, but not by three times the wait.
            #expect(duration >= 0.125 * 0.98 && duration < 0.125 * Self.speed, "\(download.name) lasted \(duration) s")
        }
        let chain = try #require(run.results.first { $0.kind == .duration }?.seconds)
        #expect(chain >= 0.125 * 0.98, "the first chain waited for its download")
    }

    @Test func theDependenciesAreReportedAsDeclared() async {
        let run = await Self.run.value
        let pairs = Set(run.dependencies.map { "\($0.operationName) ← \($0.dependencyName)" })
        #expect(pairs.isSuperset(of: [
            "tilt-shift coffee ← load coffee", "show coffee ← tilt-shift coffee",
            "tilt-shift rocket ← load rocket", "show rocket ← tilt-shift rocket",
            "tilt-shift chelsea ← load chelsea", "blur chelsea ← load chelsea",
            "compare chelsea ← load chelsea", "compare chelsea ← tilt-shift chelsea", "compare chelsea ← blur chelsea",
            "fetch title ← expand https://short.example/ops",
        ]))
    }

    @Test func aDependencyCrossesQueues() async throws {
        let run = await Self.run.value
        let filter = try #require(run.spans(named: "tilt-shift rocket").first)
        #expect(filter.queue == "filters")
        #expect(try await Self.time(of: .finished, for: "load rocket") < filter.start)
    }

    /// `addOperations(_:waitUntilFinished: true)` returns once the operations it added have finished, and those wait
    /// for the download on the other queue.
    @Test func addingOperationsAndWaitingReturnsOnceTheyFinished() async throws {
        let run = await Self.run.value
        let wait = try #require(run.spans(named: "addOperations waitUntilFinished").first)
        #expect(wait.thread == run.pid)
        let waitEnd = try #require(wait.end)
        #expect(wait.start < (try await Self.time(of: .finished, for: "load rocket")), "it was waiting while the download ran")
        for name in ["tilt-shift rocket", "show rocket"] {
            let finished = try await Self.time(of: .finished, for: name)
            #expect(wait.start < finished && finished <= waitEnd, "it returned only after \(name) finished")
        }
    }

    /// Counted from the affinity mask, as page 2 teaches: a process started under `taskset -c 0` gets a queue one wide.
    @Test func theFiltersQueueIsAsWideAsTheCoresThisProcessMayUse() async {
        let run = await Self.run.value
        #expect(run.outputText.contains("The filters queue runs up to \(coresOfThisProcess()) at once, one per core this process may use"))
    }

    @Test func aGraphFansOutAndBackIn() async throws {
        let run = await Self.run.value
        let loaded = try await Self.time(of: .finished, for: "load chelsea")
        for filter in ["tilt-shift chelsea", "blur chelsea"] {
            #expect(loaded < (try await Self.time(of: .executing, for: filter)), "\(filter) waited for the shared download")
        }
        let compareStart = try await Self.time(of: .executing, for: "compare chelsea")
        for filter in ["tilt-shift chelsea", "blur chelsea"] {
            let workEnd = try #require(run.spans(named: "filtering for \(filter)").first?.end)
            #expect(workEnd < compareStart, "the comparison waited for \(filter)")
        }
        #expect(run.outputText.filter { $0.hasPrefix("compare: ") }.count == 3)
    }

    /// Both filters become ready the moment the shared download lands, and a filters queue as wide as the cores
    /// runs them at once: tens of milliseconds of real work each, so their spans overlap by far more than the moment
    /// a loaded machine may take to wake the second thread.
    @Test(.enabled(if: coresOfThisProcess() >= 2,
                   "one processor: the filters queue is one wide, so the two filters take turns"))
    func theFannedOutFiltersRunSideBySide() async throws {
        let run = await Self.run.value
        let tiltShift = try #require(run.spans(named: "filtering for tilt-shift chelsea").first)
        let blur = try #require(run.spans(named: "filtering for blur chelsea").first)
        #expect(tiltShift.thread != blur.thread)
        let overlapStart = max(tiltShift.start, blur.start)
        let overlapEnd = min(try #require(tiltShift.end), try #require(blur.end))
        #expect(overlapStart < overlapEnd, "the two filters ran at the same time")
    }

    /// The page's reading of the comparison: the tilt-shift leaves the middle row as downloaded and softens the top,
    /// the blur softens both.
    @Test func theComparisonShowsWhereEachFilterWorked() async throws {
        let original = try await Self.detail(of: "load chelsea")
        let tiltShifted = try await Self.detail(of: "tilt-shift chelsea")
        let blurred = try await Self.detail(of: "blur chelsea")
        #expect(tiltShifted.middle == original.middle)
        #expect(tiltShifted.top < original.top)
        #expect(blurred.top < original.top && blurred.middle < original.middle)
    }

    @Test func dependentsOfACancelledOperationStillRun() async throws {
        let turned = await Self.turned.value
        for run in [(await Self.run.value), turned] {
            for name in ["tilt-shift retina", "show retina"] {
                let states = try #require(run.operations.first { $0.name == name }).changes.map(\.state)
                #expect(states.contains(.executing), "\(name) ran although its dependency was cancelled")
            }
            #expect(!run.spans.contains { $0.name == "filtering for tilt-shift retina" })
        }
    }

    @Test func checkingDependenciesPassesTheCancellationDownTheChain() async throws {
        let run = await Self.run.value
        for name in ["tilt-shift retina", "show retina"] {
            let states = try #require(run.operations.first { $0.name == name }).changes.map(\.state)
            #expect(states.contains(.cancelled))
        }
        #expect(run.outputText.contains("tilt-shift retina: skipped, load retina was cancelled"))
        #expect(run.outputText.contains("show retina: skipped, tilt-shift retina was cancelled"))
    }

    @Test func withoutTheCheckTheChainRunsOnNothing() async throws {
        let turned = await Self.turned.value
        for name in ["tilt-shift retina", "show retina"] {
            let states = try #require(turned.operations.first { $0.name == name }).changes.map(\.state)
            #expect(!states.contains(.cancelled))
        }
        #expect(turned.outputText.contains("tilt-shift retina: no image to filter"))
        #expect(turned.outputText.contains("show retina: nothing to show"))
    }

    @Test func typedLinksHandTheirOutputOn() async throws {
        let run = await Self.run.value
        #expect(run.outputText.contains("expand https://short.example/ops: https://articles.example/asynchronous-operations"))
        #expect(run.outputText.contains("fetch title: Asynchronous programming with operations"))
        let expanded = try await Self.time(of: .finished, for: "expand https://short.example/ops")
        #expect(expanded < (try await Self.time(of: .executing, for: "fetch title")))
    }

    @Test func aFailedLinkLeavesTheNextWithoutInput() async {
        let turned = await Self.turned.value
        #expect(turned.outputText.contains("expand https://short.example/nope failed: the shortener does not know https://short.example/nope"))
        #expect(turned.outputText.contains("fetch title failed: nothing to work on: the link before it failed"))
    }

    @Test func aCycleNeverRunsAndIsNamed() async throws {
        let turned = await Self.turned.value
        let run = turned
        let stall = try #require(run.stall, "expected the run to be stuck, got \(String(describing: run.ending))")
        #expect(Set(stall.dependencyCycle) == ["compress", "upload"])
        #expect(stall.dependencyCycle.first == stall.dependencyCycle.last, "the cycle closes on itself")
        for name in ["compress", "upload"] {
            #expect(!(run.operations.first { $0.name == name }?.changes.contains { $0.state == .executing } ?? false))
        }
        #expect(run.expectation?.ending == .stuck)
        #expect(run.endedAsExpected)
        #expect(run.ending?.explanation.contains("cycle") == true)
    }

    @Test func knobsAreAnnounced() async {
        let run = await Self.run.value
        let turned = await Self.turned.value
        #expect(turned.knobs.map(\.name) == ["checkDependencies", "shortLink", "makeCycle"])
        #expect(run.knobs.allSatisfy { $0.value == $0.defaultValue })
    }

    // MARK: - The Chrome trace export

    /// Perfetto and chrome://tracing bind a flow event to the slice that encloses it on its thread; one that lands on no
    /// slice, or only on an instant at the same moment, is drawn or not as the viewer orders equal times.
    @Test("In the page's Chrome trace every dependency arrow starts and ends inside a slice on its thread, and every span has a CPU time")
    func theTracesArrowsAreBoundToSlices() async throws {
        let record = await Self.run.value
        try #require(!record.dependencies.isEmpty)
        let document = ChromeTrace.document(for: record, title: "page 4")
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" }
        let flows = events.filter { ["s", "f"].contains($0["ph"] as? String) }
        #expect(flows.count == 2 * record.dependencies.count)
        for flow in flows {
            let tid = try #require(flow["tid"] as? Int)
            let time = try #require(flow["ts"] as? Double)
            let enclosing = slices.filter { slice in
                guard slice["tid"] as? Int == tid, let start = slice["ts"] as? Double, let length = slice["dur"] as? Double else { return false }
                return start < time && time < start + length
            }
            #expect(!enclosing.isEmpty, "\(flow["name"] ?? "") (\(flow["ph"] ?? "")) at \(time) on \(tid) is inside no slice")
        }
        let spans = slices.filter { $0["cat"] as? String == "span" }
        #expect(spans.count == record.spans.count)
        for span in spans {
            let args = try #require(span["args"] as? [String: Any])
            #expect(args["cpu_ms"] is Double, "\(span["name"] ?? ""): \(args["cpu_ms"] ?? "none")")
        }
    }

    /// The detail figures the comparison printed for the image of `provider`.
    static func detail(of provider: String) async throws -> (top: Double, middle: Double) {
        let run = await Self.run.value
        let line = try #require(run.outputText.first { $0.hasPrefix("compare: \(provider) has detail ") })
        let match = try #require(line.firstMatch(of: /detail ([0-9.]+) on the top row, ([0-9.]+) across the middle/))
        return (try #require(Double(match.1)), try #require(Double(match.2)))
    }

    /// When the operation called `name` first reported `state`.
    static func time(of state: OperationState, for name: String) async throws -> UInt64 {
        let run = await Self.run.value
        return try #require(run.operations.first { $0.name == name }?.firstTime(of: state), "\(name) never reported \(state)")
    }
}

private extension RunRecord {
    /// What the watchdog found, when it ended the run as stuck.
    var stall: Stall? {
        if case .stuck(let stall) = ending { stall } else { nil }
    }
}
