import Synchronization
import Testing
import TourTestSupport

/// The slots hand a freed slot to the most urgent waiter, and among equals to the one that came first: page 2's
/// chain must not queue behind every other test's first run.
@Suite("Page-run slots", .bodiesBelowTheRunner)
struct PageRunSlotsTests {
    @Test func aFreedSlotGoesToTheMostUrgentWaiterThenTheLongestWaiting() async throws {
        let slots = PageRunSlots(count: 1)
        await slots.acquire()
        let order = Order()
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Asked for in this order, each once the one before waits.
            for (name, urgency) in [("first normal", PageRunSlots.Urgency.normal), ("follow-up", .followUp),
                                    ("second normal", .normal), ("critical", .criticalPath), ("longest", .longestChain)] {
                let before = slots.waiting
                group.addTask {
                    await slots.withSlot(urgency) { order.names.withLock { $0.append(name) } }
                }
                try #require(await eventually(timeout: 30) { slots.waiting == before + 1 }, "\(name) never waited")
            }
            slots.release()
            try await group.waitForAll()
        }
        #expect(order.names.withLock { $0 } == ["longest", "critical", "follow-up", "first normal", "second normal"])
        #expect(slots.waiting == 0)
    }

    /// A run that measures a speed-up waits for every core's slot, keeps the runs asked for after it waiting, and gives
    /// all slots but its own back once it has measured.
    @Test func aRunThatMeasuresHasTheCoresToItselfUntilItHasMeasured() async throws {
        let slots = PageRunSlots(count: 2)
        let before = await slots.acquire()
        try await withThrowingTaskGroup(of: Void.self) { group in
            let measuring = Mutex<PageRunSlots.Ticket?>(nil)
            let measuringStarted = Occurrences(), laterStarted = Occurrences(), mayEnd = Occurrences()
            group.addTask {
                let ticket = await slots.acquire(.longestChain, measuresSpeed: true)
                measuring.withLock { $0 = ticket }
                measuringStarted.signal()
            }
            try #require(await eventually(timeout: 30) { slots.waiting == 1 })
            group.addTask {
                await slots.withSlot {
                    laterStarted.signal()
                    _ = await mayEnd.next()
                }
            }
            try #require(await eventually(timeout: 30) { slots.waiting == 2 })
            #expect(slots.held == 1, "a core's slot is free, yet the run asked for later waits behind the measuring one")
            slots.release(before)
            #expect(await measuringStarted.next())
            #expect(slots.held == 2 && slots.waiting == 1, "the measuring run holds both cores' slots")
            let ticket = try #require(measuring.withLock { $0 })
            slots.endMeasuring(ticket)
            #expect(await laterStarted.next())
            #expect(slots.held == 2 && slots.waiting == 0, "one slot each")
            slots.release(ticket)
            mayEnd.signal()
            try await group.waitForAll()
        }
        #expect(slots.held == 0)
    }

    /// A run that sleeps starts while every slot is taken, and neither takes a slot nor hands one on when it ends.
    @Test func aRunAsleepStartsAtOnceAndLeavesTheSlotsAsTheyWere() async throws {
        let slots = PageRunSlots(count: 1)
        let holder = await slots.acquire()
        let asleep = await slots.acquire(asleep: true)
        #expect(slots.held == 1, "the sleeping run is not counted")
        try await withThrowingTaskGroup(of: Void.self) { group in
            let started = Occurrences()
            group.addTask { await slots.withSlot { started.signal() } }
            try #require(await eventually(timeout: 30) { slots.waiting == 1 })
            slots.release(asleep)
            #expect(slots.waiting == 1 && slots.held == 1, "the sleeping run's end frees no slot")
            slots.release(holder)
            #expect(await started.next())
            try await group.waitForAll()
        }
        #expect(slots.held == 0 && slots.waiting == 0)
    }
}

