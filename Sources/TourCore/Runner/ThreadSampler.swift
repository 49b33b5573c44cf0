@preconcurrency import Glibc
import Foundation
import Synchronization
import PageProtocol

/// Reads the scheduler state of every thread of one process from `/proc/<pid>/task/<tid>/stat`, at a fixed
/// interval, on a thread of its own, and hands each round of readings over with the time it was taken.
///
/// Each thread's `stat` stays open between rounds and is read again from offset 0 (procfs makes the line anew on
/// every read), and the task folder is listed again only when a line says the threads changed, so a steady round costs
/// one `pread` per thread. The sampler is the host's, not the page's: what it reads costs the page nothing but the
/// processor time of the host's own thread.
final class ThreadSampler: @unchecked Sendable {
    /// 100 Hz: the 10 ms a learner should see as a difference on the timeline (`docs/benchmarks.md` has the cost).
    static let defaultInterval: UInt64 = 10_000_000

    private let pid: Int32
    private let interval: UInt64
    private let onReadings: ([ThreadStateReading], UInt64) -> Void
    private let stopping = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts sampling `pid` every `interval` nanoseconds; `onReadings` runs on the sampler's thread.
    init(pid: Int32, interval: UInt64 = ThreadSampler.defaultInterval,
         onReadings: @escaping ([ThreadStateReading], _ time: UInt64) -> Void) {
        self.pid = pid
        self.interval = interval
        self.onReadings = onReadings
        Thread { [self] in run() }.start()
    }

    /// Stops sampling and returns once the last round has been handed over, so none comes after the caller's next step.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        stopped.wait()
        stopped.signal()
    }

    /// The environment variable that turns the sampler off for every run (`TOUR_THREAD_SAMPLER=off`): lanes then
    /// have no state strips and the meter counts no running threads. For measuring what sampling costs a page.
    static let switchVariable = "TOUR_THREAD_SAMPLER"

    /// Whether this process's environment leaves the sampler on: anything but `off` does. One variable read as it is:
    /// `ProcessInfo`'s dictionary of them all would cost a page's start more.
    static var isOnInThisProcess: Bool {
        getenv(switchVariable).map { String(cString: $0) } != "off"
    }

    private func run() {
        defer { stopped.signal() }
        // Foundation's `Thread.name` set before `start()` does not reach the kernel, and Glibc's module leaves out
        // `pthread_setname_np`; the thread's own `comm` file names it, so `/proc` and `top -H` tell the sampler's
        // thread apart (the benchmark reads its CPU time by this name).
        let name = Glibc.open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if name >= 0 {
            _ = "tour-sample".withCString { write(name, $0, strlen($0)) }
            close(name)
        }
        var files = TaskStatFiles(pid: pid)
        var next = monotonicNanoseconds()
        var readings: [ThreadStateReading] = []
        while !stopping.load(ordering: .relaxed) {
            let time = monotonicNanoseconds()
            guard files.read(into: &readings) else { break }
            if !readings.isEmpty { onReadings(readings, time) }
            readings.removeAll(keepingCapacity: true)
            // Paced from an absolute start, so the rate holds however long a round took; a round that overran skips ahead.
            next += interval
            if next < monotonicNanoseconds() { next = monotonicNanoseconds() + interval }
            var deadline = timespec(tv_sec: Int(next / 1_000_000_000), tv_nsec: Int(next % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
        }
        files.closeAll()
    }
}

/// The open `stat` files of one process's threads. `/proc/<pid>/task` is listed again only when the last round says
/// the threads changed: a thread's file could not be read (it ended), or a line's thread count (field 20, the
/// process's `num_threads`) is not the number of files open (one began). A steady round is one `pread` per thread.
private struct TaskStatFiles {
    private let taskFolder: String
    private var open: [(thread: Int32, fd: Int32)] = []
    private var listed = false
    private var buffer = [UInt8](repeating: 0, count: 1024)

    init(pid: Int32) {
        taskFolder = "/proc/\(pid)/task"
    }

    /// Appends a reading for each of the process's threads; false once the process is gone.
    mutating func read(into readings: inout [ThreadStateReading]) -> Bool {
        if !listed {
            guard list() else { return false }
            listed = true
        }
        for (thread, fd) in open {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                listed = false
                continue
            }
            buffer.withUnsafeBufferPointer { bytes in
                let line = UnsafeBufferPointer(rebasing: bytes[..<count])
                if let reading = ThreadStatLine.reading(of: thread, in: line) { readings.append(reading) }
                // Every thread's line gives the same process-wide count, so the round's first line is enough.
                if thread == open.first?.thread, ThreadStatLine.threadCount(in: line) != open.count { listed = false }
            }
        }
        return true
    }

    /// Opens the `stat` of each thread the folder lists now and closes those of threads gone; false once the process is.
    private mutating func list() -> Bool {
        var kept: [(thread: Int32, fd: Int32)] = []
        var known = Dictionary(uniqueKeysWithValues: open.map { ($0.thread, $0.fd) })
        let listed = FolderNames.forEach(in: taskFolder) { name in
            guard let thread = Int32(name) else { return }
            if let fd = known.removeValue(forKey: thread) {
                kept.append((thread, fd))
            } else {
                let fd = Glibc.open("\(taskFolder)/\(thread)/stat", O_RDONLY | O_CLOEXEC)
                if fd >= 0 { kept.append((thread, fd)) }
            }
        }
        guard listed else { return false }
        for fd in known.values { close(fd) }
        open = kept
        return true
    }

    mutating func closeAll() {
        for file in open { close(file.fd) }
        open.removeAll()
    }
}

