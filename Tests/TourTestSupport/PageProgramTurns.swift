import Foundation

/// Tests that run a page's program and tests that change and rebuild it take turns, per program.
///
/// Tests of all suites run in parallel in one process. A program being linked cannot be started (for a moment there
/// is no file, then one still open for writing: ETXTBSY), and a test comparing a page's output with its source must
/// not see another test's edit. Runs share their turn; a change has the program to itself, from the first edit to the
/// rebuild of the restored text.
public final class PageProgramTurns: @unchecked Sendable {
    public static let shared = PageProgramTurns()

    private let condition = NSCondition()
    private var runs: [String: Int] = [:]
    private var changing: Set<String> = []

    /// Runs `body` once no test is changing `product`.
    public func running<T>(_ product: String, _ body: () throws -> T) rethrows -> T {
        condition.withLock {
            while changing.contains(product) { condition.wait() }
            runs[product, default: 0] += 1
        }
        defer {
            condition.withLock {
                runs[product, default: 1] -= 1
                condition.broadcast()
            }
        }
        return try body()
    }

    /// Waits until nothing runs or changes `product`, then keeps it until `endChanging`, from any thread.
    public func beginChanging(_ product: String) {
        condition.withLock {
            while changing.contains(product) || runs[product, default: 0] > 0 { condition.wait() }
            changing.insert(product)
        }
    }

    public func endChanging(_ product: String) {
        condition.withLock {
            changing.remove(product)
            condition.broadcast()
        }
    }
}
