import Foundation
import PageProtocol
import Synchronization
import TourCore

/// Runs a program of this build as the tutorial would, and returns the finished record of the run.
///
/// Tests wait for the run's real end (or the watchdog's verdict), never for a fixed time, and they wait without
/// holding a thread: the record comes back with the run's `.ended` event. Runs take turns for the cores
/// (`PageRunSlots`), the more `urgent` first; a run that sleeps through nearly all of its time says it is `asleep`, and
/// one that `measuresSpeed` says with `measuringEnds` which event ends its measuring, if it goes on after it.
/// `executable` defaults to `product` in this build's products; a test that changed a page passes the program of its
/// own `ScratchPackage`. With `cpus`, the page may run only on that many of the CPUs this process may use (as under
/// `taskset`), so a claim about a number of cores holds on a machine of any size.
public func recordRun(
    product: String,
    executable: String? = nil,
    knobs: [(name: String, value: String)] = [],
    speed: Double = 1,
    stuckAfter: Double = 3,
    silentLimit: Double = 15,
    arguments: [String] = [],
    environment: [String: String] = [:],
    limits: RunRecord.Limits = RunRecord.Limits(),
    urgency: PageRunSlots.Urgency = .normal,
    measuresSpeed: Bool = false,
    measuringEnds: (@Sendable (HostEvent) -> Bool)? = nil,
    asleep: Bool = false,
    cpus: Int? = nil
) async -> RunRecord {
    let recorder = RunRecorder(limits: limits)
    let request = RunRequest(executable: executable ?? BuildProducts.executable(named: product), knobSettings: knobs.map(KnobSetting.init), speed: speed,
                             stuckAfter: stuckAfter, silentLimit: silentLimit, extraArguments: arguments, extraEnvironment: environment)
    let label = ([product] + knobs.map { "\($0.name)=\($0.value)" } + ["×\(speed)"]).joined(separator: " ")
    let ticket = await PageRunSlots.shared.acquire(urgency, measuresSpeed: measuresSpeed, asleep: asleep, label: label)
    defer { PageRunSlots.shared.release(ticket) }
    return await withCheckedContinuation { continuation in
        let start: @Sendable () -> Void = {
            let run = PageRun.start(request) { event in
                recorder.apply(event)
                if measuringEnds?(event) == true { PageRunSlots.shared.endMeasuring(ticket) }
                // The run's last event, delivered once, after every other.
                if case .ended = event { continuation.resume(returning: recorder.record) }
            }
            RunLog.followCPU(of: run.pid, slot: ticket.number)
        }
        guard let cpus else { return start() }
        // Started from a thread of its own with fewer CPUs, which the page inherits; the thread ends once it is spawned.
        Thread {
            restrictThisThread(toFirstCPUs: cpus)
            start()
        }.start()
    }
}

/// The record of one run of this build's `product` with these knobs, speed and watchdog, shared by every test in the
/// test process that asks for the same: the first caller starts the run (`recordRun`, in a page-run slot of its
/// `urgency`), and every caller, in any suite or test target, awaits that run's record.
///
/// Use it for a run that tests only read, such as a suite's default run or a demo run an exercise grades: two suites
/// that run page 1 at 10× with its default knobs then take one page run between them, not two. A test that needs a
/// run of its own (one it compares with a rerun, one it starts from a changed program, one whose environment or
/// arguments differ) calls `recordRun`.
public func sharedRun(
    product: String,
    knobs: [(name: String, value: String)] = [],
    speed: Double = 1,
    stuckAfter: Double = 3,
    urgency: PageRunSlots.Urgency = .normal
) async -> RunRecord {
    let key = SharedRuns.Key(product: product, knobs: knobs.map { "\($0.name)=\($0.value)" }, speed: speed, stuckAfter: stuckAfter)
    let run = SharedRuns.runs.withLock { runs in
        if let started = runs[key] { return started }
        let started = Task { await recordRun(product: product, knobs: knobs, speed: speed, stuckAfter: stuckAfter, urgency: urgency) }
        runs[key] = started
        return started
    }
    return await run.value
}

/// The runs `sharedRun` started, by what was asked of them.
private enum SharedRuns {
    struct Key: Hashable {
        var product: String
        /// `name=value`, in the order given: the order the page receives them in.
        var knobs: [String]
        var speed: Double
        var stuckAfter: Double
    }

    static let runs = Mutex<[Key: Task<RunRecord, Never>]>([:])
}

extension RunRecord {
    /// The text of every output line, in order.
    public var outputText: [String] { output.map(\.text) }

    /// The first span whose name starts with `prefix`.
    public func firstSpan(startingWith prefix: String) -> Span? {
        spans.filter { $0.name.hasPrefix(prefix) }.min { $0.start < $1.start }
    }
}

extension Collection where Element == Span {
    /// The most of these spans that ran one after another, each starting once the one before had ended: how many
    /// rounds they took, read from the trace's order alone, whatever the machine's speed. Spans that only touch follow
    /// one another, as `RunRecord.mostAtOnce` does not count them together; a span still open never ends.
    public var rounds: Int {
        var count = 0
        var lastEnd: UInt64?
        for span in sorted(by: { ($0.end ?? .max) < ($1.end ?? .max) }) {
            if let lastEnd, span.start < lastEnd { continue }
            count += 1
            lastEnd = span.end ?? .max
        }
        return count
    }
}

extension RunEnding {
    /// What the watchdog found, when the run ended stuck: `try #require(record.ending?.stall)`.
    public var stall: Stall? {
        if case .stuck(let stall) = self { stall } else { nil }
    }
}
