/// What a level program and the host say to each other: a level is its own executable (`Levels/NN-name/`), and
/// `tour levels`, `tour play` and `tour explore` run it and read these documents, one JSON document a line on its
/// standard output. LessonKit encodes them and the host decodes them, so both use these types and no other.
///
/// A level program takes one mode:
/// - `--describe`: prints one `LevelDescription`.
/// - `--explore [--fixed] (--preemptions K | --random N --seed S)`: searches its schedules in-process and prints one
///   `ExploreReport`.
/// - `--play [--fixed]`: prints a `PlayState`, then reads one thread number a line on its standard input, takes that
///   thread's next step and prints the `PlayState` after it, until the run ends or its input does.

/// A level as `tour levels` lists it and `tour play` introduces it.
public struct LevelDescription: Codable, Sendable, Equatable {
    /// The name commands take: `lost-update`.
    public var name: String
    /// Raised whenever the level's gates change, so a schedule saved for an older version is refused, not misread.
    public var version: Int
    public var title: String
    /// The page the level is drawn from (1-based), if any.
    public var page: Int?
    /// The prose that opens the level: what the program does and what to make it do.
    public var introduction: String
    /// From a nudge to nearly the answer.
    public var hints: [String]
    /// The failure to reach, as a condition the tool checks: "both threads inside the critical section".
    public var goal: String
    /// What the fix changes, in words: "the counter is an actor".
    public var fix: String
    /// The threads' names, in the order their numbers (1, 2, …) name them.
    public var threads: [String]

    public init(name: String, version: Int, title: String, page: Int?, introduction: String, hints: [String], goal: String,
                fix: String, threads: [String]) {
        self.name = name
        self.version = version
        self.title = title
        self.page = page
        self.introduction = introduction
        self.hints = hints
        self.goal = goal
        self.fix = fix
        self.threads = threads
    }
}

/// One step of a schedule: the thread that took it, and the gate it passed, in words ("load count → 0") and by its kind
/// (for the lanes; absent from a level that does not say it).
public struct LevelStep: Codable, Sendable, Equatable {
    public var thread: Int
    public var action: String
    public var kind: GateKind?

    public init(thread: Int, action: String, kind: GateKind? = nil) {
        self.thread = thread
        self.action = action
        self.kind = kind
    }
}

/// The kinds of gate a step can pass (`docs/level-format.md`).
public enum GateKind: String, Codable, Sendable, CaseIterable {
    case load, store, lock, unlock, wait, signal, sync, barrier, resume, call, await
    /// Back on an actor after an `await` inside one of its methods.
    case back
    /// A task's start on a pool.
    case start
}

/// Work a level did outside every gate, which the scheduler does not control and so cannot order: a line it printed, or
/// a gate passed by a thread the level did not start through its run (an escaped `Thread`, a GCD block), which the
/// gate lets through ungated.
public struct UngatedWork: Codable, Sendable, Equatable {
    /// The level's thread that did it; nil for a thread the level did not start through its run.
    public var thread: Int?
    /// How many steps the run had taken when it happened.
    public var afterStep: Int
    /// In words: "printed 'hello'", "passed store count".
    public var what: String

    /// How much a level keeps and sends: the latest, so a thread printing without end cannot grow the level or the host.
    public static let kept = 32

    public init(thread: Int?, afterStep: Int, what: String) {
        self.thread = thread
        self.afterStep = afterStep
        self.what = what
    }
}

/// The kinds of failure a level can reach.
public enum LevelFailureKind: String, Codable, Sendable, CaseIterable {
    /// Two threads inside a critical section at once.
    case mutualExclusion = "mutual-exclusion"
    /// A shared value that ended different from the one expected.
    case lostUpdate = "lost-update"
    /// Threads alive and none able to step.
    case deadlock
    /// The level's code trapped (a continuation resumed twice, a force unwrap).
    case crash
    /// An assertion of the level failed.
    case assertion
}

/// An edge of a deadlock's wait-for graph: `thread`, holding `holds`, waits for `waitsFor`, which `heldBy` holds.
public struct WaitForEdge: Codable, Sendable, Equatable {
    public var thread: Int
    public var holds: [String]
    public var waitsFor: String
    /// The thread holding what `thread` waits for; nil when nobody does (a semaphore nobody will signal).
    public var heldBy: Int?

    public init(thread: Int, holds: [String], waitsFor: String, heldBy: Int?) {
        self.thread = thread
        self.holds = holds
        self.waitsFor = waitsFor
        self.heldBy = heldBy
    }
}

