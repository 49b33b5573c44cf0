/// Decodes one line of the trace channel into a `PageEvent`, or says precisely why it cannot.
///
/// Lines are flat JSON objects (`docs/trace-format.md`). A dedicated parser reads them about ten times
/// faster than `JSONSerialization`, which matters at hundreds of thousands of events a second.
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
        Array(line).withUnsafeBufferPointer { parse(buffer: $0) }
    }

    /// The runner's path: a concrete type, so no generic dispatch per line.
    public static func parse(_ line: ArraySlice<UInt8>) -> Result<PageEvent, Failure> {
        line.withUnsafeBufferPointer { parse(buffer: $0) }
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>) -> Result<PageEvent, Failure> {
        guard buffer.count <= maximumLineBytes else { return .failure(.oversized(bytes: buffer.count)) }
        var scanner = Scanner(bytes: buffer)
        do {
            let object = try scanner.object()
            guard case .string(let kind)? = object.kind else { return .failure(.missingField("e")) }
            guard case .integer(let time)? = object.time, time >= 0 else { return .failure(.missingField("t")) }
            guard case .integer(let thread)? = object.thread, let thread32 = Int32(exactly: thread) else {
                return .failure(.missingField("tid"))
            }
            guard case .string(let queue)? = object.queue else { return .failure(.missingField("q")) }
            let fields = Fields(values: object.fields)
            return .success(PageEvent(time: UInt64(time), thread: thread32, queue: queue, kind: try fields.kind(named: kind)))
        } catch {
            return .failure(error)
        }
    }

    /// The bytes as a string, if they are valid UTF-8. Labels and names are nearly always ASCII, which needs
    /// no validation beyond a glance at each byte; the general check is far slower.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> String {
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Failure.notUTF8 }
        return text
    }

    /// A field's value: the trace format only has flat objects of strings, numbers and booleans.
    enum TraceValue: Equatable {
        case string(String)
        case integer(Int)
        case number(Double)
        case bool(Bool)
    }

    /// An event's own fields, read by name and type; a required field that is missing or of the wrong type
    /// is a `missingField` failure.
    private struct Fields {
        let values: [String: TraceValue]

        /// The event kind named `name`, with its fields as `docs/trace-format.md` lists them.
        func kind(named name: String) throws(Failure) -> EventKind {
            switch name {
            case "hello":
                guard let pid = Int32(exactly: try integer("pid")) else { throw Failure.missingField("pid") }
                return .hello(version: try integer("v"), page: try string("page"), pid: pid, speed: try number("speed"))
            case "begin": return .begin(id: try integer("id"), name: try string("name"))
            case "end": return .end(id: try integer("id"), name: try string("name"))
            case "mark": return .mark(name: try string("name"))
            case "out": return .out(text: try string("text"))
            case "result":
                return .result(file: try string("file"), line: try integer("line"), kind: try word("kind"),
                               text: try string("text"), seconds: optionalNumber("seconds"))
            case "knob":
                return .knob(KnobAnnouncement(
                    name: try string("name"), type: try word("type"), value: try string("value"),
                    defaultValue: try string("default"), minimum: optionalInteger("min"), maximum: optionalInteger("max"),
                    choices: optionalString("choices")?.split(separator: ",").map(String.init) ?? [],
                    help: optionalString("help") ?? ""))
            case "op": return .op(operation: try string("op"), oid: try integer("oid"), state: try word("state"))
            case "dep":
                return .dep(operation: try string("op"), oid: try integer("oid"), dependency: try string("on"),
                            onid: try integer("onid"))
            case "expect": return .expect(ending: try word("ending"), why: try string("why"))
            case "crash":
                guard let signal = Int32(exactly: try integer("signal")) else { throw Failure.missingField("signal") }
                return .crash(signal: signal, image: try string("image"), inProgram: try bool("program"),
                              pc: try address("pc"), address: try address("addr"), stackOverflow: try bool("stackOverflow"))
            case "frame": return .frame(picture())
            case "rows": return .rows(count: try integer("count"))
            case "row":
                return .row(index: try integer("index"), caption: try string("caption"),
                            picture: optionalString("px") == nil ? nil : picture(), parts: optionalInteger("parts"))
            case "detail":
                return .detail(index: try integer("index"), part: try integer("part"), caption: try string("caption"),
                               picture: picture())
            case "input": return .input(commands: try word("commands"))
            default: return .unknown(name)
            }
        }

        private func string(_ key: String) throws(Failure) -> String {
            guard let value = optionalString(key) else { throw Failure.missingField(key) }
            return value
        }

        private func integer(_ key: String) throws(Failure) -> Int {
            guard let value = optionalInteger(key) else { throw Failure.missingField(key) }
            return value
        }

        private func number(_ key: String) throws(Failure) -> Double {
            guard let value = optionalNumber(key) else { throw Failure.missingField(key) }
            return value
        }

        private func bool(_ key: String) throws(Failure) -> Bool {
            guard case .bool(let value)? = values[key] else { throw Failure.missingField(key) }
            return value
        }

        /// One of the words a field may hold (a state, a type, an ending).
        private func word<Word: RawRepresentable<String>>(_ key: String) throws(Failure) -> Word {
            let text = try string(key)
            guard let word = Word(rawValue: text) else { throw Failure.unknownValue(field: key, value: text) }
            return word
        }

        /// An address, unsigned: past `Int.max` it arrives as a number, not an integer.
        private func address(_ key: String) throws(Failure) -> UInt64 {
            switch values[key] {
            case .integer(let value): return UInt64(bitPattern: Int64(value))
            case .number(let value) where value >= 0: return value < 0x1p64 ? UInt64(value) : .max
            default: throw Failure.missingField(key)
            }
        }

        private func picture() -> PagePicture {
            PagePicture(width: optionalInteger("w"), height: optionalInteger("h"), base64: optionalString("px"))
        }

        private func optionalString(_ key: String) -> String? {
            if case .string(let value)? = values[key] { return value }
            return nil
        }

        /// An integer, or a number with no fraction small enough to be one exactly.
        private func optionalInteger(_ key: String) -> Int? {
            switch values[key] {
            case .integer(let value): return value
            case .number(let value) where value == value.rounded() && abs(value) < 9e15: return Int(value)
            default: return nil
            }
        }

        private func optionalNumber(_ key: String) -> Double? {
            switch values[key] {
            case .number(let value): return value
            case .integer(let value): return Double(value)
            default: return nil
            }
        }
    }

    /// A line's object: the four fields every event has, kept apart so they never pass through a dictionary,
    /// and the event's own fields.
    private struct Object {
        var kind: TraceValue?
        var time: TraceValue?
        var thread: TraceValue?
        var queue: TraceValue?
        var fields: [String: TraceValue] = [:]

        mutating func set(_ key: UnsafeBufferPointer<UInt8>, _ value: TraceValue) throws(Failure) {
            switch key.count {
            case 1 where key[0] == UInt8(ascii: "e"): kind = value
            case 1 where key[0] == UInt8(ascii: "t"): time = value
            case 1 where key[0] == UInt8(ascii: "q"): queue = value
            case 3 where key[0] == UInt8(ascii: "t") && key[1] == UInt8(ascii: "i") && key[2] == UInt8(ascii: "d"): thread = value
            default:
                fields[try TraceLineParser.text(key)] = value
            }
        }
    }

    /// Reads the line in place; every error it throws is a `Failure`.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func object() throws(Failure) -> Object {
            skipSpaces()
            try expect(UInt8(ascii: "{"), "expected '{'")
            var fields = Object()
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
                    try fields.set(key, try value())
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
            return fields
        }

        private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

        /// A key's bytes, in place; keys are plain names, so an escape in one is taken as malformed.
        private mutating func key() throws(Failure) -> UnsafeBufferPointer<UInt8> {
            try expect(UInt8(ascii: "\""), "expected a string")
            let start = offset
            while let byte = peek(), byte != UInt8(ascii: "\"") {
                if byte < 0x20 || byte == UInt8(ascii: "\\") { throw Failure.malformed("a key that is not a plain name", offset: offset) }
                offset += 1
            }
            guard peek() != nil else { throw Failure.malformed("an unterminated string", offset: start) }
            offset += 1
            return UnsafeBufferPointer(rebasing: bytes[start..<offset - 1])
        }

        private mutating func skipSpaces() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 { offset += 1 }
        }

        private mutating func expect(_ byte: UInt8, _ message: String) throws(Failure) {
            guard peek() == byte else { throw Failure.malformed(message, offset: offset) }
            offset += 1
        }

        private mutating func value() throws(Failure) -> TraceValue {
            guard let first = peek() else { throw Failure.malformed("expected a value", offset: offset) }
            switch first {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                throw Failure.malformed("nested objects and arrays are not part of the format", offset: offset)
            default: throw Failure.malformed("expected a value", offset: offset)
            }
        }

        private mutating func literal(_ word: String) throws(Failure) {
            for byte in word.utf8 {
                guard peek() == byte else { throw Failure.malformed("expected \(word)", offset: offset) }
                offset += 1
            }
        }

        private mutating func number() throws(Failure) -> TraceValue {
            let start = offset
            var isInteger = true
            if peek() == UInt8(ascii: "-") { offset += 1 }
            while let byte = peek() {
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    offset += 1
                } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                    isInteger = false
                    offset += 1
                } else {
                    break
                }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            if isInteger, let value = Int(text) { return .integer(value) }
            guard let value = Double(text), value.isFinite else {
                throw Failure.malformed("'\(text)' is not a number", offset: start)
            }
            return .number(value)
        }

        private mutating func string() throws(Failure) -> String {
            try expect(UInt8(ascii: "\""), "expected a string")
            let start = offset
            // Fast path: no escapes, the common case for labels and names.
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
            try TraceLineParser.text(UnsafeBufferPointer(rebasing: run))
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
}
