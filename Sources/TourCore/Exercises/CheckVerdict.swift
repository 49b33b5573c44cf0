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
    public init(of record: RunRecord, for challenge: Challenge) {
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
        findings = [ending] + challenge.judge(record)
    }
}
