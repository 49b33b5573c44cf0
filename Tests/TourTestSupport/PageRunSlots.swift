import Foundation
import Synchronization

/// Page runs of every test take turns for the machine's CPU: a few at once, the others suspended (never blocked)
/// until the machine has room for them.
///
/// Pages compute (filters), and their watchdog calls a page stuck after a few seconds without progress; forty page
/// runs started together on two cores, as the suite's tests would, starve one another past that. Most runs, though,
/// mostly wait (a page at 1× sleeps through its simulated downloads, a fixture waits for the watchdog, a tutorial in
/// tmux waits for keys), and a run that waits costs the machine nothing. So:
/// - As many runs as the machine has cores (and at least two) always get a slot at once: that many are always
///   running, whatever the machine is doing.
/// - Beyond those, up to `most` at once, runs start while `spare` cores' worth of CPU went unused over the last
///   `settle` (`IdleCores`, from the kernel's counters of the whole machine), once each run that started within that
///   time in a new slot (not one handed over from a run that ended), whose CPU would not show yet, is counted as
///   using `spare` itself. So a machine idle by 1.9
///   cores lets three runs in at once, and a run or two more as their use shows. Letting in only one run per
///   `settle`, the suite's last 35 s were its short runs queueing for that one admission every 0.4 s with the
///   machine 1.5–1.9 cores idle. The suite's own slots ask for half a core: asked for a whole one, they held two
///   slots most of the time while the machine used 1.2 cores on average, the test process's own work keeping the
///   idle share just under a core. The meter is looked at every `checkEvery` while a run waits. On a machine kept
///   busy by others, or by pages that compute, no run starts beyond the cores' count.
///
/// A free slot goes to the most urgent waiter, and among equals to the one that has waited longest. The suite lasts
/// as long as its longest chain of runs that wait for one another, so a run's `Urgency` says where it stands:
/// - `.normal`, the default: a test's first run, or runs that do not wait for one another (`async let`, static
///   `Task`s started together). Almost every new test belongs here, and its runs fill the gaps the chains leave.
/// - `.followUp`: a run that a test starts only after an earlier run of its own ended (a retry, runs that take
///   turns with one another), or after slow work of its own (a build). Without it each run of a chain queues again
///   behind every test's first run.
/// - `.criticalPath`: the runs of the suite's long chains, such as each test's tmux session (`Tmux.start`), and the
///   short runs of a suite whose chain is the longest (page 2's other runs). They start early, so the rest of the
///   suite runs beside them.
/// - `.longestChain`: the suite's longest chain, page 2's (`QueuePageTests`): the page at 1× for about 11 s, and up
///   to two runs more for the speed-up after it, each with the cores to itself while it measures (`measuresSpeed`).
///   Queued with the tmux sessions, its first run waited for them until 10 s in, and the hundred and fifty runs held
///   back while it measures waited until 30 s in.
/// A run that another test may ask for too (a suite's default run, a demo run an exercise grades) goes through
/// `sharedRun`, which runs it once for the whole test process.
/// A new test stays off the critical path if its runs are short (a speed factor of 10 or more where its claims
/// hold; about a second of running each) and, when it needs several, starts them together rather than one after
/// another, or marks each later one `.followUp`. One that needs a long chain of its own should shorten it first:
/// a test with ten runs of a second one after another cannot end before ten seconds plus the waits, however the
/// slots are shared.
///
/// `TOUR_TEST_SLOTS=cores` gives only the cores' count of slots, as before the CPU meter (to compare the two in one
/// build); `TOUR_TEST_RUN_LOG` logs every slot's life (`RunLog`).
public final class PageRunSlots: Sendable {
    /// One slot per core (at least two) always, and up to four per core while the machine has half a core to spare.
    public static let shared: PageRunSlots = {
        let cores = max(2, ProcessInfo.processInfo.activeProcessorCount)
        if ProcessInfo.processInfo.environment["TOUR_TEST_SLOTS"] == "cores" { return PageRunSlots(count: cores) }
        // A window of 200 ms: over 400 ms, in turns with it in one session (at load 2–4), the suite took 68.2 and
        // 69.7 s against 61.4 and 66.3 s. The kernel's counters tick every 10 ms, so 200 ms still reads to a twentieth
        // of a core.
        return PageRunSlots(count: cores, most: 4 * cores, idleCores: IdleCores(cores: cores, window: .milliseconds(200)),
                            spare: 0.5, settle: .milliseconds(200))
    }()

