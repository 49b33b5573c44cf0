import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 8 proves what it teaches about barriers from its own trace.
@Suite("Page 8: Barrier", .bodiesBelowTheRunner)
struct BarrierPageTests {
    static let speed = 10.0
    /// One run at a high speed factor serves the claims that do not need a knob.
    static let run = Task { await sharedRun(product: "Lesson08Barrier", speed: speed) }

    static let wholeNames: Set<String> = ["Anna Adams", "Charlie Cheesecake", "Delia Dingle", "Eva Evershed", "Freddie Frost", "Gina Gregory"]

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func theUnsafePersonIsChangedFromSeveralBlocks() async {
        let run = await Self.run.value
        // Whether its name comes out mixed depends on the timing of the run, so only the setting is checked here.
        let changes = run.spans.filter { $0.name.hasPrefix("change to ") }
        #expect(changes.count == 5)
        #expect(Set(changes.map(\.queue)) == Set((1...5).map { "tour.barrier.client\($0)" }))
        #expect(run.outputText.filter { $0.hasPrefix("Unsafe person is now: ") }.count == 5)
    }

    @Test func noReadOfTheSafePersonEverSeesAMixedName() async throws {
        let run = await Self.run.value
        let reads = run.outputText.filter { $0.hasPrefix("Thread-safe person is now: ") || $0.hasPrefix("Thread-safe person's final name: ") }
        #expect(reads.count == 6)
        for read in reads {
            let name = try #require(read.components(separatedBy: ": ").last)
            #expect(Self.wholeNames.contains(name), "a read saw the mixed name \(name)")
        }
    }

    @Test func nothingOnTheIsolationQueueOverlapsABarrierWrite() async throws {
        let run = await Self.run.value
        let isolated = run.spans.filter { $0.queue == "tour.barrier.isolation" }
        let writes = isolated.filter { $0.name.hasPrefix("write ") }
        let reads = isolated.filter { $0.name == "read name" }
        #expect(writes.count == 5)
        #expect(reads.count == 6)
        for write in writes {
            for other in isolated where other.id != write.id {
                #expect(!overlap(write, other), "\(other.name) ran while \(write.name) did")
            }
        }
    }

    @Test func aBarrierOnACustomConcurrentQueueRunsAlone() async throws {
        let run = await Self.run.value
        let barrier = try #require(run.spans(named: "custom queue barrier").first)
        let barrierEnd = try #require(barrier.end)
        for number in 1...2 {
            let before = try #require(run.spans(named: "custom queue block \(number)").first)
            #expect(try #require(before.end) <= barrier.start, "block \(number) was still running when the barrier began")
        }
        for number in 3...4 {
            let after = try #require(run.spans(named: "custom queue block \(number)").first)
            #expect(barrierEnd <= after.start, "block \(number) began before the barrier ended")
        }
        #expect(run.outputText.contains("On the custom queue, the barrier ran alongside: nothing"))
    }

    @Test(.enabled(if: coresOfThisProcess() >= 2, "two blocks at once need two worker threads"))
    func aBarrierOnAGlobalQueueIsNoBarrier() async throws {
        let run = await Self.run.value
        // Five half-second blocks on at least two threads: the "barrier" starts with another block, or sooner.
        let barrier = try #require(run.spans(named: "global queue barrier").first)
        let others = run.spans.filter { $0.name.hasPrefix("global queue block ") }
        #expect(others.count == 4)
        #expect(others.contains { overlap(barrier, $0) }, "nothing ran alongside the barrier on the global queue")
        #expect(run.outputText.contains { $0.hasPrefix("On the global queue, the barrier ran alongside: block") })
    }

