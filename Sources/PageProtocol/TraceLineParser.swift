import Glibc

/// Decodes one line of the trace channel into a `PageEvent`, or says precisely why it cannot.
///
/// Lines are flat JSON objects (`docs/trace-format.md`). A dedicated parser reads them far faster than
/// `JSONSerialization`, which matters at a million events a second: it reads the line in place, notes where each
/// known field's value lies in fixed slots on the stack (no dictionary, no `String` per key), reads integers
/// straight from the bytes, and makes a `String` only for the fields the event's kind uses. The host keeps one
/// `TraceLineDecoder` per channel, which also hands out one copy of each queue label it has seen.
public enum TraceLineParser {
    /// Lines longer than this are refused as oversized; a page's events are far shorter.
    public static let maximumLineBytes = 65_536

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case oversized(bytes: Int)
        case notUTF8
        case malformed(String, offset: Int)
        /// A field the line's kind requires is missing or of the wrong type.
        case missingField(String)
        /// A field that holds one of a fixed set of words holds another.
        case unknownValue(field: String, value: String)

        public var description: String {
            switch self {
            case .oversized(let bytes): "an event line of \(bytes) bytes, over the \(TraceLineParser.maximumLineBytes)-byte limit"
            case .notUTF8: "an event line that is not valid UTF-8"
            case .malformed(let what, let offset): "an event line that is not a flat JSON object (\(what) at byte \(offset))"
            case .missingField(let name): "an event line without its \"\(name)\" field"
            case .unknownValue(let field, let value): "an event line whose \"\(field)\" is \"\(value)\", which the format does not know"
            }
        }
    }

    public static func parse<Bytes: Collection<UInt8>>(_ line: Bytes) -> Result<PageEvent, Failure> {
        var decoder = TraceLineDecoder()
        return Array(line).withUnsafeBufferPointer { decoder.decode($0) }
    }

    public static func parse(_ line: ArraySlice<UInt8>) -> Result<PageEvent, Failure> {
        var decoder = TraceLineDecoder()
        return line.withUnsafeBufferPointer { decoder.decode($0) }
    }
}

/// The decoder of one trace channel: `TraceLineParser` with a memory of the queue labels it has seen, so a label
/// that a million events carry becomes one `String` shared by all of them instead of an allocation each (a label
/// of more than 15 bytes does not fit in a `String` inline). It keeps at most `rememberedLabels`.
public struct TraceLineDecoder {
    static let rememberedLabels = 16

    /// Each label with its bytes, which are compared without going through `String`.
    private var labels: [(bytes: [UInt8], label: String)] = []
    /// Where the next label goes once `labels` is full: the oldest is forgotten first.
    private var nextReplaced = 0

    public init() {}

