@preconcurrency import Glibc

/// Nanoseconds on `CLOCK_MONOTONIC`: the clock pages stamp their events with and the host measures against.
///
/// Inlinable, so a page's event pays for `clock_gettime` and nothing more. It allocates nothing and calls only
/// `clock_gettime`, so the crash handler may use it too.
@inlinable @inline(__always)
public func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Nanoseconds of processor time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): read at a span's two
/// ends, it says whether the span computed or waited. Unlike the monotonic clock it is a real system call on Linux
/// (no vDSO path), so it is read only while a host listens.
@inlinable
public func threadCPUNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
