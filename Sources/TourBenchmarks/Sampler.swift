@preconcurrency import Glibc
import Foundation
import LessonKit
import TourCore
import PageProtocol
import Synchronization

// The thread sampler's cost (issue 15, point 1): the processor time of the host's sampler thread against the wall
// time it sampled a page of 16 threads for, and how much sampling changes the times that page measures, with runs
// sampled and unsampled in turns. `BENCH=sampler`; `BENCH=samplersubject` is the page it runs.

/// How many threads of its own the sampled page starts (the goal is stated for 16).
let samplerSubjectThreads = 16

/// A fixed amount of computing, unlike `Simulated.compute`, which computes until a deadline: its wall and processor
/// times are what a sampler could change.
@inline(never) func fixedWork(_ iterations: Int) -> UInt64 {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<iterations {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
    }
    return state
}

/// How many `fixedWork` iterations take about `seconds` in this build on this machine, the fastest of five tries.
func fixedWorkIterations(lasting seconds: Double) -> Int {
    let probe = 1_000_000
    var fastest = Double.infinity
    for _ in 0..<5 {
        let start = monotonicNanoseconds()
        blackHole(fixedWork(probe))
        fastest = min(fastest, Double(monotonicNanoseconds() - start) / 1e9)
    }
    return max(1, Int(Double(probe) * seconds / fastest))
}

@inline(never) func blackHole(_ value: UInt64) {
    if value == 42 { Swift.print("") }
}

/// The sampled page (`BENCH=samplersubject`): `samplerSubjectThreads` threads, each `ROUNDS` times a span of
/// `WORK_ITERATIONS` of fixed work followed by a 10 ms wait, so the sampler sees every thread change state. Prints
/// its own wall time as `subject took N ns`.
func samplerSubject() {
    let environment = ProcessInfo.processInfo.environment
    let iterations = Int(environment["WORK_ITERATIONS"] ?? "") ?? 100_000
    let rounds = Int(environment["ROUNDS"] ?? "") ?? 300
    let start = monotonicNanoseconds()
    let group = DispatchGroup()
    for number in 0..<samplerSubjectThreads {
        group.enter()
        Thread {
            for _ in 0..<rounds {
                trace("work \(number)") { blackHole(fixedWork(iterations)) }
                Simulated.wait(0.010)
            }
            group.leave()
        }.start()
    }
    group.wait()
    print("subject took \(monotonicNanoseconds() - start) ns")
}

/// The processor time, in nanoseconds, a thread of this process has had so far: the first field of its
/// `schedstat` (nanoseconds on a core, unlike `stat`'s 10 ms ticks).
func threadProcessorNanoseconds(_ thread: String) -> UInt64? {
    guard let text = try? String(contentsOfFile: "/proc/self/task/\(thread)/schedstat", encoding: .utf8) else { return nil }
    return text.split(separator: " ").first.flatMap { UInt64($0) }
}

