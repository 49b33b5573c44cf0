/// Builds one trace event as a flat JSON object on one line, byte by byte.
///
/// String interpolation and Foundation's encoders cost from half a microsecond to two per event;
/// appending bytes to a reserved array costs a fraction of that, and events are sent a lot.
/// The field order is fixed by `docs/trace-format.md`: `e`, `t`, `tid`, `q`, then the event's own fields.
struct EventLine {
    private(set) var bytes: [UInt8] = []

    init(kind: String, time: UInt64, thread: Int32, queue: String) {
        bytes.reserveCapacity(160)
        appendRaw("{\"e\":")
        appendQuoted(kind)
        appendRaw(",\"t\":")
        appendDigits(time)
        appendRaw(",\"tid\":")
        appendInteger(Int(thread))
        appendRaw(",\"q\":")
        appendQuoted(queue)
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
        appendRaw(value.isFinite ? "\(value)" : "0")
    }

    mutating func add(_ key: String, _ value: Bool) {
        appendKey(key)
        appendRaw(value ? "true" : "false")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The complete line, with its closing brace and newline.
    consuming func finished() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(10)
        return bytes
    }

    private mutating func appendKey(_ key: String) {
        appendRaw(",\"")
        appendRaw(key)
        appendRaw("\":")
    }

    private mutating func appendRaw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func appendInteger(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude))
    }

    private mutating func appendDigits(_ value: UInt64) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    /// JSON string escaping: quotes, backslashes and control characters; all other UTF-8 passes through.
    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): appendRaw("\\\"")
            case UInt8(ascii: "\\"): appendRaw("\\\\")
            case UInt8(ascii: "\n"): appendRaw("\\n")
            case UInt8(ascii: "\r"): appendRaw("\\r")
            case UInt8(ascii: "\t"): appendRaw("\\t")
            case 0..<0x20:
                appendRaw("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
