import Foundation
import PageProtocol
import TourCore

/// Runs a program of this build as the tutorial would, and returns the finished record of the run.
///
/// Tests wait for the run's real end (or the watchdog's verdict), never for a fixed time, and they wait without
/// holding a thread: the record comes back with the run's `.ended` event. Runs take turns for the cores
/// (`PageRunSlots`), the more `urgent` first. `executable` defaults to `product` in this build's products; a test that changed a page
/// passes the program of its own `ScratchPackage`.
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
    urgency: PageRunSlots.Urgency = .normal
) async -> RunRecord {
    let recorder = RunRecorder(limits: limits)
    let request = RunRequest(executable: executable ?? BuildProducts.executable(named: product), knobSettings: knobs.map(KnobSetting.init), speed: speed,
                             stuckAfter: stuckAfter, silentLimit: silentLimit, extraArguments: arguments, extraEnvironment: environment)
    return await PageRunSlots.shared.withSlot(urgency) {
        await withCheckedContinuation { continuation in
            _ = PageRun.start(request) { event in
                recorder.apply(event)
                // The run's last event, delivered once, after every other.
                if case .ended = event { continuation.resume(returning: recorder.record) }
            }
        }
    }
}

extension RunRecord {
    /// The text of every output line, in order.
    public var outputText: [String] { output.map(\.text) }

    /// The first span whose name starts with `prefix`.
    public func firstSpan(startingWith prefix: String) -> Span? {
        spans.filter { $0.name.hasPrefix(prefix) }.min { $0.start < $1.start }
    }
}

extension RunEnding {
    /// What the watchdog found, when the run ended stuck: `try #require(record.ending?.stall)`.
    public var stall: Stall? {
        if case .stuck(let stall) = self { stall } else { nil }
    }
}