    /// Decodes one line (without its newline).
    public mutating func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<PageEvent, TraceLineParser.Failure> {
        guard line.count <= TraceLineParser.maximumLineBytes else { return .failure(.oversized(bytes: line.count)) }
        return withUnsafeTemporaryAllocation(of: RawValue.self, capacity: FieldKey.slotCount) { slots in
            var fields = Fields(bytes: line, slots: slots.baseAddress!)
            do throws(TraceLineParser.Failure) {
                var scanner = Scanner(bytes: line)
                try scanner.object(into: &fields)
                guard let kind = fields.kindName() else { return .failure(.missingField("e")) }
                guard case .integer(let time)? = fields[.t], time >= 0 else { return .failure(.missingField("t")) }
                guard case .integer(let thread)? = fields[.tid], let thread32 = Int32(exactly: thread) else {
                    return .failure(.missingField("tid"))
                }
                guard let queue = queueLabel(fields[.q], in: fields) else { return .failure(.missingField("q")) }
                return .success(PageEvent(time: UInt64(time), thread: thread32, queue: queue, kind: try fields.kind(kind)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The `q` field's label, the copy already held when the label was seen before.
    private mutating func queueLabel(_ value: RawValue?, in fields: Fields) -> String? {
        switch value {
        case .ascii(let start, let end)?:
            let bytes = fields.text(start, end)
            for known in labels where known.bytes.count == bytes.count {
                if bytes.isEmpty || known.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) }) == 0 {
                    return known.label
                }
            }
            let label = String(decoding: bytes, as: UTF8.self)
            remember((Array(bytes), label))
            return label
        case .decoded(let index)?:
            return fields.decoded[index]
        default:
            return nil
        }
    }

    private mutating func remember(_ label: (bytes: [UInt8], label: String)) {
        if labels.count < Self.rememberedLabels {
            labels.append(label)
        } else {
            labels[nextReplaced] = label
            nextReplaced = (nextReplaced + 1) % Self.rememberedLabels
        }
    }
}

/// A field's value as the scanner found it: where an ASCII string without escapes lies in the line (made into a
/// `String` only if the event uses it), or a string that had to be decoded, or a number or a boolean.
enum RawValue {
    /// 32-bit offsets keep a value to 16 bytes, so the slots of all known keys fit on the stack (Swift gives a
    /// temporary allocation of up to 1 KiB there); a line is at most 64 KiB.
    case ascii(start: Int32, end: Int32)
    /// An index into `Fields.decoded`: a string with escapes or non-ASCII text, decoded and validated as it was read.
    case decoded(Int)
    case integer(Int)
    case number(Double)
    case bool(Bool)
}

/// The keys the format gives a meaning to; each has a slot in `Fields`. Any other key is read, checked and ignored.
enum FieldKey: Int, CaseIterable {
    case e, t, tid, q
    case v, page, pid, speed, id, name, text, file, line, kind, seconds, type, value, defaultValue, minimum, maximum
    case choices, help, op, oid, state, on, onid, ending, why, signal, image, program, pc, addr, stackOverflow
    case w, h, px, count, index, caption, parts, part, commands
    case task, parent, phase, cpu, width

    static let slotCount = FieldKey.width.rawValue + 1

    /// The key as it is written on the wire.
    var wireName: String {
        switch self {
        case .defaultValue: "default"
        case .minimum: "min"
        case .maximum: "max"
        default: "\(self)"
        }
    }

    static let names = PackedNames(allCases.map { ($0.wireName, $0.rawValue) })
}

/// The event kinds the decoder knows by their `e`; any other is kept as `EventKind.unknown`.
enum WireKind: Int, CaseIterable {
    case hello, begin, end, mark, out, result, knob, op, dep, expect, crash, frame, rows, row, detail, input, task, queue, phase

    static let names = PackedNames(allCases.map { ("\($0)", $0.rawValue) })
}

/// A fixed set of short ASCII names, looked up straight from a line's bytes with no `String` made and no hashing
/// of text: a name of up to eight bytes packs into one `UInt64` (names hold no zero byte, so the packing is unique),
/// found in a small open-addressed table; longer names are compared whole.
final class PackedNames: @unchecked Sendable {
    private static let tableSize = 128
    // Raw memory, filled in `init` and only read afterwards (hence unchecked `Sendable`): a lookup is then a load
    // with no bounds check and no reference counting.
    private let packed = UnsafeMutablePointer<UInt64>.allocate(capacity: PackedNames.tableSize)
    private let numbers = UnsafeMutablePointer<Int>.allocate(capacity: PackedNames.tableSize)
    private var long: [(bytes: [UInt8], number: Int)] = []

    init(_ names: [(String, Int)]) {
        precondition(names.count < Self.tableSize / 2, "the table stays at most half full")
        packed.initialize(repeating: 0, count: Self.tableSize)
        numbers.initialize(repeating: 0, count: Self.tableSize)
        for (name, number) in names {
            let bytes = Array(name.utf8)
            guard bytes.count <= 8 else { long.append((bytes, number)); continue }
            let key = bytes.withUnsafeBufferPointer(Self.pack)
            var slot = Self.slot(of: key)
            while packed[slot] != 0 { slot = (slot + 1) % Self.tableSize }
            packed[slot] = key
            numbers[slot] = number
        }
    }

    deinit {
        packed.deallocate()
        numbers.deallocate()
    }

    /// The number given to the name `bytes` spell, or nil for a name not in the set.
    /// `readableEnd` is where the memory that may be read after the name ends.
    @inline(__always) func number(of bytes: UnsafeBufferPointer<UInt8>, readableEnd: UnsafePointer<UInt8>? = nil) -> Int? {
        guard bytes.count <= 8 else {
            return long.first { $0.bytes.elementsEqual(bytes) }?.number
        }
        guard !bytes.isEmpty else { return nil }
        let key = if let readableEnd, readableEnd - bytes.baseAddress! >= 8 { Self.packLoading(bytes) } else { Self.pack(bytes) }
        var slot = Self.slot(of: key)
        while true {
            let stored = packed[slot]
            if stored == key { return numbers[slot] }
            if stored == 0 { return nil }
            slot = (slot + 1) % Self.tableSize
        }
    }

    @inline(__always) private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var key: UInt64 = 0
        for index in 0..<bytes.count { key |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        return key
    }

    /// The same packing from one load, for a name with at least eight readable bytes from its start (in a line,
    /// a key is followed by at least its closing quote and a colon and a value, so this is any key but a line's last).
    @inline(__always) private static func packLoading(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(as: UInt64.self))
        return bytes.count == 8 ? word : word & ((1 << (8 * UInt64(bytes.count))) - 1)
    }

    @inline(__always) private static func slot(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }
}

/// A line's known fields, each in its slot once read (a key that appears twice keeps its last value), and the
/// event's kind made from them, with its fields as `docs/trace-format.md` lists them. A required field that is
/// missing or of the wrong type is a `missingField` failure.
struct Fields {
    typealias Failure = TraceLineParser.Failure

