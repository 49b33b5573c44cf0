@preconcurrency import Glibc
import CDispatch
import CLinuxSystem

/// Per-thread cache of the kernel thread id: `gettid` is a real system call (about 100 ns), the cache about 2 ns.
private let threadIDKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// The identity of the thread and queue an event happened on.
public enum ThreadIdentity {
    /// The kernel's id for the current thread, as `ps -L` and `top -H` show it.
    public static var current: Int32 {
        if let cached = pthread_getspecific(threadIDKey) {
            return Int32(truncatingIfNeeded: Int(bitPattern: cached))
        }
        let id = gettid()
        pthread_setspecific(threadIDKey, UnsafeRawPointer(bitPattern: Int(id)))
        // A thread's first use of LessonKit: the moment to get it ready for a crash report.
        CrashReport.prepareCurrentThread()
        return id
    }

    /// The label of the dispatch queue running the current code, for example `com.apple.main-thread`.
    ///
    /// Swift's `Dispatch` overlay hides `dispatch_queue_get_label`, so this reaches it through `CDispatch`.
    public static var currentQueueLabel: String {
        String(cString: currentQueueCLabel)
    }

    /// The same label as libdispatch keeps it, valid while the queue runs the caller: events copy it from here
    /// without making a `String` (which costs an allocation for any label longer than 15 bytes).
    static var currentQueueCLabel: UnsafePointer<CChar> {
        dispatch_queue_get_label(nil)
    }

    /// True on the process's first thread, whose id equals the process id.
    public static var isMainThread: Bool { current == getpid() }
}
