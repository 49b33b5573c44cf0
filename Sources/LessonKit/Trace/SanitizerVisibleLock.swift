@preconcurrency import Glibc

/// A value behind a pthread mutex: a lock Thread Sanitizer can see.
///
/// `Synchronization.Mutex` is a bare futex on Linux, which Thread Sanitizer does not intercept, so in a page built
/// with `--sanitize=thread` every access it guards was reported as a data race: 13 false reports in LessonKit's
/// trace channel alone, drowning the one race the page is about. A pthread mutex costs the same on the fast path
/// (one atomic exchange) and is intercepted.
final class SanitizerVisibleLock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` with the value if the lock is free now, without waiting; nil when another thread holds it.
    func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