    let bytes: UnsafeBufferPointer<UInt8>
    private let slots: UnsafeMutablePointer<RawValue>
    /// One bit per `FieldKey`: which slots hold a value.
    private var present: UInt64 = 0
    /// The strings that had to be decoded as they were read (`RawValue.decoded`); usually none.
    private(set) var decoded: [String] = []

    init(bytes: UnsafeBufferPointer<UInt8>, slots: UnsafeMutablePointer<RawValue>) {
        self.bytes = bytes
        self.slots = slots
    }

    /// The bytes of an ASCII string value, in place.
    @inline(__always) func text(_ start: Int32, _ end: Int32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes.baseAddress! + Int(start), count: Int(end - start))
    }

    subscript(key: FieldKey) -> RawValue? {
        present & (1 << UInt64(key.rawValue)) != 0 ? slots[key.rawValue] : nil
    }

    mutating func set(_ key: FieldKey, _ value: RawValue) {
        (slots + key.rawValue).initialize(to: value)
        present |= 1 << UInt64(key.rawValue)
    }

    mutating func keep(_ string: String) -> RawValue {
        decoded.append(string)
        return .decoded(decoded.count - 1)
    }

    /// What the `e` field names: a kind the decoder knows, or one it does not (kept by name).
    enum KindName {
        case known(WireKind)
        case unknown(String)
    }

    /// The `e` field's kind; nil when `e` is missing or not a string.
    func kindName() -> KindName? {
        switch self[.e] {
        case .ascii(let start, let end)?:
            let name = text(start, end)
            if let number = WireKind.names.number(of: name) { return .known(WireKind(rawValue: number)!) }
            return .unknown(String(decoding: name, as: UTF8.self))
        case .decoded(let index)?:
            return .unknown(decoded[index])
        default:
            return nil
        }
    }