    /// How soon a waiting run gets a slot: see `PageRunSlots`.
    public enum Urgency: Int, Sendable, Comparable {
        case normal, followUp, criticalPath, longestChain

        public static func < (lhs: Urgency, rhs: Urgency) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A slot taken, or asked for: its number in `RunLog`.
    public struct Ticket: Sendable {
        public let number: Int
        /// Whether its run measures a speed-up (`acquire`'s `measuresSpeed`).
        let measuresSpeed: Bool
        /// Whether its run sleeps through nearly all of its time (`acquire`'s `asleep`): a slot beside the counted ones.
        let asleep: Bool
    }

    private struct Waiter {
        var urgency: Urgency
        var ticket: Ticket
        var continuation: CheckedContinuation<Void, Never>
        var asked = ContinuousClock.now
    }

    private struct State {
        var held = 0
        /// Most urgent first; among equals, in the order they came.
        var waiters: [Waiter] = []
        /// When each slot given out within the last `settle` made more runs than before, oldest first: a slot handed
        /// from a run that ended to a waiting one is not counted, since the machine's load need not change. Counting
        /// those, the suite's short runs came and went so often that one was always within `settle`, and no run ever
        /// started beyond the cores.
        var recentGrowth: [ContinuousClock.Instant] = []
        /// Whether a look at the meter is due (`check`).
        var checking = false
        var nextTicket = 0
        /// The tickets of slots held by runs that measure a speed-up now: while there is one, no run starts beyond the
        /// cores' count.
        var measuring: Set<Int> = []
    }

    private let count: Int
    private let most: Int
    private let idleCores: IdleCores?
    /// How many cores' worth of CPU must have gone unused over `settle` for one more run to start, and how much each
    /// run started within `settle` is taken to use until the meter can show it.
    private let spare: Double
    private let settle: Duration
    private let checkEvery: Duration
    /// How long a run that measures a speed-up waits, at most, for the meter to find the cores idle.
    private let longestWaitForQuiet: Duration
    private let state = Mutex(State())

    /// Exactly `count` slots, whatever the machine's load.
    public init(count: Int) {
        self.count = count
        most = count
        idleCores = nil
        spare = .infinity
        settle = .zero
        checkEvery = .zero
        longestWaitForQuiet = .zero
    }

    /// `count` slots always, and up to `most` while `idleCores` finds `spare` cores unused over `settle` for each run
    /// started in a new slot within `settle`, and one more. A run that measures a speed-up starts once the meter finds
    /// all but `spare` of the `count` cores idle, or `longestWaitForQuiet` after it asked.
    public init(count: Int, most: Int, idleCores: IdleCores, spare: Double = 1, settle: Duration = .milliseconds(400),
                checkEvery: Duration = .milliseconds(100), longestWaitForQuiet: Duration = .seconds(8)) {
        self.longestWaitForQuiet = longestWaitForQuiet
        self.spare = spare
        self.count = count
        self.most = max(count, most)
        self.idleCores = idleCores
        self.settle = settle
        self.checkEvery = checkEvery
    }

    /// How many runs wait for a slot now.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// How many slots are taken now.
    public var held: Int { state.withLock { $0.held } }