    /// The page names a block as running alongside a barrier when the two shared at least a tenth of the barrier's time;
    /// the spans, timed by the trace, must say the same. The page times the blocks just inside their spans, so a block
    /// whose shared time lies within a millisecond of that tenth may fall either way.
    @Test func theBarrierLinesNameWhatTheSpansShow() async throws {
        let run = await Self.run.value
        for title in ["custom queue", "global queue"] {
            let barrier = try #require(run.spans(named: "\(title) barrier").first)
            let barrierEnd = try #require(barrier.end)
            let line = try #require(run.outputText.first { $0.hasPrefix("On the \(title), the barrier ran alongside: ") })
            let listed = line.components(separatedBy: ": ").dropFirst().joined(separator: ": ")
            let named = listed == "nothing" ? [] : listed.components(separatedBy: ", ").map { $0.components(separatedBy: " for ")[0] }
            let tenth = Double(barrierEnd - barrier.start) / 10
            for number in 1...4 {
                let block = try #require(run.spans(named: "\(title) block \(number)").first)
                let blockEnd = try #require(block.end)
                let shared = Double(min(blockEnd, barrierEnd)) - Double(max(block.start, barrier.start))
                if abs(shared - tenth) < 1e6 { continue }
                #expect(named.contains("block \(number)") == (shared >= tenth),
                        "\(line): block \(number) shared \(shared / 1e6) ms of the barrier's \(tenth * 10 / 1e6) ms")
            }
        }
    }

    @Test func aBarrierBlockOnAnOperationQueueWaitsForEarlierOperationsAndHoldsBackLaterOnes() async throws {
        let run = await Self.run.value
        let barrier = try #require(run.spans(named: "barrier block").first)
        let barrierEnd = try #require(barrier.end)
        for number in 1...2 {
            let earlier = try #require(run.spans(named: "operation \(number)").first)
            #expect(try #require(earlier.end) <= barrier.start, "operation \(number) was still running when the barrier block began")
        }
        let later = try #require(run.spans(named: "operation 3").first)
        #expect(barrierEnd <= later.start, "operation 3, added after the barrier block, began before it ended")
        #expect(Set([barrier.queue, later.queue]) == ["tour.barrier.operations"])
        #expect(run.outputText.contains("On the operation queue, the barrier block ran alongside: nothing"))
    }

    /// The longest a write waited with nothing running on the isolation queue: from its client's request (or the end
    /// of the isolation queue's last block before it, if later) to its start.
    static func longestIdleWriteWait(in run: RunRecord) throws -> Double {
        let isolated = run.spans.filter { $0.queue == "tour.barrier.isolation" }
        let writes = isolated.filter { $0.name.hasPrefix("write ") }
        try #require(writes.count == 5)
        let ends = try isolated.map { try #require($0.end) }
        return try writes.map { write in
            let asked = try #require(run.marks.first { $0.name.hasSuffix(" asks for " + write.name.dropFirst("write ".count)) })
            let idleSince = max(asked.time, ends.filter { $0 <= write.start }.max() ?? 0)
            return write.start > idleSince ? Double(write.start - idleSince) / 1e9 : 0
        }.max() ?? 0
    }

    /// Five clients that each read after writing need six threads at once when they share the writes' pool; with fewer
    /// cores than that, the pool must grow, and libdispatch grows it by one thread a second of real time, whatever the speed.
    /// The run may use two CPUs only (one on a machine of one), so its pool starts narrower than six on any machine.
    @Test func clientsOnOneConcurrentQueueStarveTheWritesUntilThePoolGrows() async throws {
        let starved = await recordRun(product: "Lesson08Barrier", knobs: [("people", "safe"), ("clients", "oneConcurrentQueue")],
                                      speed: Self.speed, cpus: 2)
        let cores = min(2, coresOfThisProcess())
        #expect(starved.ending == .exited(code: 0))
        #expect(Set(starved.marks.filter { $0.name.contains(" asks for ") }.map(\.queue)) == ["tour.barrier.clients"])
        // At speed 10 every simulated wait is at most 40 ms; the once-a-second pool monitor has to add at least two
        // threads, so a write waits for at least one whole period between two of its ticks. The monitor is a dispatch
        // timer, which keeps to its schedule (start + n seconds): a tick that came late shortens the next period by as
        // much, and on a loaded machine one measured 0.968 s. A tenth of a second is left for that.
        let wait = try Self.longestIdleWriteWait(in: starved)
        #expect(wait >= 0.9, "no write waited longer than \(wait) s")
        let report = try #require(starved.output.first { $0.text.hasPrefix("Clients on one concurrent queue: ") })
        let after = try #require(report.text.components(separatedBy: " after, ").first?.components(separatedBy: " ").last.flatMap { Int($0) })
        #expect(after > cores, "the default-QoS pool ended with \(after) threads, no more than the run's \(cores) cores")
        // The page's own measure agrees with the trace's.
        let printed = try #require(report.text.components(separatedBy: "a write waited up to ").last?.components(separatedBy: " s with").first.flatMap { Double($0) })
        #expect(abs(printed - wait) < 0.05, "the page printed \(printed) s, the trace shows \(wait) s")
        // No read ever saw half a change, starved or not.
        for read in starved.outputText.filter({ $0.hasPrefix("Thread-safe person") }) {
            #expect(Self.wholeNames.contains(try #require(read.components(separatedBy: ": ").last)))
        }
    }

    @Test func clientsOnSerialQueuesNeverLeaveTheWritesWithoutAThread() async throws {
        let run = await Self.run.value
        let wait = try Self.longestIdleWriteWait(in: run)
        #expect(wait < 0.5, "a write waited \(wait) s with the isolation queue standing still")
        #expect(run.outputText.contains { $0.hasPrefix("Clients on five serial queues: a write waited up to ") })
    }

    @Test func thePeopleKnobRacesOnePersonAtATime() async {
        // Two runs that do not wait for each other, started together.
        async let unsafeRun = recordRun(product: "Lesson08Barrier", knobs: [("people", "unsafe")], speed: 20)
        async let safeRun = recordRun(product: "Lesson08Barrier", knobs: [("people", "safe")], speed: 20)
        let unsafe = await unsafeRun
        #expect(unsafe.outputText.contains { $0.hasPrefix("Unsafe person's final name: ") })
        #expect(!unsafe.outputText.contains { $0.hasPrefix("Thread-safe") })
        #expect(!unsafe.spans.contains { $0.name.contains("queue barrier") })
        #expect(unsafe.ending == .exited(code: 0))

        let safe = await safeRun
        #expect(safe.outputText.contains { $0.hasPrefix("Thread-safe person's final name: ") })
        #expect(!safe.outputText.contains { $0.hasPrefix("Unsafe") })
        #expect(safe.ending == .exited(code: 0))
    }

    /// A real Thread Sanitizer build compiles LessonKit again, instrumented: tens of seconds on two cores, too slow for
    /// every test run. This test checks the knob's wiring instead, with a stand-in `swift` first on `PATH`: the build
    /// command and its folder, its progress streamed, one instrumented run per person with the knob off (so the page
    /// cannot start a build of its own), and the report passed through the real `swift demangle` and digested.
    @Test func theThreadSanitizerKnobRebuildsOnceAndRunsEachPersonWithoutRecursing() async throws {
        let stage = try FakeToolchain()
        defer { stage.remove() }
        let run = await recordRun(product: "Lesson08Barrier", knobs: [("threadSanitizer", "true")], speed: Self.speed,
                            environment: ["PATH": stage.bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
                                          "TOUR_ROOT": stage.root.path])
        #expect(run.ending == .exited(code: 0))
        let calls = stage.calls()
        let scratch = stage.root.appendingPathComponent(".build/tsan").path
        #expect(calls.filter { $0.hasPrefix("swift build") } == ["swift build --sanitize=thread --scratch-path \(scratch) --product Lesson08Barrier in \(stage.root.path)"])
        let children = calls.filter { $0.hasPrefix("instrumented ") }
        #expect(children.count == 2)
        #expect(children.first?.contains("--set people=unsafe") == true)
        #expect(children.last?.contains("--set people=safe") == true)
        #expect(!children.contains { $0.contains("threadSanitizer") }, "an instrumented run must not rebuild itself")
        #expect(children.allSatisfy { $0.contains("strip_path_prefix=\(stage.root.path)/") })

        let output = run.outputText
        #expect(output.contains("  [1/2] Compiling Lesson08Barrier main.swift"), "the build's progress is streamed")
        #expect(output.contains { $0.hasPrefix("  │ Unsafe person's final name: ") }, "the instrumented run's own output is shown")
        #expect(output.contains("      #0 Person.changeName(firstName:lastName:) Lessons/08-Barrier/main.swift:37:24"), "the report arrives demangled")
        #expect(!output.contains("      #0 Person.changeName(firstName:lastName:) Lessons/08-Barrier/main.swift:39:23"), "only the first warning is shown in full")
        #expect(output.contains("  SUMMARY: ThreadSanitizer: data race Lessons/08-Barrier/main.swift:39:23 in Person.changeName(firstName:lastName:)"))
        #expect(output.contains("Thread Sanitizer, the unsafe person: 2 warnings, exit status 66"))
        #expect(output.contains("Thread Sanitizer, the safe person: 0 warnings, exit status 0"))
    }

    /// A compile that prints nothing for 14 s (the Thread Sanitizer build of LessonKit does, on a loaded machine) must not
    /// look like a hang: the page reports the quiet spell 10 s into it, within a watchdog of 14 s. Reporting it only after
    /// 15 s, as it once did, let the tutorial's 15 s watchdog stop a real build. The run sleeps for those 14 s, so it
    /// takes no counted slot (`asleep`): waiting for one, it started 32 s into the suite and ended it at 46 s.
    @Test func aLongSilentThreadSanitizerBuildIsNotTakenForAHang() async throws {
        let stage = try FakeToolchain(silentSeconds: 14)
        defer { stage.remove() }
        let run = await recordRun(product: "Lesson08Barrier", knobs: [("people", "unsafe"), ("threadSanitizer", "true")], speed: Self.speed, silentLimit: 14,
                            environment: ["PATH": stage.bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
                                          "TOUR_ROOT": stage.root.path],
                            asleep: true)
        #expect(run.ending == .exited(code: 0))
        #expect(run.outputText.contains { $0.hasPrefix("  … still building, ") })
        #expect(run.outputText.contains("Thread Sanitizer, the unsafe person: 2 warnings, exit status 66"))
    }

    /// The real thing, when asked for with `TOUR_TSAN_TESTS=1`: builds the page with Thread Sanitizer and runs both people.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TOUR_TSAN_TESTS"] == "1", "set TOUR_TSAN_TESTS=1 to build with Thread Sanitizer"))
    func threadSanitizerFindsTheUnsafePersonAndClearsTheSafeOne() async {
        let run = await recordRun(product: "Lesson08Barrier", knobs: [("threadSanitizer", "true")], speed: Self.speed)
        #expect(run.ending == .exited(code: 0))
        #expect(run.outputText.contains("Thread Sanitizer, the safe person: 0 warnings, exit status 0"), "no false positives from libdispatch")
        if coresOfThisProcess() >= 2 {
            #expect(run.outputText.contains { $0.hasPrefix("Thread Sanitizer, the unsafe person: ") && $0.hasSuffix("exit status 66") })
        }
    }
}

