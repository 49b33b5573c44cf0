import Foundation
import PageProtocol
import TourCore

/// Runs a program of this build as the tutorial would, and returns the finished record of the run.
///
/// Tests wait for the run's real end (or the watchdog's verdict), never for a fixed time.
public func recordRun(
    product: String,
    knobs: [(name: String, value: String)] = [],
    speed: Double = 1,
    stuckAfter: Double = 3,
    silentLimit: Double = 15,
    arguments: [String] = [],
    environment: [String: String] = [:],
    limits: RunRecord.Limits = RunRecord.Limits()
) -> RunRecord {
    PageProgramTurns.shared.running(product) {
        let recorder = RunRecorder(limits: limits)
        let run = PageRun.start(
            RunRequest(executable: BuildProducts.executable(named: product), knobSettings: knobs.map(KnobSetting.init), speed: speed,
                       stuckAfter: stuckAfter, silentLimit: silentLimit, extraArguments: arguments, extraEnvironment: environment),
            handler: recorder.apply
        )
        run.waitUntilEnded()
        return recorder.record
    }
}

extension RunRecord {
    /// The text of every output line, in order.
    public var outputText: [String] { output.map(\.text) }

    /// Completed spans named `name`, in order of their start.
    public func spans(named name: String) -> [Span] {
        spans.filter { $0.name == name }.sorted { $0.start < $1.start }
    }

    /// The first span whose name starts with `prefix`.
    public func firstSpan(startingWith prefix: String) -> Span? {
        spans.filter { $0.name.hasPrefix(prefix) }.min { $0.start < $1.start }
    }
}
