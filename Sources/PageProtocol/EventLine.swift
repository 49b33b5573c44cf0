import Glibc

/// Builds one trace event as a flat JSON object on one line, in runs of bytes.
///
/// String interpolation and Foundation's encoders cost from half a microsecond to two per event;
/// copying bytes into a buffer costs a fraction of that, and events are sent a lot. Each piece goes in with one
/// copy: the kind's name with its punctuation, a string that needs no escaping (or its plain runs between escapes),
/// a number's digits two at a time. The buffer is raw memory the
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

    /// A line of a kind the format names: `lineStart` is how its line starts, up to its time (`{"e":"mark","t":`).
    /// `queue` is the queue's label as libdispatch keeps it: copied straight from the C string, with no `String` made.
    /// The line is built in `scratch` (on the caller's stack: no allocation for a typical event), and moves to the
    /// heap only if it grows beyond it (a picture's pixels); `scratch` must outlive the line.
    init(lineStart: StaticString, time: UInt64, thread: Int32, queue: UnsafePointer<CChar>,
         scratch: UnsafeMutableBufferPointer<UInt8>) {
        storage = scratch.baseAddress!
        capacity = scratch.count
        appendRaw(lineStart)
        appendHeader(time: time, thread: thread, queue: queue)
    }

    /// A line of a kind named `kindName`, which is escaped: for kinds this encoder does not know.
    init(kindName: String, time: UInt64, thread: Int32, queue: UnsafePointer<CChar>,
         scratch: UnsafeMutableBufferPointer<UInt8>) {
        storage = scratch.baseAddress!
        capacity = scratch.count
        appendRaw("{\"e\":")
        appendQuoted(kindName)
        appendRaw(",\"t\":")
        appendHeader(time: time, thread: thread, queue: queue)
    }

    /// The rest of the four fields every event has, after `"t":`.
    private mutating func appendHeader(time: UInt64, thread: Int32, queue: UnsafePointer<CChar>) {
        appendDigits(time)
        appendRaw(",\"tid\":")
        appendInteger(Int(thread))
        appendRaw(",\"q\":")
        appendQuoted(UnsafeBufferPointer(start: UnsafeRawPointer(queue).assumingMemoryBound(to: UInt8.self),
                                         count: strlen(queue)))
    }

    mutating func add(_ key: StaticString, _ value: String) {
        appendKey(key)
        appendQuoted(value)
    }

    mutating func add(_ key: StaticString, _ value: Int) {
        appendKey(key)
        appendInteger(value)
    }

    mutating func add(_ key: StaticString, _ value: Double) {
        appendKey(key)
        appendText(value.isFinite ? "\(value)" : "0")
    }

    mutating func add(_ key: StaticString, _ value: Bool) {
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
        Self.copy(source, count: run.count, to: storage + count)
        count += run.count
    }

    /// Copies `count` bytes: a short run (a key, a label, a name) eight bytes at a time in line, since a call
    /// to `memcpy` costs more than the copy itself; a long one with `memcpy`.
    @inline(__always) private static func copy(_ source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutablePointer<UInt8>) {
        guard count <= 64 else {
            target.update(from: source, count: count)
            return
        }
        var copied = 0
        while copied + 8 <= count {
            UnsafeMutableRawPointer(target + copied).storeBytes(
                of: UnsafeRawPointer(source + copied).loadUnaligned(as: UInt64.self), as: UInt64.self)
            copied += 8
        }
        while copied < count {
            target[copied] = source[copied]
            copied += 1
        }
    }

    /// `,"key":` with one check for room.
    private mutating func appendKey(_ key: StaticString) {
        let length = key.utf8CodeUnitCount
        reserve(length + 4)
        let target = UnsafeMutableRawPointer(storage + count)
        target.storeBytes(of: UInt16(UInt8(ascii: ",")) | UInt16(UInt8(ascii: "\"")) << 8, as: UInt16.self)
        Self.copy(key.utf8Start, count: length, to: storage + count + 2)
        (target + 2 + length).storeBytes(of: UInt16(UInt8(ascii: "\"")) | UInt16(UInt8(ascii: ":")) << 8, as: UInt16.self)
        count += length + 4
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

    /// Decimal digits with no leading zeros, straight into the line: split into blocks of eight digits by two
    /// divisions at most, each block written as four pairs from a constant table. (Reversing digits in an array
    /// cost a quarter of a `mark` once, a digit at a time into a stack buffer most of what was left.)
    private mutating func appendDigits(_ value: UInt64) {
        // 20 digits at most, and `writeShortDigits` stores a whole word wherever its digits end.
        reserve(28)
        let target = storage + count
        if value < 100_000_000 {
            count += Self.writeShortDigits(UInt32(value), to: target)
            return
        }
        let high = value / 100_000_000
        var written: Int
        if high < 100_000_000 {
            written = Self.writeShortDigits(UInt32(high), to: target)
        } else {
            written = Self.writeShortDigits(UInt32(high / 100_000_000), to: target)
            Self.writeEightDigits(UInt32(high % 100_000_000), to: target + written)
            written += 8
        }
        Self.writeEightDigits(UInt32(value % 100_000_000), to: target + written)
        count += written + 8
    }

    /// Writes `value` (below 100,000,000) in exactly eight digits, leading zeros included.
    @inline(__always) private static func writeEightDigits(_ value: UInt32, to target: UnsafeMutablePointer<UInt8>) {
        let high = value / 10_000, low = value % 10_000
        writePair(high / 100, to: target)
        writePair(high % 100, to: target + 2)
        writePair(low / 100, to: target + 4)
        writePair(low % 100, to: target + 6)
    }

    /// Writes `value` (below 100,000,000) with no leading zeros and returns how many digits that took.
    @inline(__always) private static func writeShortDigits(_ value: UInt32, to target: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = value < 10 ? 1 : value < 100 ? 2 : value < 1_000 ? 3 : value < 10_000 ? 4
            : value < 100_000 ? 5 : value < 1_000_000 ? 6 : value < 10_000_000 ? 7 : 8
        // All eight digits in a word, then the word shifted past its leading zeros and stored whole: the bytes after
        // the digits are written too, within the room `appendDigits` reserved, and overwritten by what follows.
        var padded: UInt64 = 0
        withUnsafeMutableBytes(of: &padded) { writeEightDigits(value, to: $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        UnsafeMutableRawPointer(target).storeBytes(of: (UInt64(littleEndian: padded) >> (8 * UInt64(8 - digits))).littleEndian,
                                                   as: UInt64.self)
        return digits
    }

    /// Writes `pair` (below 100) as two digits.
    @inline(__always) private static func writePair(_ pair: UInt32, to target: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(target).storeBytes(
            of: UnsafeRawPointer(digitPairs + Int(pair) * 2).loadUnaligned(as: UInt16.self), as: UInt16.self)
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
    /// A string that needs no escaping, which is nearly every one, is checked eight bytes at a time (the last
    /// word overlapping the one before, so no byte is looked at alone) and goes in with one copy; otherwise the
    /// runs between escapes go in whole.
    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        if let base = utf8.baseAddress, Self.needsNoEscaping(base, count: utf8.count) {
            reserve(utf8.count + 2)
            storage[count] = UInt8(ascii: "\"")
            Self.copy(base, count: utf8.count, to: storage + count + 1)
            storage[count + 1 + utf8.count] = UInt8(ascii: "\"")
            count += utf8.count + 2
            return
        }
        append(UInt8(ascii: "\""))
        var plainFrom = 0
        for index in 0..<utf8.count {
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

    /// Whether none of the `count` bytes at `base` is a quote, a backslash or a control character.
    @inline(__always) private static func needsNoEscaping(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 8 else {
            for index in 0..<count {
                let byte = base[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            }
            return true
        }
        var scanned = 0
        while scanned + 8 < count {
            if JSONBytes.anyNeedsEscaping(UnsafeRawPointer(base + scanned).loadUnaligned(as: UInt64.self)) { return false }
            scanned += 8
        }
        return !JSONBytes.anyNeedsEscaping(UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self))
    }

    /// Calls `body` with `text`'s UTF-8 in place: native strings are contiguous, so this copies nothing.
    private static func withUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if text.utf8.withContiguousStorageIfAvailable(body) == nil {
            Array(text.utf8).withUnsafeBufferPointer(body)
        }
    }
}
