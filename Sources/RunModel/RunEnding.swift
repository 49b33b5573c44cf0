import Foundation
import PageProtocol

/// How a run of a page ended, in terms a learner can act on.
public enum RunEnding: Sendable, Equatable {
    /// The process exited with this status; 0 is a normal end.
    case exited(code: Int32)
    /// A Swift runtime trap with its message (`Fatal error: …`, `Precondition failed: …`), and where it was raised.
    case fatalError(message: String, location: String?)
    /// SIGILL with nothing on stderr, raised inside libdispatch: a misuse it cannot survive, most often a deadlock.
    case dispatchTrap
    /// SIGILL or SIGTRAP with nothing on stderr, raised outside libdispatch: a failed check in Swift code.
    case silentTrap(TrapSite)
    /// A thread ran out of stack: the fault address lies at the low end of its stack. The signal is SIGSEGV or SIGBUS.
    case stackOverflow(signal: Int32)
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
        case .fatalError, .dispatchTrap, .silentTrap, .stackOverflow, .signal: true
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
        case .silentTrap(let site): "crashed: \(site.headline) (SIGILL, no message)"
        case .stackOverflow(let number): "crashed: stack overflow (\(SignalNames.name(of: number)))"
        case .signal(let number): "crashed: killed by \(SignalNames.name(of: number))"
        case .stuck(let stall): "stuck: no progress for \(String(format: "%.1f", stall.silentSeconds)) s" + (stall.culprits.isEmpty ? "" : " in " + stall.culprits)
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
            if message.contains("not yet ready to execute") {
                text += " Here Foundation's start() found the operation not ready: an operation it depends on has not finished. A queue waits for its dependencies; start() called by hand refuses to."
            }
            if let location { text += " Raised at \(location)." }
            return text
        case .dispatchTrap:
            return "The faulting instruction lies in libdispatch: it executed an illegal instruction (SIGILL) and printed nothing. It does that when it detects a misuse that would otherwise hang or corrupt memory: "
                + "most often `sync` onto the serial queue that is already running the caller, a deadlock in which the queue would wait for itself forever; "
                + "also a DispatchGroup `leave()` without a matching `enter()`, a DispatchSemaphore deallocated while its value is below the value it was created with (more `wait()`s than `signal()`s), "
                + "or `dispatch_assert_queue` called off the queue it names, which is how `MainActor.assumeIsolated` fails on Linux when it runs anywhere but on the main actor."
        case .silentTrap(let site):
            return site.explanation
        case .stackOverflow:
            return "A thread used up its stack: the address it faulted on lies at the low end of that thread's stack, where the next call frame would have gone. "
                + "Almost always a function that calls itself without end (a recursion whose stopping case is never reached), or two functions that call each other; "
                + "more rarely a very large local value. The page's last lines show what it was doing."
        case .signal(let number):
            return SignalNames.explanation(of: number)
        case .stuck(let stall):
            var text = "Nothing happened for \(String(format: "%.1f", stall.silentSeconds)) s (no output, no event, no span finished) while work was still open, so the tutorial stopped the page."
            if !stall.unfinishedOperations.isEmpty {
                text += " Operations that started and never finished: \(Stall.listed(stall.unfinishedOperations))."
            }
            if !stall.openSpans.isEmpty {
                text += " Still waiting in: \(Stall.listed(stall.openSpans))."
            }
            if !stall.dependencyCycle.isEmpty {
                text += " The dependencies form a cycle, so none of them can ever become ready: \(Stall.listed(stall.dependencyCycle, separator: " → "))."
            }
            return text
        case .stopped:
            return "The run was stopped before it ended on its own."
        case .failedToStart(let reason):
            return "The page's program could not be started: \(reason)."
        }
    }
}

/// Where a silent trap was raised, from the image that holds the faulting instruction (the page's `crash` event).
public enum TrapSite: Sendable, Equatable {
    /// In the page's own program: a check the compiler put into its code.
    case pageCode(image: String)
    /// In the Swift runtime and standard library, `libswiftCore.so`.
    case swiftRuntime
    /// In Foundation (`libFoundation*.so`).
    case foundation
    /// In another library, named.
    case library(String)
    /// The page sent no crash report (it crashed before LessonKit was first used), so nothing says where.
    case unknown

    /// The site for a trap at a faulting instruction in `image`; `isProgram` when that image is the page's executable.
    init(image: String, isProgram: Bool) {
        if isProgram { self = .pageCode(image: image) }
        else if image.hasPrefix("libswiftCore") { self = .swiftRuntime }
        else if image.hasPrefix("libFoundation") { self = .foundation }
        else if image.isEmpty { self = .unknown }
        else { self = .library(image) }
    }

