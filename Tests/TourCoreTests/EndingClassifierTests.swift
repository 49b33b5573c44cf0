import Testing
import PageProtocol
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// Raw `waitpid` statuses as the kernel encodes them: the exit code in bits 8–15, a signal in bits 0–6, 0x80 for a core dump.
private func exited(_ code: Int32) -> Int32 { code << 8 }
private func killed(by signal: Int32, coreDumped: Bool = false) -> Int32 { signal | (coreDumped ? 0x80 : 0) }

@Suite("Ending classifier", .bodiesBelowTheRunner)
struct EndingClassifierTests {
    @Test func normalAndFailingExits() {
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: exited(0)), stderrTail: []) == .exited(code: 0))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: exited(3)), stderrTail: []) == .exited(code: 3))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: exited(255)), stderrTail: []) == .exited(code: 255))
        // The status decides: a page that prints a trap message and exits is still an exit.
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: exited(1)), stderrTail: ["main.swift:3: Fatal error: printed, not raised"]) == .exited(code: 1))
    }

    @Test func sigillWithAFatalErrorLineIsAFatalError() {
        let tail = [
            "RunnerFixture/main.swift:67: Fatal error: boom",
            "Current stack trace:",
            "0    libswiftCore.so                    0x00007f20e175f130 swift_reportError + 33",
        ]
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: tail)
            == .fatalError(message: "Fatal error: boom", location: "RunnerFixture/main.swift:67"))
    }

    @Test func theOperationQueueMisuseKeepsItsLocation() {
        let tail = ["Foundation/Operation.swift:1196: Fatal error: operations finished, executing or already in a queue cannot be enqueued"]
        let ending = EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_, coreDumped: true)), stderrTail: tail)
        #expect(ending == .fatalError(message: "Fatal error: operations finished, executing or already in a queue cannot be enqueued",
                                      location: "Foundation/Operation.swift:1196"))
        #expect(ending.isCrash)
        #expect(ending.explanation.contains("an Operation instance runs once"))
        #expect(ending.explanation.hasSuffix("Raised at Foundation/Operation.swift:1196."))
    }

    @Test func aFatalErrorWithoutLocation() {
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: ["Fatal error: no place given"])
            == .fatalError(message: "Fatal error: no place given", location: nil))
    }

    @Test func preconditionAndAssertionFailuresWithLocation() {
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGTRAP_)), stderrTail: ["Lesson03Async/main.swift:12: Precondition failed: count >= 0"])
            == .fatalError(message: "Precondition failed: count >= 0", location: "Lesson03Async/main.swift:12"))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: ["a.swift:9: Assertion failed: x"])
            == .fatalError(message: "Assertion failed: x", location: "a.swift:9"))
    }

    @Test func trapsWithoutAMessageHaveNoColon() {
        // `fatalError()`, `precondition(false)` and `assert(false)` print the bare words, as a debug build shows.
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: ["fe/fe.swift:2: Fatal error"])
            == .fatalError(message: "Fatal error", location: "fe/fe.swift:2"))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: ["fe/fe.swift:3: Precondition failed"])
            == .fatalError(message: "Precondition failed", location: "fe/fe.swift:3"))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: ["fe/fe.swift:4: Assertion failed"])
            == .fatalError(message: "Assertion failed", location: "fe/fe.swift:4"))
        // The words inside other text are not a trap.
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: ["no Fatal errors here"]) == .silentTrap(.unknown))
    }

    @Test func theLastTrapOnStderrWins() {
        let tail = ["a.swift:1: Fatal error: first", "b.swift:2: Precondition failed: second", "Current stack trace:"]
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: tail)
            == .fatalError(message: "Precondition failed: second", location: "b.swift:2"))
    }

    @Test func aSilentTrapIsNamedByTheImageThatRaisedIt() {
        func report(_ image: String, program: Bool = false) -> CrashReport {
            CrashReport(signal: SIGILL_, image: image, isProgram: program, isStackOverflow: false)
        }
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: [], crash: report("libdispatch.so")) == .dispatchTrap)
        let overflow = EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: [], crash: report("Lesson01Operation", program: true))
        #expect(overflow == .silentTrap(.pageCode(image: "Lesson01Operation")))
        #expect(!overflow.headline.contains("libdispatch"))
        #expect(overflow.headline == "crashed: a check in the page's own code stopped it (SIGILL, no message)")
        #expect(overflow.explanation.contains("arithmetic overflow"))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: [], crash: report("libswiftCore.so")) == .silentTrap(.swiftRuntime))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: [], crash: report("libFoundationEssentials.so")) == .silentTrap(.foundation))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGTRAP_)), stderrTail: [],
                                          crash: CrashReport(signal: SIGTRAP_, image: "libz.so.1", isProgram: false, isStackOverflow: false))
            == .silentTrap(.library("libz.so.1")))
        // A message on stderr still wins: it says more than the image.
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: ["a.swift:1: Fatal error: x"], crash: report("libswiftCore.so"))
            == .fatalError(message: "Fatal error: x", location: "a.swift:1"))
        #expect(RunEnding.dispatchTrap.isCrash)
        #expect(overflow.isCrash)
    }

    @Test func withoutAReportASilentTrapBlamesNoOne() {
        let ending = EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: [])
        #expect(ending == .silentTrap(.unknown))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: ["an unrelated line the page wrote"]) == .silentTrap(.unknown))
        #expect(!ending.headline.contains("libdispatch"))
        // A report about another signal says nothing about this one.
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGILL_)), stderrTail: [],
                                          crash: CrashReport(signal: SIGSEGV_, image: "libdispatch.so", isProgram: false, isStackOverflow: false))
            == .silentTrap(.unknown))
    }

    @Test func aStackOverflowIsNamed() {
        let overflow = CrashReport(signal: SIGSEGV_, image: "libswiftCore.so", isProgram: false, isStackOverflow: true)
        let ending = EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGSEGV_, coreDumped: true)), stderrTail: [], crash: overflow)
        #expect(ending == .stackOverflow(signal: SIGSEGV_))
        #expect(ending.headline == "crashed: stack overflow (SIGSEGV)")
        #expect(ending.explanation.contains("calls itself"))
        #expect(ending.isCrash)
        let wild = CrashReport(signal: SIGSEGV_, image: "Lesson01Operation", isProgram: true, isStackOverflow: false)
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGSEGV_)), stderrTail: [], crash: wild) == .signal(SIGSEGV_))
    }

    @Test func otherSignals() {
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGSEGV_)), stderrTail: []) == .signal(SIGSEGV_))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGSEGV_, coreDumped: true)), stderrTail: ["noise"]) == .signal(SIGSEGV_))
        #expect(EndingClassifier.classify(ProcessExit(waitStatus: killed(by: SIGKILL_)), stderrTail: []) == .signal(SIGKILL_))
        #expect(RunEnding.signal(SIGSEGV_).headline == "crashed: killed by SIGSEGV")
        #expect(RunEnding.signal(SIGSEGV_).explanation.hasPrefix("The process was ended by SIGSEGV: a segmentation fault"))
        #expect(RunEnding.signal(40).headline == "crashed: killed by signal 40")
    }

    @Test func whatCountsAsANormalExitOrACrash() {
        #expect(RunEnding.exited(code: 0).isNormalExit)
        #expect(!RunEnding.exited(code: 3).isNormalExit)
        #expect(!RunEnding.exited(code: 3).isCrash)
        #expect(!RunEnding.stopped.isCrash)
        #expect(!RunEnding.stuck(Stall(openSpans: [], unfinishedOperations: [], silentSeconds: 1)).isCrash)
        #expect(!RunEnding.failedToStart("x").isCrash)
    }
}

