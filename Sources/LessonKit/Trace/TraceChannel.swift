@preconcurrency import Glibc
import Foundation
import PageProtocol

/// Where a page's events go: the host's trace pipe on fd 3, or nowhere when the page runs alone
/// (its readable narration goes to stdout instead).
///
/// A `write(2)` per event would cost about a microsecond, more than everything else an event costs, so
/// lines are gathered in a buffer: whole lines only, appended under a lock, so no line ever tears whatever
/// its size or the number of threads. A flusher thread writes a line that follows half a millisecond of quiet at
/// once, so a page's occasional `print` reaches the host with no added wait; lines that follow closer than that
/// gather for half a millisecond (at once when 64 KiB wait). It also writes at exit, and from a crash handler
/// before the process dies, so nothing sent before a crash is lost.
final class TraceChannel: Sendable {
    /// How long the flusher lets lines gather before it writes them: short enough to look live.
    static let gatherMicroseconds: UInt32 = 500

    /// Whether lines that woke the flusher at `now` go out at once: when the last write ended at least a gathering's
    /// length before (or there was none, `lastWriteEnded` 0), they are not part of a burst, and waiting would only
    /// delay them. Within a burst they gather, so a flood costs one write per half millisecond, not one per line.
    static func writesAtOnce(now: UInt64, lastWriteEnded: UInt64) -> Bool {
        lastWriteEnded == 0 || now &- lastWriteEnded >= UInt64(gatherMicroseconds) * 1_000
    }

    let fileDescriptor: Int32?
    private let buffer: LineBuffer?

    private init(fileDescriptor: Int32?) {
        self.fileDescriptor = fileDescriptor
        buffer = fileDescriptor.map { LineBuffer(fileDescriptor: $0) }
    }

    /// Opens the host's channel when fd 3 is one; a channel that sends nothing when the page runs on its own.
    static func fromEnvironment() -> TraceChannel {
        let open = carriesLines(PageTransport.traceDescriptor)
        let channel = TraceChannel(fileDescriptor: open ? PageTransport.traceDescriptor : nil)
        if let buffer = channel.buffer {
            buffer.startFlusher()
            CrashFlush.install(buffer)
            atexit { CrashFlush.flushAtExit() }
        }
        return channel
    }

    /// Whether `descriptor` is something lines can be written to: a pipe (the host's), a socket, a file or a device.
    ///
    /// Being open is not enough. In a program run on its own, fd 3 is free, and libdispatch takes the lowest free
    /// descriptor for its epoll instance the first time a queue needs it; a page that first touches LessonKit after
    /// that would take the epoll descriptor for the host's pipe and send its events, and its narration, nowhere.
    /// Such descriptors (epoll, eventfd, timerfd) are anonymous inodes, with no file type in their mode.
    static func carriesLines(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        switch status.st_mode & S_IFMT {
        case S_IFIFO, S_IFSOCK, S_IFREG, S_IFCHR: return true
        default: return false
        }
    }

    /// A channel that sends nothing, for a page in control mode (`ControlMode`).
    static let disconnected = TraceChannel(fileDescriptor: nil)

    var isConnected: Bool { fileDescriptor != nil }

    /// Queues one complete line, newline included.
    func send(_ line: UnsafeRawBufferPointer) {
        buffer?.append(line)
    }

    /// Writes out everything queued so far before it returns.
    func flush() {
        buffer?.flush()
    }
}

/// Whole lines waiting to be written, and the descriptor they go to.
///
/// Two buffers: threads append to one under a lock held only for a copy, while the flusher writes the
/// other out with no lock held, so a slow pipe never makes writers queue up behind a system call.
final class LineBuffer: @unchecked Sendable {
    /// Once this many bytes wait, the flusher writes them at once instead of letting more gather.
    static let capacity = 1 << 16

    let fileDescriptor: Int32
    /// Raw storage, so the crash handler can reach it without calls into the Swift runtime.
    private var filling: UnsafeMutablePointer<UInt8>
    private var spare: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var waitingForSpace = 0
    private var broken = false
    private let lock = SanitizerVisibleLock<Void>(())
    private let wake = DispatchSemaphore(value: 0)
    private let spaceFreed = DispatchSemaphore(value: 0)
    /// Serialises writes to the descriptor: the flusher's, and `flush()` from any thread.
    private let writeLock = SanitizerVisibleLock<Void>(())

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        filling = .allocate(capacity: Self.capacity * 2)
        spare = .allocate(capacity: Self.capacity * 2)
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count > Self.capacity {
            // Larger than a buffer's worth: written whole, after everything queued before it.
            writeLock.withLock { _ in
                writeOutQueued()
                writeAll(bytes)
            }
            return
        }
        while true {
            let appended = lock.withLock { _ -> Bool in
                guard !broken else { return true }
                guard count + bytes.count <= Self.capacity * 2 else {
                    waitingForSpace += 1
                    return false
                }
                UnsafeMutableRawPointer(filling + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                let before = count
                count += bytes.count
                if before == 0 || (before < Self.capacity && count >= Self.capacity) { wake.signal() }
                return true
            }
            if appended { return }
            spaceFreed.wait()
        }
    }