/// Reads the state field of a `/proc/.../stat` line: `tid (comm) S ...`.
enum ThreadStatLine {
    /// The scheduler state the line gives: `R` is running or runnable, `S`, `D`, `T`, `t`, `I`, `W`, `P` are off
    /// the processor; nil for a line that is cut or garbled, and for a thread that is dead or a zombie (`Z`, `X`, `x`).
    /// The command name may hold spaces and parentheses of its own (a thread can name itself `a) R (b`), so the
    /// state is read after the line's last `)`.
    static func state(in line: UnsafeBufferPointer<UInt8>) -> ThreadRunState? {
        nameEnd(in: line).flatMap { state(in: line, nameEnd: $0) }
    }

    /// The thread's reading from its line: its state and processor time, both read after the one search for the
    /// command name's end; nil where `state(in:)` is.
    static func reading(of thread: Int32, in line: UnsafeBufferPointer<UInt8>) -> ThreadStateReading? {
        guard let nameEnd = nameEnd(in: line), let state = state(in: line, nameEnd: nameEnd) else { return nil }
        return ThreadStateReading(thread: thread, state: state, cpuNanoseconds: cpuNanoseconds(in: line, nameEnd: nameEnd))
    }

    /// `state(in:)` with the command name's last `)` found already.
    private static func state(in line: UnsafeBufferPointer<UInt8>, nameEnd: Int) -> ThreadRunState? {
        guard nameEnd + 2 < line.count, line[nameEnd + 1] == UInt8(ascii: " ") else { return nil }
        switch line[nameEnd + 2] {
        case UInt8(ascii: "R"): return .running
        case UInt8(ascii: "Z"), UInt8(ascii: "X"), UInt8(ascii: "x"): return nil
        case UInt8(ascii: "A")...UInt8(ascii: "z"): return .waiting
        default: return nil
        }
    }

    /// Where the command name's last `)` is. `memchr` from one `)` to the next rather than a loop over the bytes
    /// back from the line's end: the sampler reads every thread's line a hundred times a second, and in a debug build
    /// that loop was most of its time. A line holds one `)` unless the thread named itself with more.
    static func nameEnd(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = line.baseAddress else { return nil }
        var last: Int?
        var from = 0
        while from < line.count, let found = memchr(base + from, Int32(UInt8(ascii: ")")), line.count - from) {
            let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            last = index
            from = index + 1
        }
        return last
    }

    /// The process's thread count the line gives (field 20, `num_threads`, counted after the last `)` as the state
    /// is); nil for a line cut before it.
    static func threadCount(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        nameEnd(in: line).flatMap { number(inField: 20, of: line, nameEnd: $0) }.map { Int($0.value) }
    }

    /// The processor time the thread has used, user and system (fields 14 and 15, `utime` and `stime`, in clock
    /// ticks of `sysconf(_SC_CLK_TCK)`); nil for a line cut before them.
    static func cpuNanoseconds(in line: UnsafeBufferPointer<UInt8>) -> UInt64? {
        nameEnd(in: line).flatMap { cpuNanoseconds(in: line, nameEnd: $0) }
    }

    /// `cpuNanoseconds(in:)` with the command name's last `)` found already.
    private static func cpuNanoseconds(in line: UnsafeBufferPointer<UInt8>, nameEnd: Int) -> UInt64? {
        guard let (user, next) = number(inField: 14, of: line, nameEnd: nameEnd),
              let (system, _) = number(startingAt: next + 1, of: line) else { return nil }
        return (user + system) * nanosecondsPerTick
    }

    /// How long one of the kernel's clock ticks is, read once.
    private static let nanosecondsPerTick = UInt64(1_000_000_000 / max(1, sysconf(Int32(_SC_CLK_TCK))))

    /// The unsigned number in field `field` (counted from 1, as `proc(5)` does) of a `stat` line whose command name
    /// ends at `nameEnd`, and the index just after it; nil for a line cut before it or a field that is not a number.
    private static func number(inField field: Int, of line: UnsafeBufferPointer<UInt8>, nameEnd: Int) -> (value: UInt64, end: Int)? {
        var index = nameEnd
        // Field 3, the state, follows the first space after the name; field n follows the (n - 2)th.
        var spaces = 0
        while index < line.count - 1, spaces < field - 2 {
            index += 1
            if line[index] == UInt8(ascii: " ") { spaces += 1 }
        }
        guard spaces == field - 2 else { return nil }
        return number(startingAt: index + 1, of: line)
    }

    /// The unsigned number that starts at `start`, and the index just after it; nil where no digit is.
    private static func number(startingAt start: Int, of line: UnsafeBufferPointer<UInt8>) -> (value: UInt64, end: Int)? {
        var value: UInt64 = 0
        var index = start
        while index < line.count, line[index] >= UInt8(ascii: "0"), line[index] <= UInt8(ascii: "9") {
            value = value &* 10 &+ UInt64(line[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > start ? (value, index) : nil
    }

    /// `cpuNanoseconds(in:)` of a line held in a `String`, for tests and tools.
    static func cpuNanoseconds(in line: String) -> UInt64? {
        var copy = line
        return copy.withUTF8 { cpuNanoseconds(in: $0) }
    }

    /// `threadCount(in:)` of a line held in a `String`, for tests and tools.
    static func threadCount(in line: String) -> Int? {
        var copy = line
        return copy.withUTF8 { threadCount(in: $0) }
    }

    /// `state(in:)` of a line held in a `String`, for tests and tools.
    static func state(in line: String) -> ThreadRunState? {
        var copy = line
        return copy.withUTF8 { state(in: $0) }
    }
}