@Suite("Ended as expected", .bodiesBelowTheRunner)
struct EndedAsExpectedTests {
    private let stall = Stall(openSpans: ["wait (main)"], unfinishedOperations: [], silentSeconds: 3)

    private func record(expecting ending: Ending?, endedWith result: RunEnding?) -> RunRecord {
        var record = RunRecord()
        record.apply(.started(pid: 10, time: 1))
        if let ending {
            record.apply(.trace(PageEvent(time: 2, thread: 10, queue: "", kind: .expect(ending: ending, why: "on purpose"))))
        }
        if let result { record.apply(.ended(result, time: 3)) }
        return record
    }

    @Test func anExpectedCrash() {
        #expect(record(expecting: .crash, endedWith: .fatalError(message: "Fatal error: x", location: nil)).endedAsExpected)
        #expect(record(expecting: .crash, endedWith: .dispatchTrap).endedAsExpected)
        #expect(record(expecting: .crash, endedWith: .signal(11)).endedAsExpected)
        #expect(!record(expecting: .crash, endedWith: .exited(code: 0)).endedAsExpected)
        #expect(!record(expecting: .crash, endedWith: .stuck(stall)).endedAsExpected)
        #expect(!record(expecting: .crash, endedWith: .stopped).endedAsExpected)
        #expect(record(expecting: .crash, endedWith: .dispatchTrap).expectation == Expectation(ending: .crash, reason: "on purpose"))
    }

    @Test func anExpectedHang() {
        #expect(record(expecting: .stuck, endedWith: .stuck(stall)).endedAsExpected)
        #expect(!record(expecting: .stuck, endedWith: .exited(code: 0)).endedAsExpected)
        #expect(!record(expecting: .stuck, endedWith: .dispatchTrap).endedAsExpected)
        #expect(!record(expecting: .stuck, endedWith: .stopped).endedAsExpected)
    }

    @Test func noExpectationMeansANormalExit() {
        #expect(record(expecting: nil, endedWith: .exited(code: 0)).endedAsExpected)
        #expect(!record(expecting: nil, endedWith: .exited(code: 3)).endedAsExpected)
        #expect(!record(expecting: nil, endedWith: .fatalError(message: "Fatal error: x", location: nil)).endedAsExpected)
        #expect(!record(expecting: nil, endedWith: .stuck(stall)).endedAsExpected)
    }

    @Test func aRunThatHasNotEndedHasNotEndedAsExpected() {
        #expect(!record(expecting: nil, endedWith: nil).endedAsExpected)
        #expect(!record(expecting: .stuck, endedWith: nil).endedAsExpected)
    }
}

// Signal numbers on Linux x86_64 and arm64, spelled out so the expectations do not depend on Glibc's macros.
private let SIGILL_: Int32 = 4
private let SIGTRAP_: Int32 = 5
private let SIGKILL_: Int32 = 9
private let SIGSEGV_: Int32 = 11