    /// Writes out everything queued so far before it returns.
    func flush() {
        writeLock.withLock { _ in writeOutQueued() }
    }

    func startFlusher() {
        let flusher = Thread { [self] in
            var lastWriteEnded: UInt64 = 0
            while true {
                wake.wait()
                let full = lock.withLock { _ in count >= Self.capacity }
                if !full && !TraceChannel.writesAtOnce(now: monotonicNanoseconds(), lastWriteEnded: lastWriteEnded) {
                    usleep(TraceChannel.gatherMicroseconds)
                }
                flush()
                lastWriteEnded = monotonicNanoseconds()
            }
        }
        flusher.name = "lessonkit-trace"
        flusher.start()
    }

    /// Swaps the buffers under the lock and writes the full one without it. Called with `writeLock` held.
    private func writeOutQueued() {
        let (bytes, waiters) = lock.withLock { _ -> (UnsafeRawBufferPointer, Int) in
            swap(&filling, &spare)
            let taken = UnsafeRawBufferPointer(start: spare, count: count)
            count = 0
            let waiters = waitingForSpace
            waitingForSpace = 0
            return (taken, waiters)
        }
        writeAll(bytes)
        for _ in 0..<waiters { spaceFreed.signal() }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                // The host is gone; a page that outlives it stops paying for writes.
                lock.withLock { _ in broken = true }
                return
            }
            offset += written
        }
    }

    /// For the crash handler only: writes the filling buffer up to its last complete line.
    ///
    /// The flusher may be writing out the buffer it has just taken, and lines read from the buffers mid-swap would
    /// go out twice, so this waits for the write lock; but only briefly and without blocking, because the crashing
    /// thread itself may hold it.
    func writeOutFromSignalHandler() {
        for _ in 0..<Self.signalHandlerLockAttempts {
            if writeLock.withLockIfAvailable({ _ in writeFillingFromSignalHandler() }) != nil { return }
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
            nanosleep(&pause, nil)
        }
        writeFillingFromSignalHandler()
    }

    /// About 200 ms of 0.1 ms pauses: far longer than one write of a buffer takes.
    private static let signalHandlerLockAttempts = 2_000

    /// Writes the filling buffer up to its last complete line without taking the buffer lock, which the crashing
    /// thread may hold.
    private func writeFillingFromSignalHandler() {
        var end = count
        while end > 0 && filling[end - 1] != 10 { end -= 1 }
        var offset = 0
        while offset < end {
            let written = write(fileDescriptor, filling + offset, end - offset)
            if written <= 0 { return }
            offset += written
        }
        count = 0
    }
}

/// Writes out waiting trace lines when the page crashes or is told to stop, reports the crash, then lets the signal
/// take its course.
///
/// The handler runs on the thread's alternate signal stack (`CrashReport.prepareCurrentThread` gives one to every thread
/// that uses LessonKit), so it runs even when the thread died of a stack overflow and has no stack left.
enum CrashFlush {
    nonisolated(unsafe) private static var buffer: LineBuffer?
    /// A child forked after the buffer filled shares a copy of it; only the process that wrote it sends it.
    nonisolated(unsafe) private static var owner: pid_t = 0
    private static let signals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGTERM]

    static func install(_ lineBuffer: LineBuffer) {
        buffer = lineBuffer
        owner = getpid()
        CrashReport.prepare()
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { received, info, context in
                if getpid() == CrashFlush.owner, let buffer = CrashFlush.buffer {
                    buffer.writeOutFromSignalHandler()
                    // SIGTERM is the host (or someone) asking the page to stop, not a crash.
                    if received != SIGTERM {
                        CrashReport.writeFromSignalHandler(signal: received, info: info, context: context,
                                                           to: buffer.fileDescriptor)
                    }
                }
                // Back to the default action and raised again, so the process ends by the same signal and
                // the host classifies the ending exactly as it would have without this handler.
                signal(received, SIG_DFL)
                raise(received)
            }
            action.sa_flags = SA_SIGINFO | Int32(SA_ONSTACK)
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    static func flushAtExit() {
        buffer?.flush()
    }
}