    /// Waits for a free slot and takes it; give it back with `release`. `label` names it in `RunLog`.
    ///
    /// `measuresSpeed`: the run times work against the cores it gets (page 2's widths), so it takes every core's slot:
    /// it starts once the meter finds the cores idle (with runs that wait, such as tmux sessions, still holding their
    /// slots) or after `longestWaitForQuiet`, the runs asked for after it waiting too, and nothing starts beside it
    /// until it ends or says it has measured (`endMeasuring`). Waiting for every other slot to be given back instead,
    /// it once waited 10 s behind a tmux session with the machine idle. Beside the extra runs the meter let in, page
    /// 2's width 2 measured 1.43× width 1 with 1.7 cores busy; beside one other run in the second core's slot, its
    /// batches had 0.59–1.40 cores busy in four suite runs in a row, and the speed-up test counted none of them.
    ///
    /// `asleep`: the run sleeps through nearly all of its time, as page 8's stand-in for a Thread Sanitizer build that
    /// prints nothing for 14 s. It starts at once and is not counted among the slots: it uses no core, and held in a
    /// counted slot it kept another run waiting for its whole sleep, then started last and ended the suite 14 s later.
    @discardableResult
    public func acquire(_ urgency: Urgency = .normal, measuresSpeed: Bool = false, asleep: Bool = false,
                        label: String? = nil, fileID: String = #fileID, line: Int = #line) async -> Ticket {
        let ticket = state.withLock { state -> Ticket in
            state.nextTicket += 1
            return Ticket(number: state.nextTicket, measuresSpeed: measuresSpeed, asleep: asleep)
        }
        log("ask", ticket.number, label ?? "\(fileID):\(line)", "\(urgency)")
        if asleep {
            log("grant", ticket.number, "asleep", String(held))
            return ticket
        }
        await withCheckedContinuation { continuation in
            let (granted, startChecking) = state.withLock { state -> (Bool, Bool) in
                // Behind a waiter, even one that waits for the cores to be quiet, a run waits too.
                if state.waiters.isEmpty && fits(ticket, state) {
                    grant(&state, to: ticket)
                    return (true, false)
                }
                let place = state.waiters.firstIndex { $0.urgency < urgency } ?? state.waiters.endIndex
                state.waiters.insert(Waiter(urgency: urgency, ticket: ticket, continuation: continuation), at: place)
                return (false, startCheckingIfNeeded(&state))
            }
            if granted {
                logGrant(of: ticket)
                continuation.resume()
            }
            if startChecking { check() }
        }
        return ticket
    }

    /// Gives a slot back (every core's, from a run that was still measuring): the most urgent waiters, the longest
    /// waiting among equals, get them.
    public func release(_ ticket: Ticket? = nil) {
        log("release", ticket?.number ?? 0)
        if ticket?.asleep == true { return }
        let started = state.withLock { state -> [Waiter] in
            let wasMeasuring = ticket.map { state.measuring.remove($0.number) != nil } ?? false
            state.held -= wasMeasuring ? count : 1
            return startFitting(&state, handedOver: true)
        }
        resume(started)
    }

    /// Says that the run holding `ticket` has measured its speed-up: it keeps one slot, gives the other cores' slots
    /// to waiters, and the meter may let runs in beside it again. Page 2 measures its widths in its first two seconds;
    /// the rest of the run measures nothing.
    public func endMeasuring(_ ticket: Ticket) {
        let (ended, started) = state.withLock { state -> (Bool, [Waiter]) in
            guard state.measuring.remove(ticket.number) != nil else { return (false, []) }
            state.held -= count - 1
            return (true, startFitting(&state, handedOver: false))
        }
        if ended { log("measured", ticket.number) }
        resume(started)
    }

    /// Whether `ticket`'s run may start within the cores' slots now. One that measures a speed-up needs all of them
    /// free where there is no meter; with a meter, it starts only when `check` finds the cores quiet.
    private func fits(_ ticket: Ticket, _ state: State) -> Bool {
        guard ticket.measuresSpeed else { return state.held < count }
        return idleCores == nil && state.held == 0
    }

    /// Grants slots to the waiters at the front of the queue while they fit in the cores' slots; `handedOver` when
    /// the slots are ones a run just gave back.
    private func startFitting(_ state: inout State, handedOver: Bool) -> [Waiter] {
        var started: [Waiter] = []
        while let next = state.waiters.first, fits(next.ticket, state) {
            state.waiters.removeFirst()
            grant(&state, to: next.ticket, handedOver: handedOver)
            started.append(next)
        }
        return started
    }

