import Foundation
import LessonKit

// The service, in LessonKit: `PriceService.request(_:completion:)` calls back with the price 0.3 s (at 1×) later,
// from a task of the default priority; `PriceService.price(blocking:)` blocks its caller's thread on a semaphore
// until then, or gives up after 1 s at 1×.

/// The new way: suspend the task until the callback has answered, holding no thread and no slot of the queue.
func price(of item: Int) async -> Int {
    await withCheckedContinuation { continuation in
        PriceService.request(item) { price in
            continuation.resume(returning: price)
        }
    }
}

let prices = await withTaskGroup(of: (Int, Int?).self) { group in
    for item in 1...6 {
        group.addTask(priority: .medium) {
            let quote = await trace("await price \(item)") {
                await price(of: item)
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
