@preconcurrency import Glibc
import Foundation
import LessonKit
import TourCore
import PageProtocol

/// The speed goals of the engine, measured as medians and rates (never as pass/fail tests).
/// Run with `swift run -c release TourBenchmarks`; the figures go into docs/benchmarks.md.
/// `BENCH=trace`, `parse`, `ingestion`, `overhead`, `startup`, `launch`, `liveframes`, `room` or `instructions` runs one of them, several with commas
/// (arguments belong to LessonKit's knobs). `instructions` runs this program under callgrind (valgrind must be
/// installed) and prints the instructions per floor event, `mark` and span. `BENCH=callgrind` runs the loops that
/// callgrind counts; `BENCH=workload` is the page that `overhead` runs. Every part prints the load average it ran at.
setvbuf(stdout, nil, _IOLBF, 0)

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// A pipe whose two ends are numbered 10 or above, so neither is fd 3; `closedOnExec` keeps both out of a child.
func pipeAboveTraceDescriptor(closedOnExec: Bool) -> (reader: Int32, writer: Int32) {
    var fds: [Int32] = [0, 0]
    pipe(&fds)
    let command = closedOnExec ? F_DUPFD_CLOEXEC : F_DUPFD
    let ends = (reader: fcntl(fds[0], command, 10), writer: fcntl(fds[1], command, 10))
    close(fds[0])
    close(fds[1])
    return ends
}

/// Gives this process a trace channel as a page has one: fd 3 is the write end of a pipe that another thread drains.
/// Must run before LessonKit is first used, which is when it looks at fd 3.
func connectTracePipeToDrain() {
    // The pipe's own descriptors may be 3 and 4: both move out of the way before fd 3 becomes the write end.
    let (reader, writer) = pipeAboveTraceDescriptor(closedOnExec: false)
    dup2(writer, 3)
    close(writer)
    let drain = Thread {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while buffer.withUnsafeMutableBytes({ read(reader, $0.baseAddress, $0.count) }) > 0 {}
    }
    drain.start()
}

/// A typical `mark` line, as the floor copies it.
let typicalMarkLine = Array(#"{"e":"mark","t":123456789012,"tid":4242,"q":"com.apple.root.default-qos","name":"benchmark"}"#.utf8) + [10]

/// What any event must cost at least: a clock read, the cached thread id and a copy of a line into a buffer.
struct EventFloor {
    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)

    @inline(never) func event() {
        let time = monotonicNanoseconds()
        let thread = ThreadIdentity.current
        typicalMarkLine.withUnsafeBytes { line in
            _ = memcpy(buffer, line.baseAddress!, line.count)
        }
        // Written into the copy, so the compiler cannot drop the clock read or the thread id.
        buffer[0] ^= UInt8(truncatingIfNeeded: time ^ UInt64(UInt32(bitPattern: thread)))
    }
}

/// One `mark`, kept out of line so callgrind can count it by name and the timed loop cannot be folded.
@inline(never) func markOnce() { mark("benchmark") }

/// A level's gate outside the scheduler: a shared value's store, which sends the mark naming its step.
let uncontrolledRun = LevelRun(uncontrolledWith: ["T1"])
let gatedValue = uncontrolledRun.shared("count", 0)
@inline(never) func gateOnce() { gatedValue.store(1) }

/// One span with an empty body: both of its events.
@inline(never) func spanOnce() { trace("benchmark") {} }

/// Trace cost at the call site, with fd 3 on a drained pipe as a page has it: `mark`, a span, a level's gate outside
/// the scheduler and the floor, interleaved batch by batch so a slow phase of the machine falls on all three alike.
func traceCallCost() {
    connectTracePipeToDrain()
    let floor = EventFloor()
    let batch = 100
    var perEvent: (floor: [Double], mark: [Double], span: [Double], gate: [Double]) = ([], [], [], [])
    func timed(_ body: () -> Void) -> Double {
        let start = monotonicNanoseconds()
        for _ in 0..<batch { body() }
        return Double(monotonicNanoseconds() - start) / Double(batch)
    }
    for round in 0..<2_100 {
        let floorCost = timed(floor.event)
        let markCost = timed(markOnce)
        let spanCost = timed(spanOnce)
        let gateCost = timed(gateOnce)
        // The first rounds warm caches and the session up.
        guard round >= 100 else { continue }
        perEvent.floor.append(floorCost)
        perEvent.mark.append(markCost)
        perEvent.span.append(spanCost)
        perEvent.gate.append(gateCost)
    }
    let floorMedian = median(perEvent.floor)
    Swift.print(String(format: "trace call site (%d batches of %d): floor median %.0f ns; mark median %.0f ns, p90 %.0f ns (%.1f× the floor); span (both events) median %.0f ns, p90 %.0f ns (%.1f× the floor)",
                       perEvent.mark.count, batch, floorMedian,
                       median(perEvent.mark), percentile(perEvent.mark, 0.9), median(perEvent.mark) / floorMedian,
                       median(perEvent.span), percentile(perEvent.span, 0.9), median(perEvent.span) / floorMedian))
    Swift.print(String(format: "a level's gate outside the scheduler (a shared value's store): median %.0f ns, %.2f× a mark's in the same run",
                       median(perEvent.gate), median(perEvent.gate) / median(perEvent.mark)))
}

