/*:
 # Exercise: answer six tasks without blocking one

 `PriceService.request(_:completion:)`, in LessonKit, is a service of the new kind with an old-style callback: it returns at once, looks the price up in a task of the default priority (0.3 s at 1×, suspending meanwhile), and calls back from that task with the price.

 Six tasks of the default priority need prices. As written, each gets its answer with `PriceService.price(blocking:)`: it starts the request, then blocks its thread on a semaphore until the callback signals. The callback needs a slot of the same `Swift global concurrent queue` the blocked tasks hold, and there are only as many slots as logical CPUs: with every slot blocked, no answer can come. The service gives up after 1 s at 1× and returns nil, so the program ends, with no price at all, after a second for every queue's width of tasks.

 Your task: write `price(of:)`, an `async` function that suspends with `withCheckedContinuation`, resumed exactly once by the callback with the price, and await it from the six tasks in place of `PriceService.price(blocking:)`. Making a function `async` is not enough: one that waits on a semaphore inside still blocks its thread.

 What the check looks at (`tour check 14`, or `c` in the tutorial): it builds and runs this file and reads what its threads did, not what it prints. It passes when the program ends normally; each of the six tasks ran its `await price N` span to its end after the service answered it ("price N answered"); more of them waited at once than the queue has slots; and no thread sat in a `blocked waiting for price N` span. Keep the names given to `trace`: the check reads them. `tour hint 14` gives a hint; `tour solution 14` opens the reference solution once the check has passed, or after two hints.
 */
import Foundation
import LessonKit

// The service, in LessonKit: `PriceService.request(_:completion:)` calls back with the price 0.3 s (at 1×) later,
// from a task of the default priority; `PriceService.price(blocking:)` blocks its caller's thread on a semaphore
// until then, or gives up after 1 s at 1×.

// Write price(of:) here: async, waiting with withCheckedContinuation.

let prices = await withTaskGroup(of: (Int, Int?).self) { group in
    for item in 1...6 {
        group.addTask(priority: .medium) {
            // Change this call: await price(of: item) instead (and await the trace around it).
            let quote = trace("await price \(item)") {
                PriceService.price(blocking: item)
            }
            return (item, quote)
        }
    }
    var prices: [Int: Int] = [:]
    for await (item, price) in group {
        prices[item] = price
    }
    return prices
}
print("Prices: \((1...6).map { prices[$0].map(String.init) ?? "none" }.joined(separator: ", "))")
