import Testing
@testable import TourCore

/// Builds a line byte for byte as LessonKit's `EventLine` writes it (Sources/LessonKit/Trace/EventLine.swift):
/// `e`, `t`, `tid`, `q` first, then the event's own fields; quotes, backslashes, `\n`, `\r` and `\t` escaped
/// by name, other control bytes as `\u00xx` in lowercase hex, all other UTF-8 copied as it is.
/// The host receives the line without its newline, so `finished()` leaves it off.
private struct LessonKitLine {
    private(set) var bytes: [UInt8] = []

    init(kind: String, time: UInt64, thread: Int32, queue: String) {
        raw("{\"e\":")
        quoted(kind)
        raw(",\"t\":\(time),\"tid\":\(thread),\"q\":")
        quoted(queue)
    }

    mutating func add(_ key: String, _ value: String) {
        raw(",\"\(key)\":")
        quoted(value)
    }

    mutating func add(_ key: String, _ value: Int) { raw(",\"\(key)\":\(value)") }
    mutating func add(_ key: String, _ value: Double) { raw(",\"\(key)\":\(value.isFinite ? "\(value)" : "0")") }
    mutating func add(_ key: String, _ value: Bool) { raw(",\"\(key)\":\(value ? "true" : "false")") }

    func finished() -> [UInt8] { bytes + [UInt8(ascii: "}")] }

    private mutating func raw(_ text: String) { bytes += Array(text.utf8) }

    private mutating func quoted(_ value: String) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

private func parse(_ text: String) -> Result<TraceEvent, TraceLineParser.Failure> {
    TraceLineParser.parse(Array(text.utf8))
}

private func failure(of text: String) -> TraceLineParser.Failure? {
    failure(of: Array(text.utf8))
}

private func failure(of bytes: [UInt8]) -> TraceLineParser.Failure? {
    if case .failure(let failure) = TraceLineParser.parse(bytes) { return failure }
    return nil
}

/// The byte offset of the first `needle` in `text`, for failures that name where they happened.
private func offset(of needle: String, in text: String) -> Int {
    let bytes = Array(text.utf8), pattern = Array(needle.utf8)
    for start in 0...(bytes.count - pattern.count) where Array(bytes[start..<start + pattern.count]) == pattern {
        return start
    }
    Issue.record("'\(needle)' is not in '\(text)'")
    return -1
}

@Suite("Trace line parser: every event LessonKit writes")
struct TraceLineRoundTripTests {
    private let time: UInt64 = 2_306_185_619_721
    private let thread: Int32 = 12_134
    private let main = "com.apple.main-thread"

    private func roundTrip(_ line: LessonKitLine) throws -> TraceEvent {
        try TraceLineParser.parse(line.finished()).get()
    }

    @Test func helloAsTheFixtureSentIt() throws {
        // Copied from a real run of RunnerFixture with fd 3 on a file.
        let event = try parse(#"{"e":"hello","t":2306185619721,"tid":12134,"q":"com.apple.main-thread","v":1,"page":"RunnerFixture","pid":12134,"speed":1.0}"#).get()
        #expect(event == TraceEvent(kind: "hello", time: time, thread: thread, queue: main,
                                    fields: ["v": .integer(1), "page": .string("RunnerFixture"), "pid": .integer(12_134), "speed": .number(1)]))
    }

