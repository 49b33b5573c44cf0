import Synchronization
import Testing
import TourTestSupport

/// The slots hand a freed slot to the most urgent waiter, and among equals to the one that came first: page 2's
/// chain must not queue behind every other test's first run.
@Suite("Page-run slots")
struct PageRunSlotsTests {
    @Test func aFreedSlotGoesToTheMostUrgentWaiterThenTheLongestWaiting() async throws {
        let slots = PageRunSlots(count: 1)
        await slots.acquire()
        let order = Order()
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Asked for in this order, each once the one before waits.
            for (name, urgency) in [("first normal", PageRunSlots.Urgency.normal), ("follow-up", .followUp),
                                    ("second normal", .normal), ("critical", .criticalPath)] {
                let before = slots.waiting
                group.addTask {
                    await slots.withSlot(urgency) { order.names.withLock { $0.append(name) } }
                }
                try #require(await eventually(timeout: 30) { slots.waiting == before + 1 }, "\(name) never waited")
            }
            slots.release()
            try await group.waitForAll()
        }
        #expect(order.names.withLock { $0 } == ["critical", "follow-up", "first normal", "second normal"])
        #expect(slots.waiting == 0)
    }
}

/// The order in which waiters got their slot.
private final class Order: Sendable {
    let names = Mutex<[String]>([])
}