private func overlap(_ first: Span, _ second: Span) -> Bool {
    guard let firstEnd = first.end, let secondEnd = second.end else { return true }
    return first.start < secondEnd && second.start < firstEnd
}

/// A stand-in `swift` on a temporary `PATH`, and an empty package root for the page to build in.
///
/// `swift build` logs its arguments, prints two progress lines and puts an "instrumented" program in the scratch
/// folder: a script that logs how it was called, runs the real (uninstrumented) page, and, for the unsafe person,
/// writes a two-warning report with mangled names to stderr, then exits 66 as Thread Sanitizer does.
/// `swift demangle` is the real one.
private struct FakeToolchain {
    let folder: URL
    var bin: URL { folder.appendingPathComponent("bin") }
    var root: URL { folder.appendingPathComponent("root") }
    var log: URL { folder.appendingPathComponent("calls.log") }

    /// `silentSeconds`: how long the stand-in build prints nothing between its two progress lines, as a slow compile does.
    init(silentSeconds: Int = 0) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tsan-wiring-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let realSwift = try #require(SearchPath().find("swift"), "swift is not on PATH")
        let page = BuildProducts.executable(named: "Lesson08Barrier")
        let mangled = "$s15Lesson08Barrier6PersonC10changeName05firstE004lastE0ySS_SStF"
        let instrumented = """
        #!/bin/sh
        echo "instrumented $* TSAN_OPTIONS=$TSAN_OPTIONS" >> '\(log.path)'
        '\(page)' "$@"
        case "$*" in *people=unsafe*) ;; *) exit 0 ;; esac
        cat >&2 <<'REPORT'
        ==================
        WARNING: ThreadSanitizer: data race (pid=1)
          Write of size 8 at 0x7b0c00000010 by thread T2:
            #0 \(mangled) Lessons/08-Barrier/main.swift:37:24
        SUMMARY: ThreadSanitizer: data race Lessons/08-Barrier/main.swift:37:24 in \(mangled)
        ==================
        ==================
        WARNING: ThreadSanitizer: data race (pid=1)
          Write of size 8 at 0x7b0c00000018 by thread T3:
            #0 \(mangled) Lessons/08-Barrier/main.swift:39:23
        SUMMARY: ThreadSanitizer: data race Lessons/08-Barrier/main.swift:39:23 in \(mangled)
        ==================
        ThreadSanitizer: reported 2 warnings
        REPORT
        exit 66
        """
        let swift = """
        #!/bin/sh
        if [ "$1" = demangle ]; then exec '\(realSwift)' "$@"; fi
        echo "swift $* in $PWD" >> '\(log.path)'
        scratch=""
        previous=""
        for argument in "$@"; do
            if [ "$previous" = --scratch-path ]; then scratch="$argument"; fi
            previous="$argument"
        done
        echo "[1/2] Compiling Lesson08Barrier main.swift"
        mkdir -p "$scratch/debug"
        cat > "$scratch/debug/Lesson08Barrier" <<'PROGRAM'
        \(instrumented)
        PROGRAM
        chmod +x "$scratch/debug/Lesson08Barrier"
        sleep \(silentSeconds)
        echo "[2/2] Linking Lesson08Barrier"
        """
        try writeExecutable(swift, to: bin.appendingPathComponent("swift"))
    }

    func calls() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
