@preconcurrency import Glibc
import CLinuxSystem
import Synchronization
import PageProtocol

/// What the crash handler tells the host about a fatal signal, as one `crash` event: where the faulting instruction
/// lies (which loaded image: libdispatch, the Swift runtime, Foundation, the page's own program) and whether the
/// fault was a stack overflow. The exit status alone says only "SIGILL" or "SIGSEGV".
///
/// Everything the handler needs is prepared beforehand, outside it: the images' address ranges at install, each
/// thread's stack bounds and alternate signal stack when the thread first uses LessonKit. The handler itself only
/// reads that memory, formats digits into a fixed buffer and calls `write`, `clock_gettime` and `gettid`, all
/// async-signal-safe; it allocates nothing and takes no lock.
enum CrashReport {
    /// The executable mappings of the process, with their image names, sorted by nothing: a handful are searched.
    private struct ImageRange {
        var start: UInt
        var end: UInt
        var nameOffset: Int
        var nameLength: Int
        var isProgram: Bool
    }

    /// One thread's stack, as `pthread_getattr_np` reported it, and the alternate stack LessonKit gave it, if any.
    private struct ThreadStack {
        var low: UInt
        var guardSize: UInt
        var alternate: UnsafeMutableRawPointer?
    }

    /// Enough for a handler that formats one line and writes it: the kernel's own minimum is 2 KiB.
    private static let alternateStackSize = 64 * 1024
    /// How far below a stack's low end a fault still counts as running off it: the pthread guard, or for the main
    /// thread the kernel's 1 MiB gap below a stack that may grow no further.
    private static let belowStackSlack: UInt = 1 << 20
    /// And how far above: glibc rounds the main thread's bounds to pages, so the fault may land just inside them.
    private static let aboveStackSlack: UInt = 64 * 1024

    nonisolated(unsafe) private static var ranges: UnsafeMutablePointer<ImageRange>?
    nonisolated(unsafe) private static var rangeCount = 0
    nonisolated(unsafe) private static var names: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var line: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var lineCapacity = 0
    nonisolated(unsafe) private static var threadKey = pthread_key_t()
    nonisolated(unsafe) private static var prepared = false
    /// Set by the first thread to report, so two threads crashing at once send one `crash` line. Lock-free, so safe
    /// in a handler; first touched in `prepare`, so the handler never runs its lazy initialisation.
    private static let reported = Atomic<Bool>(false)

    /// Reads the image table and gets the calling thread ready. Called once, by `CrashFlush.install`, before the
    /// handlers are installed.
    static func prepare() {
        _ = reported.load(ordering: .relaxed)
        loadImageRanges()
        lineCapacity = 512 + 4 * 256
        line = .allocate(capacity: lineCapacity)
        pthread_key_create(&threadKey) { raw in
            guard let raw else { return }
            let stack = raw.assumingMemoryBound(to: ThreadStack.self)
            if let alternate = stack.pointee.alternate {
                // Switched off before it is freed, so no late signal lands on freed memory.
                var off = stack_t()
                off.ss_flags = Int32(SS_DISABLE)
                sigaltstack(&off, nil)
                free(alternate)
            }
            stack.deallocate()
        }
        prepared = true
        prepareCurrentThread()
    }

    /// Records this thread's stack bounds and gives it an alternate signal stack, unless it has one already: without
    /// one, a thread that overflows its stack has nowhere to run the handler, and the kernel kills the process silently.
    /// Runs once per thread, the first time the thread uses LessonKit (`ThreadIdentity.current`).
    static func prepareCurrentThread() {
        guard prepared, pthread_getspecific(threadKey) == nil else { return }
        var attributes = pthread_attr_t()
        guard pthread_getattr_np(pthread_self(), &attributes) == 0 else { return }
        var base: UnsafeMutableRawPointer?
        var size = 0
        var guardSize = 0
        pthread_attr_getstack(&attributes, &base, &size)
        pthread_attr_getguardsize(&attributes, &guardSize)
        pthread_attr_destroy(&attributes)

        var stack = ThreadStack(low: UInt(bitPattern: base), guardSize: UInt(guardSize), alternate: nil)
        var existing = stack_t()
        if sigaltstack(nil, &existing) == 0, existing.ss_flags & Int32(SS_DISABLE) != 0,
           let memory = malloc(alternateStackSize) {
            var alternate = stack_t(ss_sp: memory, ss_flags: 0, ss_size: alternateStackSize)
            if sigaltstack(&alternate, nil) == 0 {
                stack.alternate = memory
            } else {
                free(memory)
            }
        }
        let stored = UnsafeMutablePointer<ThreadStack>.allocate(capacity: 1)
        stored.initialize(to: stack)
        pthread_setspecific(threadKey, stored)
    }