    /// Lets the runs just given slots go on, each logged.
    private func resume(_ started: [Waiter]) {
        for waiter in started {
            logGrant(of: waiter.ticket)
            waiter.continuation.resume()
        }
    }

    /// Runs `body` in a slot of its own. `label` names it in `RunLog`.
    public func withSlot<T>(_ urgency: Urgency = .normal, measuresSpeed: Bool = false, asleep: Bool = false,
                            label: String? = nil, fileID: String = #fileID, line: Int = #line,
                            _ body: () async throws -> T) async rethrows -> T {
        let ticket = await acquire(urgency, measuresSpeed: measuresSpeed, asleep: asleep, label: label, fileID: fileID,
                                   line: line)
        defer { release(ticket) }
        return try await body()
    }

    /// Notes an event in `RunLog`, for the shared slots only: a test's own slots number their tickets apart.
    private func log(_ event: String, _ slot: Int, _ fields: String...) {
        guard self === Self.shared else { return }
        RunLog.note(event, slot, fields)
    }

    /// Notes in `RunLog` a slot given within the cores' count, or every core's to a run that measures a speed-up.
    private func logGrant(of ticket: Ticket) {
        log("grant", ticket.number, ticket.measuresSpeed ? "every core" : "core", String(held))
    }

    /// Takes a slot for `ticket`, every core's if it measures a speed-up; `handedOver` when it is one a run just gave
    /// back.
    private func grant(_ state: inout State, to ticket: Ticket, handedOver: Bool = false) {
        if ticket.measuresSpeed {
            state.held += count
            state.measuring.insert(ticket.number)
        } else {
            state.held += 1
        }
        guard !handedOver else { return }
        // Pruned here too, not only in `check`: slots taken while no run waits would otherwise pile up until one does.
        let now = ContinuousClock.now
        state.recentGrowth.removeAll { now - $0 >= settle }
        state.recentGrowth.append(now)
    }

    /// Marks a look at the meter as due, if there is a meter, a run waits and none is due yet; true if the caller
    /// should start the looks (`check`).
    private func startCheckingIfNeeded(_ state: inout State) -> Bool {
        guard let idleCores, !state.checking, !state.waiters.isEmpty else { return false }
        state.checking = true
        // Readings from before a pause in the looks would average over the pause.
        idleCores.reset()
        return true
    }

    /// Looks at the meter, starts the most urgent waiters the machine has room for (see `PageRunSlots`), and looks
    /// again after `checkEvery` while any run waits.
    private func check() {
        guard let idleCores else { return }
        let now = ContinuousClock.now
        let idle = idleCores.sample(at: now)
        let (started, again) = state.withLock { state -> ([Waiter], Bool) in
            guard !state.waiters.isEmpty else {
                state.checking = false
                return ([], false)
            }
            state.recentGrowth.removeAll { now - $0 >= settle }
            var started: [Waiter] = []
            while let next = state.waiters.first {
                // What the meter cannot show yet: the runs started within its window, each taken to use `spare`.
                let unseen = Double(state.recentGrowth.count) * spare
                let extraAllowed = state.held < most && state.measuring.isEmpty && (idle ?? 0) - unseen >= spare
                if next.ticket.measuresSpeed {
                    // Never as an extra, and the runs behind it wait for it. The test process's own work counts too:
                    // started beside its first 3 s, when it used 1.7 cores, page 2's batches had 0.6 cores busy.
                    let quiet = (idle ?? 0) >= Double(count) - spare
                    guard state.measuring.isEmpty, quiet || now - next.asked >= longestWaitForQuiet else { break }
                } else {
                    guard fits(next.ticket, state) || extraAllowed else { break }
                }
                state.waiters.removeFirst()
                grant(&state, to: next.ticket)
                started.append(next)
            }
            return (started, true)
        }
        for waiter in started {
            log("grant", waiter.ticket.number, String(format: "idle=%.2f", idle ?? -1), String(held))
            waiter.continuation.resume()
        }
        if again {
            DispatchQueue.global().asyncAfter(deadline: .now() + checkEvery.seconds) { [self] in check() }
        }
    }
}

private extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
