import Foundation
import TourCore

/// The outcome of checking one run of a challenge's program: whether it ended, then what its judge found.
public struct CheckVerdict: Sendable, Equatable {
    /// In the order a learner reads them: the ending first, then each thing the judge looked at.
    public let findings: [CheckFinding]

    /// True when every finding holds.
    public var passed: Bool { findings.allSatisfy(\.holds) }
    /// What is still wrong, in order.
    public var failures: [CheckFinding] { findings.filter { !$0.holds } }

    /// Judges `record`, a finished run of `challenge`'s program.
    ///
    /// A run that did not end normally fails whatever else it did: a hang, a deadlock or a crash is what most
    /// challenges are about, and its headline says which. The judge still reads the rest of the run, so the learner
    /// also sees what already held before it went wrong.
    ///
    /// `threadSanitizerReports` are the reports of a run under Thread Sanitizer (`ExerciseCheck` passes them for a
    /// `threadSanitizer` challenge): each is a failing finding after the judge's, and none is a finding that holds.
    /// Nil, for a run without the sanitizer, adds nothing: its silence proves nothing.
    public init(of record: RunRecord, for challenge: Challenge, threadSanitizerReports: [ThreadSanitizerReport]? = nil) {
        let ending: CheckFinding
        switch record.ending {
        case .exited(code: 0)?:
            ending = CheckFinding(holds: true, "the program ran to its end")
        case .stuck(let stall)?:
            // Its headline starts "stuck: no progress…".
            ending = CheckFinding(holds: false, "the program got \(RunEnding.stuck(stall).headline)")
        case let other?:
            ending = CheckFinding(holds: false, "the program \(other.headline)")
        case nil:
            ending = CheckFinding(holds: false, "the program has not ended")
        }
        var findings = [ending] + challenge.judge(record)
        if let reports = threadSanitizerReports {
            findings += reports.isEmpty
                ? [CheckFinding(holds: true, "Thread Sanitizer saw no data race")]
                : Self.counted(reports.map(\.summary)).map { CheckFinding(holds: false, $0) }
        }
        self.findings = findings
    }

    /// The same race reported again from other threads reads as one finding with its count, in order of first report.
    private static func counted(_ summaries: [String]) -> [String] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for summary in summaries {
            if counts[summary] == nil { order.append(summary) }
            counts[summary, default: 0] += 1
        }
        return order.map { counts[$0]! > 1 ? "\($0) (reported \(counts[$0]!) times)" : $0 }
    }

    /// A verdict of these findings, for a check that never got to judge a run (`ExerciseCheck`).
    public init(findings: [CheckFinding]) {
        self.findings = findings
    }

    /// The verdict on a program that was not built: one failing finding that quotes the compiler's first error, with
    /// its file (relative to `packageRoot`) and line, or says why the build did not get that far.
    public init(buildFailure build: BuildOutcome, of challenge: Challenge, packageRoot: URL) {
        let text: String
        switch build.status {
        case .succeeded:
            text = "the program was built"
        case .failed:
            let errors = build.diagnostics.errors
            if let first = errors.first {
                let file = first.file(relativeTo: packageRoot)
                let others = errors.count - 1
                text = "\(challenge.file) does not compile: \(file):\(first.line):\(first.column): error: \(first.message)"
                    + (others > 0 ? " (and \(others) more error\(others == 1 ? "" : "s"))" : "")
            } else if let unlocated = build.diagnostics.unlocatedErrors.first {
                text = "\(challenge.file) did not build: \(unlocated)"
            } else {
                text = "\(challenge.file) did not build, and the build named no error; its last line: \(build.output.last ?? "(none)")"
            }
        case .cancelled:
            text = "the check was cancelled while the program was being built"
        case .timedOut:
            text = "the build of \(challenge.product) took longer than its time limit and was stopped"
        case .couldNotStart(let reason):
            text = "the build of \(challenge.product) could not start: \(reason)"
        }
        findings = [CheckFinding(holds: build.status == .succeeded, text)]
    }
}