/// Beyond one slot per core, a run starts only while the machine leaves a core unused, and never more than `most`.
@Suite("Page-run slots and the CPU meter", .bodiesBelowTheRunner)
struct PageRunSlotsMeterTests {
    @Test func beyondTheCoresARunStartsOnlyWhileACoreIsIdleAndNeverMoreThanTheMost() async throws {
        let counters = FakeCounters()
        let meter = IdleCores(cores: 2, window: .milliseconds(20), read: counters.read)
        let slots = PageRunSlots(count: 1, most: 3, idleCores: meter, settle: .milliseconds(20), checkEvery: .milliseconds(2))
        await slots.acquire()
        try await withThrowingTaskGroup(of: Void.self) { group in
            let started = Occurrences()
            let mayEnd = Occurrences()
            for _ in 0..<3 {
                group.addTask {
                    await slots.withSlot {
                        started.signal()
                        _ = await mayEnd.next()
                    }
                }
            }
            try #require(await eventually(timeout: 30) { slots.waiting == 3 })
            // Both cores busy: however often the meter is read, nobody starts beyond the one slot.
            try #require(await counters.readAgain())
            #expect(slots.waiting == 3 && slots.held == 1)
            // A core and a half idle: one more starts, then, once its start has settled, another, up to three.
            counters.idleShare.withLock { $0 = 0.75 }
            #expect(await started.next())
            #expect(await started.next())
            #expect(slots.held == 3 && slots.waiting == 1)
            try #require(await counters.readAgain())
            #expect(slots.held == 3 && slots.waiting == 1, "three at most, however idle the machine")
            // Half a core idle: slots given back beyond the first stay free while the last run waits.
            counters.idleShare.withLock { $0 = 0.25 }
            // Once the meter's window holds only the new readings.
            try #require(await counters.readAgain())
            mayEnd.signal()
            mayEnd.signal()
            try #require(await eventually(timeout: 30) { slots.held == 1 })
            try #require(await counters.readAgain())
            #expect(slots.held == 1 && slots.waiting == 1, "half a core idle is not room for a run")
            // The first slot given back goes to it at once, whatever the meter says.
            slots.release()
            #expect(await started.next())
            #expect(slots.held == 1 && slots.waiting == 0)
            mayEnd.signal()
            try await group.waitForAll()
        }
        #expect(slots.held == 0)
    }

    /// An idle machine lets several runs in at once, each counted as using `spare` until the meter can see it: one
    /// admission per `settle` left the suite's short runs queueing while the machine stood idle.
    @Test func anIdleMachineLetsInAsManyRunsAtOnceAsItHasSpareCoresFor() async throws {
        let counters = FakeCounters()
        counters.idleShare.withLock { $0 = 1 }
        let meter = IdleCores(cores: 2, window: .milliseconds(20), read: counters.read)
        // A settle time no test waits for: every run that starts here starts within it, the first one's too.
        let slots = PageRunSlots(count: 1, most: 8, idleCores: meter, spare: 0.5, settle: .seconds(600),
                                 checkEvery: .milliseconds(2))
        await slots.acquire()
        let (together, afterMoreReadings) = try await withThrowingTaskGroup(of: Void.self) { group in
            let mayEnd = Occurrences()
            for _ in 0..<5 {
                group.addTask {
                    await slots.withSlot { _ = await mayEnd.next() }
                }
            }
            // Two idle cores, half a core for each run started within `settle` (the one holding the core slot too):
            // three start together, and the other two wait for what the meter will show.
            _ = await eventually(timeout: 30) { slots.held == 4 }
            let together = (held: slots.held, waiting: slots.waiting)
            _ = await counters.readAgain()
            let afterMoreReadings = (held: slots.held, waiting: slots.waiting)
            // Every run ends, whatever was found, so that a failure cannot leave the group waiting.
            slots.release()
            for _ in 0..<5 { mayEnd.signal() }
            try await group.waitForAll()
            return (together, afterMoreReadings)
        }
        #expect(together == (held: 4, waiting: 2), "three start at once beside the first")
        #expect(afterMoreReadings == (held: 4, waiting: 2), "no more than the spare cores allow before the meter shows them")
        #expect(slots.held == 0)
    }