    func kind(_ name: KindName) throws(Failure) -> EventKind {
        let known: WireKind
        switch name {
        case .known(let kind): known = kind
        case .unknown(let unknown): return .unknown(unknown)
        }
        switch known {
        case .hello:
            guard let pid = Int32(exactly: try integer(.pid)) else { throw Failure.missingField("pid") }
            return .hello(version: try integer(.v), page: try string(.page), pid: pid, speed: try number(.speed))
        case .begin: return .begin(id: try integer(.id), name: try string(.name), task: optionalInteger(.task))
        case .end: return .end(id: try integer(.id), name: try string(.name), cpu: optionalInteger(.cpu))
        case .mark: return .mark(name: try string(.name))
        case .out: return .out(text: try string(.text))
        case .result:
            return .result(file: try string(.file), line: try integer(.line), kind: try word(.kind),
                           text: try string(.text), seconds: optionalNumber(.seconds))
        case .knob:
            return .knob(KnobAnnouncement(
                name: try string(.name), type: try word(.type), value: try string(.value),
                defaultValue: try string(.defaultValue), minimum: optionalInteger(.minimum), maximum: optionalInteger(.maximum),
                choices: optionalString(.choices)?.split(separator: ",").map(String.init) ?? [],
                help: optionalString(.help) ?? ""))
        case .op: return .op(operation: try string(.op), oid: try integer(.oid), state: try word(.state))
        case .dep:
            return .dep(operation: try string(.op), oid: try integer(.oid), dependency: try string(.on),
                        onid: try integer(.onid))
        case .expect: return .expect(ending: try word(.ending), why: try string(.why))
        case .crash:
            guard let signal = Int32(exactly: try integer(.signal)) else { throw Failure.missingField("signal") }
            return .crash(signal: signal, image: try string(.image), inProgram: try bool(.program),
                          pc: try address(.pc), address: try address(.addr), stackOverflow: try bool(.stackOverflow))
        case .frame: return .frame(picture())
        case .rows: return .rows(count: try integer(.count))
        case .row:
            return .row(index: try integer(.index), caption: try string(.caption),
                        picture: optionalString(.px) == nil ? nil : picture(), parts: optionalInteger(.parts))
        case .detail:
            return .detail(index: try integer(.index), part: try integer(.part), caption: try string(.caption),
                           picture: picture())
        case .input: return .input(commands: try word(.commands))
        case .task:
            return .task(number: try integer(.task), parent: optionalInteger(.parent), name: try string(.name),
                         kind: try word(.kind), phase: try word(.phase))
        case .queue: return .queue(name: try string(.name), width: try integer(.width))
        case .phase: return .phase(name: try string(.name), phase: try word(.phase))
        }
    }

    private func string(_ key: FieldKey) throws(Failure) -> String {
        guard let value = optionalString(key) else { throw Failure.missingField(key.wireName) }
        return value
    }

    private func integer(_ key: FieldKey) throws(Failure) -> Int {
        guard let value = optionalInteger(key) else { throw Failure.missingField(key.wireName) }
        return value
    }

    private func number(_ key: FieldKey) throws(Failure) -> Double {
        guard let value = optionalNumber(key) else { throw Failure.missingField(key.wireName) }
        return value
    }

    private func bool(_ key: FieldKey) throws(Failure) -> Bool {
        guard case .bool(let value)? = self[key] else { throw Failure.missingField(key.wireName) }
        return value
    }

    /// One of the words a field may hold (a state, a type, an ending).
    private func word<Word: RawRepresentable<String>>(_ key: FieldKey) throws(Failure) -> Word {
        let text = try string(key)
        guard let word = Word(rawValue: text) else { throw Failure.unknownValue(field: key.wireName, value: text) }
        return word
    }

    /// An address, unsigned: past `Int.max` it arrives as a number, not an integer.
    private func address(_ key: FieldKey) throws(Failure) -> UInt64 {
        switch self[key] {
        case .integer(let value)?: return UInt64(bitPattern: Int64(value))
        case .number(let value)? where value >= 0: return value < 0x1p64 ? UInt64(value) : .max
        default: throw Failure.missingField(key.wireName)
        }
    }