    @Test func hello() throws {
        var line = LessonKitLine(kind: "hello", time: time, thread: thread, queue: main)
        line.add("v", 1)
        line.add("page", "Lesson01Operation")
        line.add("pid", 12_134)
        line.add("speed", 2.5)
        let event = try roundTrip(line)
        #expect(event == TraceEvent(kind: "hello", time: time, thread: thread, queue: main,
                                    fields: ["v": .integer(1), "page": .string("Lesson01Operation"), "pid": .integer(12_134), "speed": .number(2.5)]))
        #expect(event.integer("v") == 1)
        #expect(event.number("speed") == 2.5)
    }

    @Test func beginAndEnd() throws {
        for kind in ["begin", "end"] {
            var line = LessonKitLine(kind: kind, time: time, thread: 12_140, queue: "com.apple.root.default-qos")
            line.add("id", 17)
            line.add("name", "network load photo-3")
            #expect(try roundTrip(line) == TraceEvent(kind: kind, time: time, thread: 12_140, queue: "com.apple.root.default-qos",
                                                      fields: ["id": .integer(17), "name": .string("network load photo-3")]))
        }
    }

    @Test func mark() throws {
        var line = LessonKitLine(kind: "mark", time: 0, thread: 1, queue: "")
        line.add("name", "cancel requested")
        #expect(try roundTrip(line) == TraceEvent(kind: "mark", time: 0, thread: 1, queue: "", fields: ["name": .string("cancel requested")]))
    }

    @Test func durationAndPeekResults() throws {
        var duration = LessonKitLine(kind: "result", time: time, thread: thread, queue: main)
        duration.add("file", "main.swift")
        duration.add("line", 42)
        duration.add("kind", "duration")
        duration.add("text", "4.1 ms")
        duration.add("seconds", 0.004_123_5)
        #expect(try roundTrip(duration).fields == ["file": .string("main.swift"), "line": .integer(42), "kind": .string("duration"),
                                                   "text": .string("4.1 ms"), "seconds": .number(0.004_123_5)])

        // A tiny duration prints in exponent form ("1.5e-06"); it must come back as the same Double.
        var tiny = LessonKitLine(kind: "result", time: time, thread: thread, queue: main)
        tiny.add("seconds", 1.5e-06)
        #expect(String(1.5e-06) == "1.5e-06")
        #expect(try roundTrip(tiny).number("seconds") == 1.5e-06)

        var peek = LessonKitLine(kind: "result", time: time, thread: thread, queue: main)
        peek.add("file", "main.swift")
        peek.add("line", 7)
        peek.add("kind", "peek")
        peek.add("text", "[\"a\", \"b\"]")
        let event = try roundTrip(peek)
        #expect(event.fields == ["file": .string("main.swift"), "line": .integer(7), "kind": .string("peek"), "text": .string("[\"a\", \"b\"]")])
        #expect(event.number("seconds") == nil)
    }

    @Test func knobsOfEveryType() throws {
        var int = LessonKitLine(kind: "knob", time: time, thread: thread, queue: main)
        int.add("name", "maxConcurrentOperationCount")
        int.add("type", "int")
        int.add("value", "1")
        int.add("default", "2")
        int.add("min", 1)
        int.add("max", 8)
        int.add("help", "how many run at once")
        #expect(try roundTrip(int).fields == ["name": .string("maxConcurrentOperationCount"), "type": .string("int"), "value": .string("1"),
                                              "default": .string("2"), "min": .integer(1), "max": .integer(8), "help": .string("how many run at once")])

        var bool = LessonKitLine(kind: "knob", time: time, thread: thread, queue: main)
        bool.add("name", "reAdd")
        bool.add("type", "bool")
        bool.add("value", "false")
        bool.add("default", "false")
        #expect(try roundTrip(bool).fields == ["name": .string("reAdd"), "type": .string("bool"), "value": .string("false"), "default": .string("false")])

        var choice = LessonKitLine(kind: "knob", time: time, thread: thread, queue: main)
        choice.add("name", "style")
        choice.add("type", "choice")
        choice.add("value", "serial")
        choice.add("default", "concurrent")
        choice.add("choices", "serial,concurrent")
        #expect(try roundTrip(choice).string("choices") == "serial,concurrent")
    }

    @Test func operationStatesAndDependencies() throws {
        for state in ["ready", "executing", "finished", "cancelled"] {
            var op = LessonKitLine(kind: "op", time: time, thread: 12_141, queue: "fixture.operations")
            op.add("op", "download")
            op.add("oid", 3)
            op.add("state", state)
            #expect(try roundTrip(op) == TraceEvent(kind: "op", time: time, thread: 12_141, queue: "fixture.operations",
                                                    fields: ["op": .string("download"), "oid": .integer(3), "state": .string(state)]))
        }
        var dep = LessonKitLine(kind: "dep", time: time, thread: thread, queue: main)
        dep.add("op", "parse")
        dep.add("oid", 4)
        dep.add("on", "download")
        dep.add("onid", 3)
        #expect(try roundTrip(dep).fields == ["op": .string("parse"), "oid": .integer(4), "on": .string("download"), "onid": .integer(3)])
    }

    @Test func outputAndExpectation() throws {
        var out = LessonKitLine(kind: "out", time: time, thread: thread, queue: main)
        out.add("text", "")
        #expect(try roundTrip(out).fields == ["text": .string("")])

        var expect = LessonKitLine(kind: "expect", time: time, thread: thread, queue: main)
        expect.add("ending", "crash")
        expect.add("why", "the operation is added twice")
        #expect(try roundTrip(expect).fields == ["ending": .string("crash"), "why": .string("the operation is added twice")])
    }

    @Test func booleansAndNegativeNumbers() throws {
        var line = LessonKitLine(kind: "mark", time: time, thread: thread, queue: main)
        line.add("yes", true)
        line.add("no", false)
        line.add("below", -12)
        line.add("fraction", -0.25)
        line.add("nan", Double.nan)
        #expect(try roundTrip(line).fields == ["yes": .bool(true), "no": .bool(false), "below": .integer(-12), "fraction": .number(-0.25), "nan": .integer(0)])
    }

    @Test(arguments: [
        "plain",
        "quote \" and backslash \\ and slash /",
        "new\nline, carriage\rreturn, tab\t",
        "control \u{0} \u{1} \u{8} \u{B} \u{C} \u{1B} \u{1F}",
        "é ü ñ — “typographic” 漢字",
        "emoji 🧵 and a flag 🇩🇪 and a family 👨‍👩‍👧",
        "",
    ])
    func escapesAndUnicodeSurvive(_ text: String) throws {
        var line = LessonKitLine(kind: "out", time: time, thread: thread, queue: "queue “\(text)”")
        line.add("text", text)
        let event = try roundTrip(line)
        #expect(event.string("text") == text)
        #expect(Array(event.string("text")!.utf8) == Array(text.utf8))
        #expect(event.queue == "queue “\(text)”")
    }

    @Test func controlBytesAreWrittenAsLowercaseUnicodeEscapes() throws {
        var line = LessonKitLine(kind: "out", time: 1, thread: 1, queue: "")
        line.add("text", "\u{1}\u{1F}")
        #expect(String(decoding: line.finished(), as: UTF8.self) == #"{"e":"out","t":1,"tid":1,"q":"","text":"\u0001\u001f"}"#)
        #expect(try roundTrip(line).string("text") == "\u{1}\u{1F}")
    }

    @Test func escapesLessonKitNeverWritesButJSONAllows() throws {
        let event = try parse(#"{"e":"out","t":1,"tid":1,"q":"","text":"\/\b\f\u00e9\u00E9\ud83e\uddf5\uD83E\uDDF5\u0041"}"#).get()
        #expect(event.string("text") == "/\u{8}\u{C}éé🧵🧵A")
    }

    @Test func spacesBetweenTokensAndATrailingCarriageReturnAreAccepted() throws {
        let event = try parse("{ \"e\" : \"mark\" ,\t\"t\":5, \"tid\":6,\"q\":\"q\", \"name\":\"x\" }\r").get()
        #expect(event == TraceEvent(kind: "mark", time: 5, thread: 6, queue: "q", fields: ["name": .string("x")]))
    }

    @Test func parsesASliceOfALargerBuffer() throws {
        // The runner hands over `ArraySlice`s of its read buffer, whose indices do not start at zero.
        let buffer = Array("garbage\n{\"e\":\"mark\",\"t\":9,\"tid\":8,\"q\":\"\",\"name\":\"sliced\"}\nmore".utf8)
        let start = buffer.firstIndex(of: UInt8(ascii: "{"))!
        let end = buffer.lastIndex(of: UInt8(ascii: "}"))! + 1
        #expect(try TraceLineParser.parse(buffer[start..<end]).get() == TraceEvent(kind: "mark", time: 9, thread: 8, queue: "", fields: ["name": .string("sliced")]))
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() throws {
        let prefix = #"{"e":"mark","t":1,"tid":1,"q":"","name":""#
        let suffix = #""}"#
        let name = String(repeating: "n", count: TraceLineParser.maximumLineBytes - prefix.utf8.count - suffix.utf8.count)
        let line = Array((prefix + name + suffix).utf8)
        #expect(line.count == 65_536)
        #expect(try TraceLineParser.parse(line).get().string("name") == name)
    }
}

@Suite("Trace line parser: every kind of bad line")
struct TraceLineFailureTests {
    private let header = #"{"e":"mark","t":1,"tid":2,"q":"","#

    @Test func notJSONAtAll() {
        #expect(failure(of: "this is not json") == .malformed("expected '{'", offset: 0))
        #expect(failure(of: "") == .malformed("expected '{'", offset: 0))
        #expect(failure(of: "[1,2]") == .malformed("expected '{'", offset: 0))
    }

    @Test func nestedObjectsAndArrays() {
        let object = header + #""name":{"a":1}}"#
        #expect(failure(of: object) == .malformed("nested objects and arrays are not part of the format", offset: offset(of: "{\"a\"", in: object)))
        let array = header + #""name":[1]}"#
        #expect(failure(of: array) == .malformed("nested objects and arrays are not part of the format", offset: offset(of: "[", in: array)))
    }

    @Test func missingOrMistypedCommonFields() {
        #expect(failure(of: #"{"t":1,"tid":2,"q":""}"#) == .missingField("e"))
        #expect(failure(of: #"{"e":7,"t":1,"tid":2,"q":""}"#) == .missingField("e"))
        #expect(failure(of: #"{"e":"mark","tid":2,"q":""}"#) == .missingField("t"))
        #expect(failure(of: #"{"e":"mark","t":-1,"tid":2,"q":""}"#) == .missingField("t"))
        #expect(failure(of: #"{"e":"mark","t":1.5,"tid":2,"q":""}"#) == .missingField("t"))
        #expect(failure(of: #"{"e":"mark","t":"1","tid":2,"q":""}"#) == .missingField("t"))
        #expect(failure(of: #"{"e":"mark","t":1,"q":""}"#) == .missingField("tid"))
        #expect(failure(of: #"{"e":"mark","t":1,"tid":4294967296,"q":""}"#) == .missingField("tid"))
        #expect(failure(of: #"{"e":"mark","t":1,"tid":2}"#) == .missingField("q"))
        #expect(failure(of: #"{"e":"mark","t":1,"tid":2,"q":false}"#) == .missingField("q"))
        #expect(failure(of: "{}") == .missingField("e"))
    }

    @Test func notUTF8() {
        #expect(failure(of: Array(#"{"e":"mark","t":1,"tid":2,"q":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)) == .notUTF8)
        // A truncated multi-byte sequence (the first two bytes of "🧵"), after an escape so the slow path checks it too.
        #expect(failure(of: Array((header + #""name":"\n"#).utf8) + [0xF0, 0x9F] + Array(#""}"#.utf8)) == .notUTF8)
        // In a key.
        #expect(failure(of: Array(#"{"e":"mark","t":1,"tid":2,"q":"",""#.utf8) + [0xC3] + Array(#"":1}"#.utf8)) == .notUTF8)
    }

    @Test func oversized() {
        let line = [UInt8](repeating: UInt8(ascii: " "), count: 65_537)
        #expect(failure(of: line) == .oversized(bytes: 65_537))
        #expect(TraceLineParser.Failure.oversized(bytes: 65_537).description == "an event line of 65537 bytes, over the 65536-byte limit")
    }

    @Test func trailingGarbage() {
        let line = header + #""name":"x"} x"#
        #expect(failure(of: line) == .malformed("text after the object", offset: line.utf8.count - 1))
        let twoObjects = header + #""name":"x"}{}"#
        #expect(failure(of: twoObjects) == .malformed("text after the object", offset: twoObjects.utf8.count - 2))
        // Only a single carriage return may follow the object, as a CRLF line ending leaves it.
        let afterReturn = header + "\"name\":\"x\"}\rjunk"
        #expect(failure(of: afterReturn) == .malformed("text after the object", offset: afterReturn.utf8.count - 5))
    }

    @Test func badEscapes() {
        let unknown = header + #""name":"a\qb"}"#
        #expect(failure(of: unknown) == .malformed("an unknown escape", offset: offset(of: "qb", in: unknown)))
        let shortUnicode = header + #""name":"\u12"}"#
        #expect(failure(of: shortUnicode) == .malformed("a bad \\u escape", offset: offset(of: "12", in: shortUnicode)))
        let notHex = header + #""name":"\u12G4"}"#
        #expect(failure(of: notHex) == .malformed("a bad \\u escape", offset: offset(of: "12G4", in: notHex)))
        // `UInt32("+fff", radix: 16)` is 4095: a sign is not a hex digit all the same.
        let signed = header + #""name":"\u+fff"}"#
        #expect(failure(of: signed) == .malformed("a bad \\u escape", offset: offset(of: "+fff", in: signed)))
        let loneHigh = header + #""name":"\ud83e!"}"#
        #expect(failure(of: loneHigh) == .malformed("a lone surrogate", offset: offset(of: "!", in: loneHigh)))
        let highThenNotLow = header + #""name":"\ud83e\u0041"}"#
        #expect(failure(of: highThenNotLow) == .malformed("a lone surrogate", offset: offset(of: "\"}", in: highThenNotLow)))
        let loneLow = header + #""name":"\udcf5"}"#
        #expect(failure(of: loneLow) == .malformed("a lone surrogate", offset: offset(of: "\"}", in: loneLow)))
    }

    @Test func unterminatedStrings() {
        let plain = #"{"e":"mark"#
        #expect(failure(of: plain) == .malformed("an unterminated string", offset: 6))
        let afterEscape = header + #""name":"a\n"#
        #expect(failure(of: afterEscape) == .malformed("an unterminated string", offset: offset(of: "a\\n", in: afterEscape)))
        let endsInBackslash = header + #""name":"a\"#
        #expect(failure(of: endsInBackslash) == .malformed("an unterminated string", offset: offset(of: "a\\", in: endsInBackslash)))
    }

    @Test func otherStructuralMistakes() {
        let rawTab = header + "\"name\":\"a\tb\"}"
        #expect(failure(of: rawTab) == .malformed("a control character inside a string", offset: offset(of: "\tb", in: rawTab)))
        let noColon = #"{"e" "mark"}"#
        #expect(failure(of: noColon) == .malformed("expected ':'", offset: 5))
        let cut = #"{"e":"mark","t":1"#
        #expect(failure(of: cut) == .malformed("expected ',' or '}'", offset: cut.utf8.count))
        let unquotedKey = #"{e:"mark"}"#
        #expect(failure(of: unquotedKey) == .malformed("expected a string", offset: 1))
        let null = header + #""name":null}"#
        #expect(failure(of: null) == .malformed("expected a value", offset: offset(of: "null", in: null)))
        let truthy = header + #""name":tru}"#
        #expect(failure(of: truthy) == .malformed("expected true", offset: offset(of: "}", in: truthy)))
        let infinite = header + #""name":1e400}"#
        #expect(failure(of: infinite) == .malformed("'1e400' is not a number", offset: offset(of: "1e400", in: infinite)))
        let twoDots = header + #""name":1.2.3}"#
        #expect(failure(of: twoDots) == .malformed("'1.2.3' is not a number", offset: offset(of: "1.2.3", in: twoDots)))
    }

    @Test func descriptionsSayWhatWasWrong() {
        #expect(TraceLineParser.Failure.notUTF8.description == "an event line that is not valid UTF-8")
        #expect(TraceLineParser.Failure.malformed("expected '{'", offset: 0).description
            == "an event line that is not a flat JSON object (expected '{' at byte 0)")
        #expect(TraceLineParser.Failure.missingField("tid").description == "an event line without its \"tid\" field")
    }
}