extension WaitForEdge {
    /// The edge in words, its threads by their names (`threads[0]` is thread 1): "T1 holds A and waits for lock B, which
    /// T2 holds". What the page named is sanitised for the terminal.
    public func sentence(threads: [String]) -> String {
        func name(_ thread: Int) -> String {
            TerminalText.sanitized(threads.indices.contains(thread - 1) ? threads[thread - 1] : "T\(thread)")
        }
        let held = holds.isEmpty ? "holds nothing" : "holds " + holds.map(TerminalText.sanitized).joined(separator: " and ")
        let holder = heldBy.map { ", which \(name($0)) holds" } ?? ", which nobody will give"
        return "\(name(thread)) \(held) and waits for \(TerminalText.sanitized(waitsFor))\(holder)"
    }
}

extension UngatedWork {
    /// The work in words, its thread by its name: "T2 printed 'hello' after step 3", "a thread the level did not start
    /// passed store count after step 1". Sanitised for the terminal.
    public func sentence(threads: [String]) -> String {
        let who = thread.map { threads.indices.contains($0 - 1) ? threads[$0 - 1] : "T\($0)" } ?? "a thread the level did not start"
        return TerminalText.sanitized("\(who) \(what) after step \(afterStep)")
    }
}

/// The failure a run reached.
public struct LevelFailure: Codable, Sendable, Equatable {
    public var kind: LevelFailureKind
    /// In words: "count is 1 after two increments; 2 was expected".
    public var message: String
    /// For a deadlock, the wait-for graph; empty otherwise.
    public var waitFor: [WaitForEdge]

    public init(kind: LevelFailureKind, message: String, waitFor: [WaitForEdge] = []) {
        self.kind = kind
        self.message = message
        self.waitFor = waitFor
    }
}

/// A thread of a level being played, as the screen shows its column.
public struct LevelThreadState: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        /// Parked at a gate whose step can be taken now.
        case enabled
        /// Parked at a gate whose step cannot be taken yet (a lock held by another, a semaphore at zero).
        case blocked
        case finished
    }

    /// 1-based, as a digit key and a schedule name it.
    public var id: Int
    public var name: String
    public var status: Status
    /// The line of the level's source the thread is parked on.
    public var line: Int?
    /// The step it takes next, in words ("store count = 1").
    public var next: String?
    /// What it waits for while blocked ("lock B").
    public var blockedOn: String?
    /// The locks it holds.
    public var holds: [String]

    public init(id: Int, name: String, status: Status, line: Int?, next: String?, blockedOn: String?, holds: [String]) {
        self.id = id
        self.name = name
        self.status = status
        self.line = line
        self.next = next
        self.blockedOn = blockedOn
        self.holds = holds
    }
}

/// A shared value as the screen shows it.
public struct SharedValueState: Codable, Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Where a level being played stands: after its start, and after each step.
public struct PlayState: Codable, Sendable, Equatable {
    public var threads: [LevelThreadState]
    public var shared: [SharedValueState]
    /// The steps taken so far, in order: the schedule.
    public var steps: [LevelStep]
    /// Set once the run has ended: the failure it reached, or nil when every thread finished and the level's check held.
    public var ended: Bool
    public var failure: LevelFailure?
    /// Set when the step asked for could not be taken (no such thread, a thread blocked or finished), with why; the
    /// state is otherwise unchanged.
    public var refusal: String?
    /// The latest work done outside the gates (at most `UngatedWork.kept` of it), oldest first; absent when there was none.
    public var ungated: [UngatedWork]?

    public init(threads: [LevelThreadState], shared: [SharedValueState], steps: [LevelStep], ended: Bool,
                failure: LevelFailure?, refusal: String?, ungated: [UngatedWork]? = nil) {
        self.threads = threads
        self.shared = shared
        self.steps = steps
        self.ended = ended
        self.failure = failure
        self.refusal = refusal
        self.ungated = ungated
    }
}

/// A failing schedule found by the search.
public struct FailingSchedule: Codable, Sendable, Equatable {
    public var steps: [LevelStep]
    public var failure: LevelFailure

    public init(steps: [LevelStep], failure: LevelFailure) {
        self.steps = steps
        self.failure = failure
    }
}

/// What `--explore` found.
public struct ExploreReport: Codable, Sendable, Equatable {
    public var level: String
    public var version: Int
    public var fixed: Bool
    /// How it searched, in words: "every schedule with at most 2 preemptions", "100 random schedules (PCT, depth 3),
    /// seed 7".
    public var strategy: String
    /// Whether every schedule within the bound was run (false for random search, or when a cap stopped it).
    public var exhaustive: Bool
    public var schedules: Int
    public var failing: Int
    /// How many failing schedules of each kind.
    public var failures: [String: Int]
    /// The shortest failing schedule, nil when none failed.
    public var shortest: FailingSchedule?

    public init(level: String, version: Int, fixed: Bool, strategy: String, exhaustive: Bool, schedules: Int, failing: Int,
                failures: [String: Int], shortest: FailingSchedule?) {
        self.level = level
        self.version = version
        self.fixed = fixed
        self.strategy = strategy
        self.exhaustive = exhaustive
        self.schedules = schedules
        self.failing = failing
        self.failures = failures
        self.shortest = shortest
    }
}