    private func picture() -> PagePicture {
        PagePicture(width: optionalInteger(.w), height: optionalInteger(.h), base64: optionalString(.px))
    }

    private func optionalString(_ key: FieldKey) -> String? {
        switch self[key] {
        case .ascii(let start, let end)?: String(decoding: text(start, end), as: UTF8.self)
        case .decoded(let index)?: decoded[index]
        default: nil
        }
    }

    /// An integer, or a number with no fraction small enough to be one exactly.
    private func optionalInteger(_ key: FieldKey) -> Int? {
        switch self[key] {
        case .integer(let value)?: return value
        case .number(let value)? where value == value.rounded() && abs(value) < 9e15: return Int(value)
        default: return nil
        }
    }

    private func optionalNumber(_ key: FieldKey) -> Double? {
        switch self[key] {
        case .number(let value)?: return value
        case .integer(let value)?: return Double(value)
        default: return nil
        }
    }
}

/// Reads the line in place; every error it throws is a `Failure`.
private struct Scanner {
    typealias Failure = TraceLineParser.Failure

    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Reads the whole object, putting each known field's value in its slot.
    mutating func object(into fields: inout Fields) throws(Failure) {
        let names = FieldKey.names
        skipSpaces()
        try expect(UInt8(ascii: "{"), "expected '{'")
        skipSpaces()
        if peek() == UInt8(ascii: "}") {
            offset += 1
        } else {
            while true {
                skipSpaces()
                let key = try key()
                skipSpaces()
                try expect(UInt8(ascii: ":"), "expected ':'")
                skipSpaces()
                let value = try value(into: &fields)
                if let number = names.number(of: key, readableEnd: bytes.baseAddress! + bytes.count) {
                    fields.set(FieldKey(rawValue: number)!, value)
                } else if key.contains(where: { $0 >= 0x80 }) && String(validating: key, as: UTF8.self) == nil {
                    // An unknown key is ignored, but it must be text all the same.
                    throw Failure.notUTF8
                }
                skipSpaces()
                if peek() == UInt8(ascii: ",") { offset += 1; continue }
                try expect(UInt8(ascii: "}"), "expected ',' or '}'")
                break
            }
        }
        skipSpaces()
        // Nothing may follow the object but the carriage return of a CRLF line ending.
        if offset < bytes.count && !(offset == bytes.count - 1 && bytes[offset] == UInt8(ascii: "\r")) {
            throw Failure.malformed("text after the object", offset: offset)
        }
    }