/// The loop callgrind counts, under a name of its own for `--toggle-collect` (see docs/benchmarks.md): the
/// instructions counted inside it, divided by `callgrindRepetitions`, are the cost of one event.
let callgrindRepetitions = 10_000

@inline(never) func callgrindCountedLoop(_ event: () -> Void) {
    for _ in 0..<callgrindRepetitions { event() }
}

/// Runs the loop of the event `CALLGRIND_EVENT` names (`floor`, `mark` or `span`) after a warm-up, with fd 3
/// on a drained pipe: one event per process, so callgrind sees one loop.
func callgrindLoop() {
    connectTracePipeToDrain()
    let floor = EventFloor()
    let events = ["floor": floor.event, "mark": markOnce, "span": spanOnce]
    let name = ProcessInfo.processInfo.environment["CALLGRIND_EVENT"] ?? "mark"
    guard let event = events[name] else { preconditionFailure("CALLGRIND_EVENT is floor, mark or span") }
    for _ in 0..<100 { event() }
    callgrindCountedLoop(event)
}

/// Host ingestion: a fixture replays prepared event lines as fast as a pipe takes them; the host parses and
/// records every one. (The fixture prepares its lines before it writes; the rate counts from the first event to
/// the end.) Beside it, in turns, the floor: the same fixture's lines read from the same kind of pipe and only
/// split at newlines.
func hostIngestion(events: Int) {
    var rates: (host: [Double], split: [Double]) = ([], [])
    var lost = 0
    for _ in 0..<5 {
        rates.split.append(splitOnlyRate(events: events))
        let firstArrival = FirstArrival()
        let recorder = RunRecorder(limits: { var limits = RunRecord.Limits(); limits.marks = events; return limits }()) { event, _ in
            if case .trace = event { firstArrival.note() }
        }
        let run = PageRun.start(RunRequest(executable: BuildProducts.executable(named: "RunnerFixture"),
                                           extraEnvironment: replayEnvironment(events: events)),
                                handler: recorder.apply)
        run.waitUntilEnded()
        let seconds = Double(monotonicNanoseconds() - firstArrival.time) / 1e9
        let record = recorder.record
        lost += max(0, events - record.marks.count) + record.rejectedTraceLines
        rates.host.append(Double(record.marks.count) / seconds)
    }
    Swift.print(String(format: "host ingestion: median %.0f events/s over 5 runs of %d events, from the first event to the end of the run; lost or rejected: %d; split-only reader: median %.0f lines/s; ratio %.3f",
                       median(rates.host), events, lost, median(rates.split), median(rates.host) / median(rates.split)))
}

func replayEnvironment(events: Int) -> [String: String] {
    ["FIXTURE": "trace-replay", "EVENTS": String(events)]
}