    var headline: String {
        switch self {
        case .pageCode: "a check in the page's own code stopped it"
        case .swiftRuntime: "a check in the Swift runtime stopped it"
        case .foundation: "a check in Foundation stopped it"
        case .library(let name): "a trap in \(name) stopped it"
        case .unknown: "a trap stopped it"
        }
    }

    var explanation: String {
        let checks = "an arithmetic overflow, a force-unwrapped nil, an index out of range, or a failed precondition"
        switch self {
        case .pageCode(let image):
            return "The faulting instruction lies in the page's own program (\(image)): Swift compiles a trap instruction after each check it makes in your code, and one of them failed: \(checks). "
                + "An overflow says nothing before it stops the program; the other checks usually print a `Fatal error` line in an unoptimised build. The page's last lines show where it got to."
        case .swiftRuntime:
            return "The faulting instruction lies in the Swift runtime (libswiftCore): one of its checks failed without a message, such as \(checks) inside the standard library."
        case .foundation:
            return "The faulting instruction lies in Foundation: one of its checks failed without a message, such as \(checks) inside Foundation's own code."
        case .library(let name):
            return "The faulting instruction lies in \(name), which executed an illegal instruction and printed nothing."
        case .unknown:
            return "The process executed an illegal instruction and printed nothing, and sent no report of where. Swift's own checks (\(checks)) end that way, and so does libdispatch when it detects a misuse such as `sync` onto the queue it is running."
        }
    }
}

/// What LessonKit's crash handler reported about the signal that ended a page (a `crash` trace event).
public struct CrashReport: Sendable, Equatable {
    public var signal: Int32
    /// The file name of the image holding the faulting instruction; empty when none does.
    public var image: String
    /// The image is the page's own executable.
    public var isProgram: Bool
    /// The fault address lies at the low end of the crashing thread's stack.
    public var isStackOverflow: Bool

    public init(signal: Int32, image: String, isProgram: Bool, isStackOverflow: Bool) {
        self.signal = signal
        self.image = image
        self.isProgram = isProgram
        self.isStackOverflow = isStackOverflow
    }

    /// The report a `crash` event carries, or nil for any other event.
    public init?(_ event: PageEvent) {
        guard case .crash(let signal, let image, let inProgram, _, _, let stackOverflow) = event.kind else { return nil }
        self.init(signal: signal, image: image, isProgram: inProgram, isStackOverflow: stackOverflow)
    }
}

/// What was open when a run stopped making progress.
public struct Stall: Sendable, Equatable {
    /// Spans that began and never ended, as "name (T3)", the lane of the thread they began on.
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

    /// The names worth putting in a one-line summary, most telling first, in at most a few hundred characters.
    var culprits: String {
        if !dependencyCycle.isEmpty { return "the cycle " + Self.listed(dependencyCycle, separator: " → ") }
        return Self.listed(unfinishedOperations + openSpans)
    }

    /// `names` joined by `separator` while they fit in about `budget` characters, then "… and 9,990 more": a stall
    /// can hold ten thousand open spans, and a summary must stay a line.
    static func listed(_ names: [String], separator: String = ", ", budget: Int = 200) -> String {
        var text = ""
        for (index, name) in names.enumerated() {
            let piece = (index == 0 ? "" : separator) + name
            // The last name may use the room the "and N more" would have taken.
            let room = index == names.count - 1 ? budget + 24 : budget
            guard text.count + piece.count <= room || index == 0 else {
                return text + " … and \(CountText.grouped(names.count - index)) more"
            }
            text += index == 0 && piece.count > budget ? String(piece.prefix(budget - 1)) + "…" : piece
        }
        return text
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

/// Decides how a run ended from how its process ended, the tail of its stderr and the page's crash report.
public enum EndingClassifier {
    /// `stderrTail` is the last lines the page wrote to stderr; `crash` the report LessonKit's crash handler sent,
    /// if it sent one.
    public static func classify(_ exit: ProcessExit, stderrTail: [String], crash: CrashReport? = nil) -> RunEnding {
        let signal: Int32
        switch exit {
        case .exited(let code): return .exited(code: code)
        case .killed(let killer): signal = killer
        }
        if let trap = runtimeTrap(in: stderrTail) {
            return trap
        }
        // A report for another signal (a handler that died before re-raising) says nothing about this one.
        let report = crash?.signal == signal ? crash : nil
        if let report, report.isStackOverflow, signal == SIGSEGV || signal == SIGBUS {
            return .stackOverflow(signal: signal)
        }
        if signal == SIGILL || signal == SIGTRAP {
            guard let report else { return .silentTrap(.unknown) }
            if report.image.hasPrefix("libdispatch") { return .dispatchTrap }
            return .silentTrap(TrapSite(image: report.image, isProgram: report.isProgram))
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
