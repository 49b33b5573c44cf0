@preconcurrency import Glibc
import Foundation
import LessonKit
import TourCore
import PageProtocol

/// The speed goals of the engine, measured as medians and rates (never as pass/fail tests).
/// Run with `swift run -c release TourBenchmarks`; the figures go into docs/benchmarks.md.
/// `BENCH=trace`, `BENCH=ingestion` or `BENCH=startup` runs one of them (arguments belong to LessonKit's knobs).
setvbuf(stdout, nil, _IOLBF, 0)

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// Trace cost at the call site: `mark` with fd 3 on a pipe that another thread drains, as a page sees it.
func traceCallCost() {
    var fds: [Int32] = [0, 0]
    pipe(&fds)
    // The pipe's own descriptors may be 3 and 4: move both out of the way before fd 3 becomes the write end.
    let reader = fcntl(fds[0], F_DUPFD, 10)
    let writer = fcntl(fds[1], F_DUPFD, 10)
    close(fds[0])
    close(fds[1])
    dup2(writer, 3)
    close(writer)
    let drain = Thread {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while buffer.withUnsafeMutableBytes({ read(reader, $0.baseAddress, $0.count) }) > 0 {}
    }
    drain.start()
    let batch = 100
    var perEvent: [Double] = []
    for _ in 0..<2_000 {
        let start = monotonicNanoseconds()
        for _ in 0..<batch { mark("benchmark") }
        perEvent.append(Double(monotonicNanoseconds() - start) / Double(batch))
    }
    Swift.print(String(format: "trace call site: median %.0f ns per event, p90 %.0f ns (%d batches of %d marks)",
                 median(perEvent), percentile(perEvent, 0.9), perEvent.count, batch))
}

/// Host ingestion: a fixture replays prepared event lines as fast as a pipe takes them; the host parses and
/// records every one. (The fixture prepares its lines before it writes; the rate counts from spawn to end.)
func hostIngestion(events: Int) {
    var rates: [Double] = []
    var lost = 0
    for _ in 0..<5 {
        let firstArrival = FirstArrival()
        let recorder = RunRecorder(limits: { var limits = RunRecord.Limits(); limits.marks = events; return limits }()) { event, _ in
            if case .trace = event { firstArrival.note() }
        }
        let run = PageRun.start(RunRequest(executable: BuildProducts.executable(named: "RunnerFixture"),
                                           extraEnvironment: ["FIXTURE": "trace-replay", "EVENTS": String(events)]),
                                handler: recorder.apply)
        run.waitUntilEnded()
        let seconds = Double(monotonicNanoseconds() - firstArrival.time) / 1e9
        let record = recorder.record
        lost += max(0, events - record.marks.count) + record.rejectedTraceLines
        rates.append(Double(record.marks.count) / seconds)
    }
    Swift.print(String(format: "host ingestion: median %.0f events/s over 5 runs of %d events, from the first event to the end of the run; lost or rejected: %d",
                 median(rates), events, lost))
}

/// When the first event reached the host, so the page's own preparation is not counted against the host.
final class FirstArrival: @unchecked Sendable {
    private(set) var time: UInt64 = 0

    /// Called under the recorder's lock, one event at a time.
    func note() {
        if time == 0 { time = monotonicNanoseconds() }
    }
}

/// The parser alone, on a typical mark line: the host's cost per event before any bookkeeping.
func parseRate() {
    let mark = PageEvent(time: 123_456_789_012, thread: 4242, queue: "com.apple.root.default-qos", kind: .mark(name: "benchmark 42"))
    let line = Array(mark.encoded().dropLast())
    var rates: [Double] = []
    for _ in 0..<5 {
        let start = monotonicNanoseconds()
        var parsed = 0
        for _ in 0..<200_000 {
            if case .success = TraceLineParser.parse(line) { parsed += 1 }
        }
        rates.append(Double(parsed) / (Double(monotonicNanoseconds() - start) / 1e9))
    }
    Swift.print(String(format: "trace line parser: median %.0f lines/s (%.2f µs a line)", median(rates), 1e6 / median(rates)))
}

/// Start of a page to its first output line, once built.
func startToFirstOutput(product: String) {
    var delays: [Double] = []
    for _ in 0..<20 {
        let recorder = RunRecorder()
        let run = PageRun.start(RunRequest(executable: BuildProducts.executable(named: product), speed: 10), handler: recorder.apply)
        run.waitUntilEnded()
        let record = recorder.record
        if let first = record.firstOutputTime, let start = record.startTime {
            delays.append(Double(first - start) / 1e6)
        }
    }
    Swift.print(String(format: "start to first output (%@): median %.1f ms, p90 %.1f ms over %d runs",
                 product, median(delays), percentile(delays, 0.9), delays.count))
}

let which = Set((ProcessInfo.processInfo.environment["BENCH"] ?? "").split(separator: ",").map(String.init))
// First, while fd 3 is still free in this process: the pipes of the runs below may take it otherwise.
if which.isEmpty || which.contains("trace") { traceCallCost() }
if which.isEmpty || which.contains("parse") { parseRate() }
if which.isEmpty || which.contains("ingestion") { hostIngestion(events: 300_000) }
if which.isEmpty || which.contains("startup") { startToFirstOutput(product: "Lesson01Operation") }