/// Lines a second when the host's work is only finding the newlines: the replay fixture's fd 3 on a pipe that this
/// thread reads in 64 KiB reads, as the host's reader does, counting lines from the first byte to the end.
func splitOnlyRate(events: Int) -> Double {
    // Both ends away from fd 3, and closed in the child, which gets only its own fd 3.
    let (reader, writer) = pipeAboveTraceDescriptor(closedOnExec: true)
    let executable = BuildProducts.executable(named: "RunnerFixture")
    let environment = ProcessInfo.processInfo.environment.merging(replayEnvironment(events: events)) { $1 }
    let spawn = ProcessSpawn(executable, environment: environment.map { "\($0.key)=\($0.value)" },
                             fileActions: [.duplicate(writer, as: 3)], signals: .inherited)
    let pid: pid_t
    do throws(ProcessSpawn.Failure) { pid = try spawn.start() } catch { preconditionFailure(error.description) }
    close(writer)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var lines = 0
    var firstByte: UInt64 = 0
    buffer.withUnsafeMutableBytes { bytes in
        while true {
            let count = read(reader, bytes.baseAddress, bytes.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if firstByte == 0 { firstByte = monotonicNanoseconds() }
            var position = bytes.baseAddress!
            var left = count
            while left > 0, let newline = memchr(position, 10, left) {
                lines += 1
                left -= newline - position + 1
                position = newline + 1
            }
        }
    }
    let seconds = Double(monotonicNanoseconds() - firstByte) / 1e9
    close(reader)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    precondition(lines == events, "the split-only reader counted \(lines) of \(events) lines")
    return Double(lines) / seconds
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
    // One decoder for all the lines, as the runner keeps one per channel.
    var decoder = TraceLineDecoder()
    for _ in 0..<5 {
        let start = monotonicNanoseconds()
        var parsed = 0
        for _ in 0..<200_000 {
            if case .success = line.withUnsafeBufferPointer({ decoder.decode($0) }) { parsed += 1 }
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

/// What a busy page does, timed by the page itself: operations of `unit` seconds of computing on a queue as wide as
/// the machine, each a span and a mark, as the pages trace their work. Run as a page (`BENCH=workload`).
func workload() {
    let environment = ProcessInfo.processInfo.environment
    let unit = Double(environment["UNIT_MICROSECONDS"] ?? "") .map { $0 / 1e6 } ?? 0.001
    let count = Int(environment["UNITS"] ?? "") ?? 400
    let queue = OperationQueue()
    let start = monotonicNanoseconds()
    for number in 0..<count {
        queue.addOperation {
            trace("unit \(number)") { Simulated.compute(unit) }
            mark("unit \(number) done")
        }
    }
    queue.waitUntilAllOperationsAreFinished()
    // LessonKit's print: an `out` event when traced, stdout in control mode; the host records either.
    print("workload took \(monotonicNanoseconds() - start) ns")
}

/// What tracing changes in what a page measures: the workload as a page under the host, traced, and in control
/// mode (`TOUR_TRACE=off`: no events, no narration), in turns; the ratio of their medians.
func tracingOverhead() {
    for unitMicroseconds in [1_000, 100] {
        var took: (traced: [Double], control: [Double]) = ([], [])
        for _ in 0..<7 {
            for control in [true, false] {
                var environment = ["BENCH": "workload", "UNIT_MICROSECONDS": String(unitMicroseconds),
                                   "UNITS": String(400_000 / unitMicroseconds)]
                if control { environment["TOUR_TRACE"] = "off" }
                let recorder = RunRecorder()
                let run = PageRun.start(RunRequest(executable: BuildProducts.executable(named: "TourBenchmarks"),
                                                   extraEnvironment: environment),
                                        handler: recorder.apply)
                run.waitUntilEnded()
                let line = recorder.record.output.map(\.text).first { $0.hasPrefix("workload took ") }
                guard let nanoseconds = line.flatMap({ Double($0.split(separator: " ")[2]) }) else {
                    preconditionFailure("the workload did not report its time: \(recorder.record.output.map(\.text))")
                }
                if control { took.control.append(nanoseconds / 1e6) } else { took.traced.append(nanoseconds / 1e6) }
            }
        }
        Swift.print(String(format: "tracing overhead, %d µs units (2 events and a mark each): traced median %.2f ms, control median %.2f ms, ratio %.4f (7 runs each)",
                           unitMicroseconds, median(took.traced), median(took.control), median(took.traced) / median(took.control)))
    }
}

/// The interface queue's cost of a live view frame, LessonKit's largest (160×96, 61,440 bytes of base64): decoded on
/// arrival as before issue 11 (every frame read at once, which decodes it, as `apply` used to), against kept encoded
/// and decoded only when drawn, with the screen drawing one frame in `framesPerDraw`. `BENCH=liveframes`; with
/// `LIVEFRAMES_CALLGRIND=eager`, `drawn` or `arrival`, one pass of 1,000 frames of that kind inside
/// `liveFramesCountedLoop`, for callgrind to count.
func liveFrameCost(framesPerDraw: Int = 4) {
    let width = 160, height = 96
    let pictures = (0..<8).map { seed in
        let pixels = (0..<width * height * 3).map { UInt8(truncatingIfNeeded: ($0 &+ seed &* 7_919) &* 2_654_435_761 >> 11) }
        return PagePicture(width: width, height: height, base64: Data(pixels).base64EncodedString())
    }
    let events = pictures.map { PageEvent(time: 1, thread: 1, queue: "", kind: .frame($0)) }
    /// Nanoseconds a frame, over `frames` frames, reading the frame (which decodes it) after every `readEvery`-th.
    func run(frames: Int, readEvery: Int) -> Double {
        var state = LiveViewState()
        var checksum = 0
        let start = monotonicNanoseconds()
        liveFramesCountedLoop {
            for index in 0..<frames {
                state.apply(events[index % events.count])
                if index % readEvery == readEvery - 1 {
                    checksum &+= Int(state.frame?.pixels[index % 1_000] ?? 0)
                    state.markDrawn()
                }
            }
        }
        let took = Double(monotonicNanoseconds() - start) / Double(frames)
        precondition(state.framesDecoded == frames / readEvery && checksum >= 0, "exactly the frames drawn were decoded")
        return took
    }
    let readEvery = ["eager": 1, "drawn": framesPerDraw, "arrival": Int.max]
    if let mode = ProcessInfo.processInfo.environment["LIVEFRAMES_CALLGRIND"] {
        guard let every = readEvery[mode] else { preconditionFailure("LIVEFRAMES_CALLGRIND is eager, drawn or arrival") }
        _ = run(frames: 1_000, readEvery: every)
        return
    }
    var eager: [Double] = [], lazy: [Double] = [], arrivalOnly: [Double] = []
    for _ in 0..<7 {
        eager.append(run(frames: 2_000, readEvery: 1))
        lazy.append(run(frames: 2_000, readEvery: framesPerDraw))
        arrivalOnly.append(run(frames: 2_000, readEvery: Int.max))
    }
    Swift.print(String(format: "live frames (160×96): decoded on arrival median %.1f µs a frame; decoded when drawn, 1 in %d drawn, %.1f µs a frame (%.1f× less); arrival alone %.2f µs a frame (%.0f× less)",
                       median(eager) / 1e3, framesPerDraw, median(lazy) / 1e3, median(eager) / median(lazy),
                       median(arrivalOnly) / 1e3, median(eager) / median(arrivalOnly)))
}

/// The only function callgrind counts in `LIVEFRAMES_CALLGRIND` runs.
@inline(never) func liveFramesCountedLoop(_ body: () -> Void) {
    body()
}

/// The load average over 1, 5 and 15 minutes, as `uptime` prints it.
func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "? ? ?"
    return text.split(separator: " ").prefix(3).joined(separator: ", ")
}

/// Instructions per event of the floor, `mark` and a span, as callgrind counts them in `callgrindCountedLoop`: this
/// program run again under valgrind with `BENCH=callgrind`, one event per run. Stable under load, unlike times.
func instructionCounts() {
    var counts: [String] = []
    for event in ["floor", "mark", "span"] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tour-callgrind-\(getpid())-\(event)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let valgrind = Process()
        valgrind.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        valgrind.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=\(output)",
                              "--toggle-collect=*callgrindCountedLoop*", CommandLine.arguments[0]]
        valgrind.environment = ProcessInfo.processInfo.environment.merging(["BENCH": "callgrind", "CALLGRIND_EVENT": event]) { $1 }
        valgrind.standardOutput = FileHandle.nullDevice
        valgrind.standardError = FileHandle.nullDevice
        do { try valgrind.run() } catch {
            Swift.print("instructions: could not start valgrind (apt-get install valgrind): \(error)")
            return
        }
        valgrind.waitUntilExit()
        // The profile's `summary:` line holds the total of instructions counted.
        let profile = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard valgrind.terminationStatus == 0,
              let summary = profile.split(separator: "\n").first(where: { $0.hasPrefix("summary:") }),
              let total = Double(summary.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces)) else {
            Swift.print("instructions: valgrind gave no count for \(event) (status \(valgrind.terminationStatus); apt-get install valgrind)")
            return
        }
        counts.append(String(format: "%@ %.0f", event, total / Double(callgrindRepetitions)))
    }
    Swift.print("instructions per event (callgrind, \(callgrindRepetitions) events after a warm-up): " + counts.joined(separator: ", "))
}

let which = Set((ProcessInfo.processInfo.environment["BENCH"] ?? "").split(separator: ",").map(String.init))
if which == ["workload"] {
    workload()
    exit(0)
}
if which == ["samplersubject"] { samplerSubject(); exit(0) }
if which == ["callgrind"] {
    callgrindLoop()
    exit(0)
}
/// Runs one part between two readings of the load average.
func part(_ name: String, _ body: () -> Void) {
    guard which.isEmpty || which.contains(name) else { return }
    let before = loadAverage()
    body()
    Swift.print("  (\(name): load average \(before) before, \(loadAverage()) after)")
}

// First, while fd 3 is still free in this process: the pipes of the runs below may take it otherwise.
part("trace") { traceCallCost() }
part("instructions") { instructionCounts() }
part("parse") { parseRate() }
part("ingestion") { hostIngestion(events: 300_000) }
part("overhead") { tracingOverhead() }
part("startup") { startToFirstOutput(product: "Lesson01Operation") }
part("liveframes") { liveFrameCost() }
part("launch") { launchGoals() }
part("sampler") { samplerCost() }
part("room") {
    roomLatency()
    roomDashboardLatency()
}
