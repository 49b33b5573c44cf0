import Foundation

/// How a run of a page ended, in terms a learner can act on.
public enum RunEnding: Sendable, Equatable {
    /// The process exited with this status; 0 is a normal end.
    case exited(code: Int32)
    /// A Swift runtime trap with its message (`Fatal error: …`, `Precondition failed: …`), and where it was raised.
    case fatalError(message: String, location: String?)
    /// SIGILL with nothing on stderr: libdispatch trapping a misuse it cannot survive, most often a deadlock.
    case dispatchTrap
    /// Any other signal, by number.
    case signal(Int32)
    /// The watchdog saw no progress while work was still open, and stopped the page.
    case stuck(Stall)
    /// The learner (or the host) stopped the run.
    case stopped
    /// The page could not be started at all.
    case failedToStart(String)

    /// True for a clean exit with status 0.
    public var isNormalExit: Bool { self == .exited(code: 0) }

    /// True when the process ended by a crash: a trap, a fatal error or a signal it did not ask for.
    public var isCrash: Bool {
        switch self {
        case .fatalError, .dispatchTrap, .signal: true
        default: false
        }
    }

    /// One line, such as "crashed: Fatal error: operations finished … cannot be enqueued".
    public var headline: String {
        switch self {
        case .exited(0): "ended normally"
        case .exited(let code): "exited with status \(code)"
        case .fatalError(let message, _): "crashed: \(message)"
        case .dispatchTrap: "crashed: libdispatch stopped it (SIGILL, no message)"
        case .signal(let number): "crashed: killed by \(SignalNames.name(of: number))"
        case .stuck(let stall): "stuck: no progress for \(String(format: "%.1f", stall.silentSeconds)) s" + (stall.culprits.isEmpty ? "" : " in " + stall.culprits.joined(separator: ", "))
        case .stopped: "stopped on request"
        case .failedToStart(let reason): "could not start: \(reason)"
        }
    }

    /// What this ending means and what usually causes it, for a learner.
    public var explanation: String {
        switch self {
        case .exited(0):
            return "The page ran to its last line and exited."
        case .exited(2):
            return "The page refused to run: see its message on stderr (usually a knob value it cannot take)."
        case .exited(let code):
            return "The page called exit(\(code)) or returned a failure status of its own."
        case .fatalError(let message, let location):
            var text = "Swift stopped the program on purpose: a fatal error is raised when code breaks a rule that cannot be recovered from."
            if message.contains("cannot be enqueued") {
                text += " Here Foundation refused to enqueue an operation that is finished, executing or already in a queue: an Operation instance runs once; make a new one to run the work again."
            }
            if let location { text += " Raised at \(location)." }
            return text
        case .dispatchTrap:
            return "libdispatch executed an illegal instruction (SIGILL) and printed nothing. It does that when it detects a misuse that would otherwise hang or corrupt memory: "
                + "most often `sync` onto the serial queue that is already running the caller, a deadlock in which the queue would wait for itself forever; "
                + "also a DispatchGroup `leave()` without a matching `enter()`. "
                + "(Swift's own silent checks, such as an arithmetic overflow in an optimised build, end the same way; the page's last lines show which it was.)"
        case .signal(let number):
            return SignalNames.explanation(of: number)
        case .stuck(let stall):
            var text = "Nothing happened for \(String(format: "%.1f", stall.silentSeconds)) s (no output, no event, no span finished) while work was still open, so the tutorial stopped the page."
            if !stall.unfinishedOperations.isEmpty {
                text += " Operations that started and never finished: \(stall.unfinishedOperations.joined(separator: ", "))."
            }
            if !stall.openSpans.isEmpty {
                text += " Still waiting in: \(stall.openSpans.joined(separator: ", "))."
            }
            if !stall.dependencyCycle.isEmpty {
                text += " The dependencies form a cycle, so none of them can ever become ready: \(stall.dependencyCycle.joined(separator: " → "))."
            }
            return text
        case .stopped:
            return "The run was stopped before it ended on its own."
        case .failedToStart(let reason):
            return "The page's program could not be started: \(reason)."
        }
    }
}

