@preconcurrency import Glibc

/// What a page tells Thread Sanitizer about a lock it cannot see.
///
/// `Synchronization.Mutex` waits in a futex, inside the Synchronization library, which was not built with Thread
/// Sanitizer: when two threads contend for it, the sanitizer never sees the hand-over and reports the accesses the
/// lock guards as a data race that is not there (measured with Swift 6.3.1 on Linux: 2 of 5 runs of 2,000 contended
/// `Mutex`-guarded appends reported one). Thread Sanitizer's own annotations, `__tsan_acquire` and `__tsan_release`,
/// tell it what the lock did. They exist only in a program built with `-sanitize=thread`, so they are looked up at
/// run time; in any other build the lookup finds nothing and the calls below do nothing.
public enum ThreadSanitizer {
    private typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private static let annotations: (acquire: Annotation, release: Annotation)? = {
        guard let program = dlopen(nil, RTLD_NOW),
              let acquire = dlsym(program, "__tsan_acquire"), let release = dlsym(program, "__tsan_release") else { return nil }
        return (unsafeBitCast(acquire, to: Annotation.self), unsafeBitCast(release, to: Annotation.self))
    }()

    /// Whether the page runs under Thread Sanitizer.
    public static var isActive: Bool { annotations != nil }

    /// Runs `body`, the critical section of a lock the sanitizer cannot see, as one it can: call it first thing
    /// inside `withLock`, with the object that owns the lock, so every section of that lock is ordered after the last.
    public static func criticalSection<Result>(of owner: AnyObject, _ body: () throws -> Result) rethrows -> Result {
        guard let annotations else { return try body() }
        let address = Unmanaged.passUnretained(owner).toOpaque()
        annotations.acquire(address)
        defer { annotations.release(address) }
        return try body()
    }
}