    /// A run that measures a speed-up starts only once the meter finds the cores idle, whatever slots runs that wait
    /// still hold, or once it has waited its longest.
    @Test func aRunThatMeasuresWaitsForQuietCoresOrItsLongestWait() async throws {
        let counters = FakeCounters()
        let meter = IdleCores(cores: 2, window: .milliseconds(20), read: counters.read)
        let slots = PageRunSlots(count: 2, most: 2, idleCores: meter, spare: 0.5, settle: .milliseconds(20),
                                 checkEvery: .milliseconds(2), longestWaitForQuiet: .seconds(3600))
        let waitingRun = await slots.acquire()
        try await withThrowingTaskGroup(of: Void.self) { group in
            let started = Occurrences()
            group.addTask {
                await slots.withSlot(measuresSpeed: true) { started.signal() }
            }
            // Both cores busy (another program, or the test process itself): a slot free, yet it waits.
            try #require(await eventually(timeout: 30) { slots.waiting == 1 })
            try #require(await counters.readAgain())
            #expect(slots.waiting == 1 && slots.held == 1)
            // A core and a half idle is quiet enough with half a core to spare, the other run still in its slot.
            counters.idleShare.withLock { $0 = 0.75 }
            #expect(await started.next())
            try await group.waitForAll()
        }
        slots.release(waitingRun)
        let impatient = PageRunSlots(count: 2, most: 2, idleCores: IdleCores(cores: 2, window: .milliseconds(20), read: FakeCounters().read),
                                     spare: 0.5, settle: .milliseconds(20), checkEvery: .milliseconds(2), longestWaitForQuiet: .zero)
        let ticket = await impatient.acquire(measuresSpeed: true)
        #expect(impatient.held == 2, "on a machine that stays busy it starts after its longest wait")
        impatient.release(ticket)
        #expect(slots.held == 0 && impatient.held == 0)
    }

    /// A run that measures a speed-up keeps the meter from letting extra runs in beside it, however idle the machine.
    @Test func whileARunMeasuresASpeedUpNoRunStartsBeyondTheCores() async throws {
        let counters = FakeCounters()
        counters.idleShare.withLock { $0 = 1 }
        let meter = IdleCores(cores: 2, window: .milliseconds(20), read: counters.read)
        let slots = PageRunSlots(count: 1, most: 3, idleCores: meter, settle: .milliseconds(20), checkEvery: .milliseconds(2))
        let measuring = await slots.acquire(measuresSpeed: true)
        try await withThrowingTaskGroup(of: Void.self) { group in
            let started = Occurrences()
            let mayEnd = Occurrences()
            group.addTask {
                await slots.withSlot {
                    started.signal()
                    _ = await mayEnd.next()
                }
            }
            try #require(await eventually(timeout: 30) { slots.waiting == 1 })
            try #require(await counters.readAgain())
            #expect(slots.waiting == 1 && slots.held == 1, "both cores idle, yet nothing starts beside the measuring run")
            // Its slot goes to the waiter, which measures nothing: the meter may let others in again.
            slots.release(measuring)
            #expect(await started.next())
            await slots.acquire()
            #expect(slots.held == 2, "an idle machine lets a run in beyond the cores once nothing measures")
            slots.release()
            mayEnd.signal()
            try await group.waitForAll()
        }
        #expect(slots.held == 0)
    }

    @Test func theMeterReadsIdleAndIOWaitAgainstEverythingUpToSteal() throws {
        let counters = try #require(IdleCores.counters("cpu  100 5 20 300 40 1 2 32 7 0\ncpu0 50 2 10 150 20 1 1 16 3 0\n"))
        #expect(counters.idle == 340)
        #expect(counters.total == 500)
        #expect(IdleCores.counters("intr 12 3 4") == nil)
    }
}

/// `/proc/stat`'s counters as a test sets them: each read adds 100 ticks, `idleShare` of them idle.
private final class FakeCounters: Sendable {
    let idleShare = Mutex(0.0)
    private let totals = Mutex((idle: UInt64(0), total: UInt64(0), reads: 0))

    var reads: Int { totals.withLock { $0.reads } }

    /// Waits until the meter has read these counters thirty more times, so the slots have judged what they now say;
    /// false if that takes longer than 30 s.
    func readAgain() async -> Bool {
        let before = reads
        return await eventually(timeout: 30) { self.reads >= before + 30 }
    }

    var read: @Sendable () -> (idle: UInt64, total: UInt64)? {
        { [self] in
            let share = idleShare.withLock { $0 }
            return totals.withLock { totals in
                totals.reads += 1
                totals.total += 100
                totals.idle += UInt64(share * 100)
                return (totals.idle, totals.total)
            }
        }
    }
}

/// The order in which waiters got their slot.
private final class Order: Sendable {
    let names = Mutex<[String]>([])
}