/// The thread of this process the kernel knows by `name` (`ThreadSampler` names its own), if there is one now.
func threadOfThisProcess(named name: String) -> String? {
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return threads.first { thread in
        (try? String(contentsOfFile: "/proc/self/task/\(thread)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .newlines) == name
    }
}

/// Rounds of readings and readings in all, counted as the host's handler receives them.
final class SampleCount: Sendable {
    let rounds = Atomic<Int>(0)
    let readings = Atomic<Int>(0)
}

/// One run of the subject under the host, sampled or not: the spans' median wall and processor times, the page's
/// own wall time, and, when sampled, the sampler thread's processor time over the wall time it was watched for and
/// how many threads it read per round.
struct SampledRun {
    var spanWall: Double
    var spanProcessor: Double
    var pageWall: Double
    var samplerShare: Double?
    var threadsPerRound: Double?
}

func runSamplerSubject(sampled: Bool, iterations: Int, rounds: Int) -> SampledRun {
    let count = SampleCount()
    let recorder = RunRecorder()
    let request = RunRequest(executable: BuildProducts.executable(named: "TourBenchmarks"), stuckAfter: 30,
                             extraEnvironment: ["BENCH": "samplersubject", "WORK_ITERATIONS": String(iterations),
                                                "ROUNDS": String(rounds)],
                             samplesThreads: sampled)
    let run = PageRun.start(request) { event in
        if case .threadStates(let readings, _) = event {
            count.rounds.add(1, ordering: .relaxed)
            count.readings.add(readings.count, ordering: .relaxed)
        }
        recorder.apply(event)
    }
    // The sampler's thread ends with the run: its processor time is read while it lives, first once all the page's
    // threads have begun a span (each is then on a lane), last as late as it can be.
    var first: (processor: UInt64, wall: UInt64, rounds: Int, readings: Int)?
    var last = first
    var samplerThread: String?
    while run.ending == nil {
        usleep(50_000)
        guard sampled else { continue }
        if samplerThread == nil { samplerThread = threadOfThisProcess(named: "tour-sample") }
        guard let thread = samplerThread, let processor = threadProcessorNanoseconds(thread) else { continue }
        let reading = (processor: processor, wall: monotonicNanoseconds(),
                       rounds: count.rounds.load(ordering: .relaxed), readings: count.readings.load(ordering: .relaxed))
        if first != nil { last = reading } else if recorder.record.threads.count > samplerSubjectThreads { first = reading }
    }
    let ending = run.waitUntilEnded()
    let record = recorder.record
    let spans = record.spans.filter { $0.end != nil && $0.name.hasPrefix("work ") }
    let line = record.output.map(\.text).first { $0.hasPrefix("subject took ") }
    guard spans.count == samplerSubjectThreads * rounds,
          let pageNanoseconds = line.flatMap({ Double($0.split(separator: " ")[2]) }) else {
        preconditionFailure("the sampled page did not finish its \(samplerSubjectThreads * rounds) spans (\(spans.count), \(ending))")
    }
    var result = SampledRun(spanWall: median(spans.compactMap(\.duration)),
                            spanProcessor: median(spans.compactMap { $0.cpuNanoseconds.map { Double($0) / 1e9 } }),
                            pageWall: pageNanoseconds / 1e9)
    if let first, let last, last.wall > first.wall, last.rounds > first.rounds {
        result.samplerShare = Double(last.processor - first.processor) / Double(last.wall - first.wall)
        result.threadsPerRound = Double(last.readings - first.readings) / Double(last.rounds - first.rounds)
    }
    return result
}

/// The sampler's share of one core and its effect on the page's times: `runs` sampled and `runs` unsampled runs of
/// the subject in turns (so a slow phase of the machine falls on both alike), each span about 0.5 ms of work.
func samplerCost(runs: Int = 7) {
    let iterations = fixedWorkIterations(lasting: 0.0005)
    let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "") ?? 300
    var sampled: [SampledRun] = [], unsampled: [SampledRun] = []
    for _ in 0..<runs {
        for sampling in [true, false] {
            let run = runSamplerSubject(sampled: sampling, iterations: iterations, rounds: rounds)
            if sampling { sampled.append(run) } else { unsampled.append(run) }
        }
    }
    let shares = sampled.compactMap(\.samplerShare)
    let perRound = sampled.compactMap(\.threadsPerRound)
    guard !shares.isEmpty else { preconditionFailure("the sampler's thread was never found by its name, tour-sample") }
    Swift.print(String(format: "sampler's thread: median %.2f %% of one core (runs %@), reading %.1f threads a round at 100 Hz",
                       median(shares) * 100, shares.map { String(format: "%.2f", $0 * 100) }.joined(separator: ", "),
                       median(perRound)))
    for (what, value) in [("span wall time", \SampledRun.spanWall), ("span processor time", \SampledRun.spanProcessor),
                          ("page wall time", \SampledRun.pageWall)] {
        let on = median(sampled.map { $0[keyPath: value] }), off = median(unsampled.map { $0[keyPath: value] })
        Swift.print(String(format: "%@: sampled median %.3f ms, unsampled %.3f ms, ratio %.4f (%d runs each, medians of each run's spans)",
                           what, on * 1e3, off * 1e3, on / off, runs))
    }
}
