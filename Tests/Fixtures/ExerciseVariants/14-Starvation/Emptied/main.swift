import Foundation
import LessonKit

// The service, in LessonKit: `PriceService.request(_:completion:)` calls back with the price 0.3 s (at 1×) later,
// from a task of the default priority; `PriceService.price(blocking:)` blocks its caller's thread on a semaphore
// until then, or gives up after 1 s at 1×.