/// What was open when a run stopped making progress.
public struct Stall: Sendable, Equatable {
    /// Spans that began and never ended, as "name (thread 1234)".
    public var openSpans: [String]
    /// Operations that reported `executing` and never `finished`.
    public var unfinishedOperations: [String]
    /// Operation names along a dependency cycle, first name repeated at the end, when one exists.
    public var dependencyCycle: [String]
    public var silentSeconds: Double

    public init(openSpans: [String], unfinishedOperations: [String], dependencyCycle: [String] = [], silentSeconds: Double) {
        self.openSpans = openSpans
        self.unfinishedOperations = unfinishedOperations
        self.dependencyCycle = dependencyCycle
        self.silentSeconds = silentSeconds
    }

    /// The names worth putting in a one-line summary, most telling first.
    var culprits: [String] {
        if !dependencyCycle.isEmpty { return ["the cycle " + dependencyCycle.joined(separator: " → ")] }
        return unfinishedOperations + openSpans
    }
}

/// Signal names and what they usually mean, since `signal 11` tells a learner nothing.
enum SignalNames {
    private static let known: [Int32: (name: String, meaning: String)] = [
        1: ("SIGHUP", "the terminal that owned the page went away"),
        2: ("SIGINT", "someone pressed Ctrl-C"),
        4: ("SIGILL", "the processor met an illegal instruction, which Swift and libdispatch use to stop a program on purpose"),
        5: ("SIGTRAP", "a trap instruction, which Swift uses for runtime errors"),
        6: ("SIGABRT", "the program called abort(), usually from a failed check in C code"),
        7: ("SIGBUS", "a bad memory access"),
        8: ("SIGFPE", "an arithmetic error such as an integer division by zero"),
        9: ("SIGKILL", "something killed the process outright; without a request from the tutorial, often the kernel's out-of-memory killer"),
        11: ("SIGSEGV", "a segmentation fault: the program touched memory it does not own"),
        13: ("SIGPIPE", "it wrote to a pipe nobody was reading"),
        15: ("SIGTERM", "something asked the process to terminate"),
    ]

    static func name(of number: Int32) -> String {
        known[number]?.name ?? "signal \(number)"
    }

    static func explanation(of number: Int32) -> String {
        guard let entry = known[number] else { return "The process was ended by signal \(number)." }
        return "The process was ended by \(entry.name): \(entry.meaning)."
    }
}

/// Decides how a run ended from its wait status and the tail of its stderr.
public enum EndingClassifier {
    /// `status` is the raw `waitpid` status; `stderrTail` the last lines the page wrote to stderr.
    public static func classify(waitStatus status: Int32, stderrTail: [String]) -> RunEnding {
        let signal = status & 0x7f
        if signal == 0 {
            return .exited(code: (status >> 8) & 0xff)
        }
        if let trap = runtimeTrap(in: stderrTail) {
            return trap
        }
        if signal == 4 {
            return .dispatchTrap
        }
        return .signal(signal)
    }

    /// The last Swift runtime trap message on stderr, such as
    /// `Foundation/Operation.swift:1196: Fatal error: operations … cannot be enqueued`.
    /// Without a message the runtime prints the bare words: `main.swift:2: Fatal error`.
    static func runtimeTrap(in lines: [String]) -> RunEnding? {
        let markers = ["Fatal error", "Precondition failed", "Assertion failed"]
        for line in lines.reversed() {
            for marker in markers {
                guard let range = line.range(of: marker),
                      range.upperBound == line.endIndex || line[range.upperBound] == ":" else { continue }
                let message = marker + line[range.upperBound...]
                let before = line[..<range.lowerBound].trimmingCharacters(in: [" ", ":"])
                return .fatalError(message: message.trimmingCharacters(in: [" "]), location: before.isEmpty ? nil : before)
            }
        }
        return nil
    }
}