    @inline(__always) private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// A key's bytes, in place; keys are plain names, so an escape in one is taken as malformed.
    private mutating func key() throws(Failure) -> UnsafeBufferPointer<UInt8> {
        try expect(UInt8(ascii: "\""), "expected a string")
        let start = offset
        let base = bytes.baseAddress!, count = bytes.count
        var index = start
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                offset = index + 1
                return UnsafeBufferPointer(start: base + start, count: index - start)
            }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { throw Failure.malformed("a key that is not a plain name", offset: index) }
            index += 1
        }
        throw Failure.malformed("an unterminated string", offset: start)
    }

    /// Writers put no spaces between tokens, so the common case is one look at one byte.
    @inline(__always) private mutating func skipSpaces() {
        guard offset < bytes.count, bytes[offset] == 0x20 || bytes[offset] == 0x09 else { return }
        skipSpacesFound()
    }

    private mutating func skipSpacesFound() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 { offset += 1 }
    }

    @inline(__always) private mutating func expect(_ byte: UInt8, _ message: StaticString) throws(Failure) {
        guard offset < bytes.count, bytes[offset] == byte else { throw Failure.malformed("\(message)", offset: offset) }
        offset += 1
    }

    private mutating func value(into fields: inout Fields) throws(Failure) -> RawValue {
        guard let first = peek() else { throw Failure.malformed("expected a value", offset: offset) }
        switch first {
        case UInt8(ascii: "\""): return try string(into: &fields)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            throw Failure.malformed("nested objects and arrays are not part of the format", offset: offset)
        default: throw Failure.malformed("expected a value", offset: offset)
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        for index in 0..<word.utf8CodeUnitCount {
            guard peek() == word.utf8Start[index] else { throw Failure.malformed("expected \(word)", offset: offset) }
            offset += 1
        }
    }

    /// An integer of up to 18 digits (which cannot overflow) is read straight from its digits; anything else (a
    /// fraction, an exponent, a longer integer) goes through `Int` and `Double`, which refuse what is not a number.
    private mutating func number() throws(Failure) -> RawValue {
        let start = offset
        let base = bytes.baseAddress!, count = bytes.count
        var index = start
        let negative = base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        var magnitude: UInt64 = 0
        while index < count {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            magnitude = magnitude &* 10 &+ UInt64(digit)
            index += 1
        }
        let digits = index - digitsStart
        var isInteger = true
        while index < count {
            let byte = base[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                index += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                isInteger = false
                index += 1
            } else {
                break
            }
        }
        offset = index
        if isInteger && digits > 0 && digits <= 18 {
            return .integer(negative ? -Int(magnitude) : Int(magnitude))
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        if isInteger, let value = Int(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else {
            throw Failure.malformed("'\(text)' is not a number", offset: start)
        }
        return .number(value)
    }

    /// A string: in place when it is ASCII with no escapes, the common case for labels and names, found eight
    /// bytes at a time; otherwise decoded and validated now, so every bad string is found as the line is read.
    private mutating func string(into fields: inout Fields) throws(Failure) -> RawValue {
        try expect(UInt8(ascii: "\""), "expected a string")
        let start = offset
        let base = bytes.baseAddress!, count = bytes.count
        var index = start
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if JSONBytes.anyNeedsEscaping(word) || JSONBytes.anyBeyondASCII(word) { break }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                offset = index + 1
                return .ascii(start: Int32(start), end: Int32(index))
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        return fields.keep(try decodedString())
    }

    /// The rest of a string with escapes or non-ASCII text, from just after its opening quote.
    private mutating func decodedString() throws(Failure) -> String {
        let start = offset
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            if byte < 0x20 { throw Failure.malformed("a control character inside a string", offset: offset) }
            offset += 1
        }
        guard peek() != nil else { throw Failure.malformed("an unterminated string", offset: start) }
        var scalars = try validated(bytes[start..<offset])
        while peek() == UInt8(ascii: "\\") {
            offset += 1
            guard let escape = peek() else { throw Failure.malformed("an unterminated string", offset: start) }
            offset += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "u"): scalars.unicodeScalars.append(try unicodeEscape())
            default: throw Failure.malformed("an unknown escape", offset: offset - 1)
            }
            let runStart = offset
            while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                if byte < 0x20 { throw Failure.malformed("a control character inside a string", offset: offset) }
                offset += 1
            }
            guard peek() != nil else { throw Failure.malformed("an unterminated string", offset: start) }
            scalars += try validated(bytes[runStart..<offset])
        }
        offset += 1
        return scalars
    }

    private func validated(_ run: Slice<UnsafeBufferPointer<UInt8>>) throws(Failure) -> String {
        guard let text = String(validating: UnsafeBufferPointer(rebasing: run), as: UTF8.self) else { throw Failure.notUTF8 }
        return text
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw Failure.malformed("a bad \\u escape", offset: offset) }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure.malformed("a bad \\u escape", offset: offset)
            }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }

    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        var value = try hexQuad()
        if (0xD800...0xDBFF).contains(value) {
            guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                throw Failure.malformed("a lone surrogate", offset: offset)
            }
            offset += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw Failure.malformed("a lone surrogate", offset: offset) }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw Failure.malformed("a lone surrogate", offset: offset) }
        return scalar
    }
}
