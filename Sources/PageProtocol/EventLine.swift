import Glibc

/// Builds one trace event as a flat JSON object on one line, in runs of bytes.
///
/// String interpolation and Foundation's encoders cost from half a microsecond to two per event;
/// copying bytes into a buffer costs a fraction of that, and events are sent a lot. Each piece goes in with one
/// copy: a string's plain runs between escapes, a number's digits from a stack buffer. The buffer is raw memory the
/// line owns, not an array: `Array.append` checks uniqueness and capacity on every call, which cost as much as
/// everything else an event does. (Appending a byte at a time, and reversing digits in place, cost about 60% of a
/// `mark` before.)
/// The field order is fixed by `docs/trace-format.md`: `e`, `t`, `tid`, `q`, then the event's own fields.
struct EventLine: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// False while the line is still in the caller's scratch space; true once it outgrew it onto the heap.
    private var ownsStorage = false

    /// How much scratch space a typical event needs; `LessonSession.emit` gives it from the stack.
    static let typicalSize = 256

    /// `queue` is the queue's label as libdispatch keeps it: copied straight from the C string, with no `String` made.
    /// The line is built in `scratch` (on the caller's stack: no allocation for a typical event), and moves to the
    /// heap only if it grows beyond it (a picture's pixels); `scratch` must outlive the line.
    init(kind: String, time: UInt64, thread: Int32, queue: UnsafePointer<CChar>, scratch: UnsafeMutableBufferPointer<UInt8>) {
        storage = scratch.baseAddress!
        capacity = scratch.count
        appendRaw("{\"e\":")
        appendQuoted(kind)
        appendRaw(",\"t\":")
        appendDigits(time)
        appendRaw(",\"tid\":")
        appendInteger(Int(thread))
        appendRaw(",\"q\":")
        appendQuoted(UnsafeBufferPointer(start: UnsafeRawPointer(queue).assumingMemoryBound(to: UInt8.self),
                                         count: strlen(queue)))
    }

    mutating func add(_ key: String, _ value: String) {
        appendKey(key)
        appendQuoted(value)
    }

    mutating func add(_ key: String, _ value: Int) {
        appendKey(key)
        appendInteger(value)
    }

    mutating func add(_ key: String, _ value: Double) {
        appendKey(key)
        appendText(value.isFinite ? "\(value)" : "0")
    }

    mutating func add(_ key: String, _ value: Bool) {
        appendKey(key)
        appendRaw(value ? "true" : "false")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    deinit {
        if ownsStorage { storage.deallocate() }
    }

    /// Hands `body` the complete line, with its closing brace and newline; the line is gone afterwards.
    consuming func withFinishedBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        append(UInt8(ascii: "}"))
        append(10)
        return body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// Makes room for `more` bytes, doubling as often as needed.
    @inline(__always) private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        grow(toHold: more)
    }

    private mutating func grow(toHold more: Int) {
        var grown = capacity * 2
        while grown < count + more { grown *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.initialize(from: storage, count: count)
        if ownsStorage { storage.deallocate() }
        storage = larger
        capacity = grown
        ownsStorage = true
    }

    @inline(__always) private mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    @inline(__always) private mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
        guard let source = run.baseAddress, !run.isEmpty else { return }
        reserve(run.count)
        (storage + count).initialize(from: source, count: run.count)
        count += run.count
    }

    private mutating func appendKey(_ key: String) {
        appendRaw(",\"")
        appendText(key)
        appendRaw("\":")
    }

    @inline(__always) private mutating func appendRaw(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Text that needs no escaping: keys and numbers.
    private mutating func appendText(_ text: String) {
        Self.withUTF8(of: text) { append($0) }
    }

    private mutating func appendInteger(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude))
    }

    /// Digits written backwards into a stack buffer (20 hold `UInt64.max`), two at a time from a table, then
    /// appended in one copy.
    private mutating func appendDigits(_ value: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var first = digits.count
            let digitPairs = Self.digitPairs
            while rest >= 100 {
                let pair = Int(rest % 100) * 2
                rest /= 100
                first -= 2
                digits[first] = digitPairs[pair]
                digits[first + 1] = digitPairs[pair + 1]
            }
            if rest >= 10 {
                first -= 2
                digits[first] = digitPairs[Int(rest) * 2]
                digits[first + 1] = digitPairs[Int(rest) * 2 + 1]
            } else {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest)
            }
            append(UnsafeBufferPointer(rebasing: digits[first...]))
        }
    }

    /// "00", "01", … "99", back to back: a constant in the binary, read with no lazy initialisation or bounds check.
    private static var digitPairs: UnsafePointer<UInt8> {
        let pairs: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
        return pairs.utf8Start
    }

    private mutating func appendQuoted(_ value: String) {
        Self.withUTF8(of: value) { appendQuoted($0) }
    }

    /// JSON string escaping: quotes, backslashes and control characters; all other UTF-8 passes through.
    /// The runs between escapes go in whole.
    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        var plainFrom = 0
        // Eight bytes at a time while none needs escaping, which is nearly always; then byte by byte.
        var scanned = 0
        if let base = utf8.baseAddress {
            while scanned + 8 <= utf8.count
                    && !Self.anyNeedsEscaping(UnsafeRawPointer(base + scanned).loadUnaligned(as: UInt64.self)) {
                scanned += 8
            }
        }
        for index in scanned..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            append(UnsafeBufferPointer(rebasing: utf8[plainFrom..<index]))
            plainFrom = index + 1
            switch byte {
            case UInt8(ascii: "\""): appendRaw("\\\"")
            case UInt8(ascii: "\\"): appendRaw("\\\\")
            case UInt8(ascii: "\n"): appendRaw("\\n")
            case UInt8(ascii: "\r"): appendRaw("\\r")
            case UInt8(ascii: "\t"): appendRaw("\\t")
            default:
                appendRaw("\\u00")
                append(Self.hexDigits[Int(byte >> 4)])
                append(Self.hexDigits[Int(byte & 0xF)])
            }
        }
        append(UnsafeBufferPointer(rebasing: utf8[plainFrom...]))
        append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes in `word` is a control character, a quote or a backslash: the classic
    /// bit tricks for "has a byte below n" and "has a zero byte" (after XOR with the byte looked for).
    @inline(__always) private static func anyNeedsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let belowSpace = (word &- ones &* 0x20) & ~word & highBits != 0
        return belowSpace || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// Calls `body` with `text`'s UTF-8 in place: native strings are contiguous, so this copies nothing.
    private static func withUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if text.utf8.withContiguousStorageIfAvailable(body) == nil {
            Array(text.utf8).withUnsafeBufferPointer(body)
        }
    }
}