    /// For the signal handler only: writes one `crash` line for `signal` to `descriptor`.
    static func writeFromSignalHandler(signal: Int32, info: UnsafeMutablePointer<siginfo_t>?,
                                       context: UnsafeMutableRawPointer?, to descriptor: Int32) {
        guard let line, !reported.exchange(true, ordering: .relaxed) else { return }
        let pc = instructionAddress(context)
        let faultAddress = info.map { UInt(bitPattern: $0.pointee._sifields._sigfault.si_addr) } ?? 0
        var writer = LineWriter(start: line, capacity: lineCapacity)
        writer.append(EventKind.crashLineStart)
        writer.append(UInt(monotonicNanoseconds()))
        writer.append(#","tid":"#)
        writer.append(UInt(gettid()))
        writer.append(#","q":"","signal":"#)
        writer.append(UInt(signal))
        writer.append(#","image":""#)
        let image = imageRange(containing: pc)
        if let image, let names {
            writer.append(bytes: names + image.nameOffset, count: image.nameLength)
        }
        writer.append(#"","program":"#)
        writer.append(image?.isProgram == true ? "true" : "false")
        writer.append(#","pc":"#)
        writer.append(pc)
        writer.append(#","addr":"#)
        writer.append(faultAddress)
        writer.append(#","stackOverflow":"#)
        let overflow = (signal == SIGSEGV || signal == SIGBUS) && isStackOverflow(faultAddress)
        writer.append(overflow ? "true" : "false")
        writer.append("}\n")
        var offset = 0
        while offset < writer.count {
            let written = write(descriptor, line + offset, writer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }

    /// True when `address` lies just below the current thread's stack, in its guard: a call or a local value that
    /// needed more stack than was left.
    private static func isStackOverflow(_ address: UInt) -> Bool {
        guard let raw = pthread_getspecific(threadKey) else { return false }
        let stack = raw.assumingMemoryBound(to: ThreadStack.self).pointee
        guard stack.low != 0 else { return false }
        let slack = max(stack.guardSize, belowStackSlack)
        let bottom = stack.low > slack ? stack.low - slack : 0
        return address >= bottom && address < stack.low + aboveStackSlack
    }

    private static func imageRange(containing address: UInt) -> ImageRange? {
        guard let ranges else { return nil }
        for index in 0..<rangeCount where ranges[index].start <= address && address < ranges[index].end {
            return ranges[index]
        }
        return nil
    }

    #if arch(x86_64)
    /// `REG_RIP` in `<sys/ucontext.h>`, which Glibc's module leaves out (it needs `_GNU_SOURCE`).
    private static let instructionPointerRegister = 16
    #endif

    /// The address of the instruction that faulted, from the machine context the kernel saved.
    private static func instructionAddress(_ context: UnsafeMutableRawPointer?) -> UInt {
        guard let context else { return 0 }
        let machine = context.assumingMemoryBound(to: ucontext_t.self)
        #if arch(x86_64)
        return withUnsafeBytes(of: &machine.pointee.uc_mcontext.gregs) { registers in
            UInt(bitPattern: Int(registers.load(fromByteOffset: instructionPointerRegister * MemoryLayout<greg_t>.stride, as: greg_t.self)))
        }
        #elseif arch(arm64)
        return UInt(machine.pointee.uc_mcontext.pc)
        #else
        return 0
        #endif
    }

    /// Reads the executable mappings of `/proc/self/maps` into the table the handler searches. Images loaded later
    /// (a `dlopen` after start-up, which pages do not do) are not in it; the handler then names no image.
    private static func loadImageRanges() {
        let program = programPath()
        var table: [(start: UInt, end: UInt, name: [UInt8], isProgram: Bool)] = []
        for entry in readWholeFile("/proc/self/maps").split(separator: UInt8(ascii: "\n")) {
            // start-end perms offset dev inode path
            let fields = entry.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[1].contains(UInt8(ascii: "x")) else { continue }
            let path = Array(fields[5].drop { $0 == UInt8(ascii: " ") })
            guard path.first == UInt8(ascii: "/") else { continue }
            let bounds = fields[0].split(separator: UInt8(ascii: "-"))
            guard bounds.count == 2, let start = UInt(String(decoding: bounds[0], as: UTF8.self), radix: 16),
                  let end = UInt(String(decoding: bounds[1], as: UTF8.self), radix: 16) else { continue }
            // Only characters that need no escaping in a JSON string: library names never have others.
            let name = path.split(separator: UInt8(ascii: "/")).last.map { Array($0.prefix(255)) } ?? []
            let safe = name.map { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") ? $0 : UInt8(ascii: "_") }
            table.append((start, end, safe, path == program))
        }
        let ranges = UnsafeMutablePointer<ImageRange>.allocate(capacity: max(1, table.count))
        let names = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, table.reduce(0) { $0 + $1.name.count }))
        var offset = 0
        for (index, entry) in table.enumerated() {
            (names + offset).initialize(from: entry.name, count: entry.name.count)
            ranges[index] = ImageRange(start: entry.start, end: entry.end, nameOffset: offset,
                                       nameLength: entry.name.count, isProgram: entry.isProgram)
            offset += entry.name.count
        }
        self.ranges = ranges
        self.names = names
        rangeCount = table.count
    }

    private static func programPath() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let length = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
                readlink("/proc/self/exe", $0, pointer.count)
            }
        }
        return length > 0 ? Array(buffer.prefix(length)) : []
    }

    /// A whole file whose size `stat` does not know, as `/proc` files are.
    private static func readWholeFile(_ path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return bytes
    }
}

/// Appends text and decimal numbers to a fixed buffer without allocating, for the signal handler.
private struct LineWriter {
    let start: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0

    init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        self.capacity = capacity
    }

    /// A string literal's bytes: a `StaticString` lives in the binary, so reading it allocates nothing.
    mutating func append(_ text: StaticString) {
        append(bytes: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    mutating func append(bytes: UnsafePointer<UInt8>, count length: Int) {
        for index in 0..<length where count < capacity {
            start[count] = bytes[index]
            count += 1
        }
    }

    mutating func append(_ number: UInt) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var length = 0
        var rest = number
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[length] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                length += 1
            } while rest > 0
            for index in stride(from: length - 1, through: 0, by: -1) where count < capacity {
                start[count] = buffer[index]
                count += 1
            }
        }
    }
}
