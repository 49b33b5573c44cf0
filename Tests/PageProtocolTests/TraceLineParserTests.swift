import Testing
import Foundation
@testable import PageProtocol
import TourTestSupport

private func parse(_ text: String) -> Result<PageEvent, TraceLineParser.Failure> {
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

/// One event of every kind the format documents, with fields that exercise each one's optional parts.
let oneOfEveryKind: [EventKind] = [
    .hello(version: 1, page: "Lesson01Operation", pid: 12_134, speed: 2.5),
    .begin(id: 17, name: "network load photo-3"),
    .begin(id: 18, name: "fetch", task: 3),
    .end(id: 17, name: "network load photo-3"),
    .end(id: 17, name: "tilt-shift photo-3", cpu: 182_004_113),
    .mark(name: "cancel requested"),
    .out(text: "says \"hi\"\tto 🧵"),
    .result(file: "main.swift", line: 42, kind: .duration, text: "4.1 ms", seconds: 0.004_123_5),
    .result(file: "main.swift", line: 7, kind: .peek, text: "[\"a\", \"b\"]", seconds: nil),
    .knob(KnobAnnouncement(name: "maxConcurrentOperationCount", type: .int, value: "1", defaultValue: "2", minimum: 1, maximum: 8,
                           help: "how many run at once")),
    .knob(KnobAnnouncement(name: "reAdd", type: .bool, value: "false", defaultValue: "false")),
    .knob(KnobAnnouncement(name: "style", type: .choice, value: "serial", defaultValue: "concurrent", choices: ["serial", "concurrent"])),
    .op(operation: "download", oid: 3, state: .ready),
    .op(operation: "download", oid: 3, state: .executing),
    .op(operation: "download", oid: 3, state: .finished),
    .op(operation: "download", oid: 3, state: .cancelled),
    .dep(operation: "parse", oid: 4, dependency: "download", onid: 3),
    .expect(ending: .crash, why: "the operation is added twice"),
    .expect(ending: .stuck, why: "each waits for the other"),
    .crash(signal: 4, image: "libdispatch.so", inProgram: false, pc: 140_693_061_560_280, address: 140_693_061_560_280, stackOverflow: false),
    .crash(signal: 11, image: "", inProgram: true, pc: 4_096, address: UInt64.max, stackOverflow: true),
    .frame(PagePicture(width: 2, height: 1, base64: "/wAAAAD/")),
    .rows(count: 4),
    .row(index: 0, caption: "0  coffee  placeholder", picture: nil, parts: nil),
    .row(index: 0, caption: "0  coffee  loaded", picture: PagePicture(width: 1, height: 1, base64: "AQID"), parts: 1),
    .detail(index: 0, part: 0, caption: "before", picture: PagePicture(width: 1, height: 1, base64: "AQID")),
    .input(commands: .scroll),
    .task(number: 3, parent: 1, name: "download", kind: .child, phase: .start),
    .task(number: 3, parent: 1, name: "download", kind: .child, phase: .end),
    .task(number: 1, parent: nil, name: "main work", kind: .unstructured, phase: .start),
    .task(number: 4, parent: 1, name: "logger", kind: .detached, phase: .start),
    .queue(name: "photos", width: 2),
    .queue(name: "uploads", width: -1),
    .phase(name: "operations", phase: .start),
    .phase(name: "task group", phase: .end),
]

/// The event as the host receives it: the page's encoding without its newline, decoded.
private func roundTrip(_ event: PageEvent) throws -> PageEvent {
    let line = event.encoded()
    #expect(line.last == 10)
    #expect(!line.dropLast().contains(10), "one event, one line")
    return try TraceLineParser.parse(line.dropLast()).get()
}

/// `docs/trace-format.md`, read from the checkout the tests were built from.
private func traceFormatDocument() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent("docs/trace-format.md"), encoding: .utf8)
}

@Suite("Page protocol: every kind round-trips from the page's encoder to the host's decoder", .bodiesBelowTheRunner)
struct TraceLineRoundTripTests {
    private let time: UInt64 = 2_306_185_619_721
    private let thread: Int32 = 12_134
    private let main = "com.apple.main-thread"

    @Test(arguments: oneOfEveryKind)
    func everyKindRoundTrips(_ kind: EventKind) throws {
        let event = PageEvent(time: time, thread: thread, queue: main, kind: kind)
        #expect(try roundTrip(event) == event)
    }

    @Test func theDocumentedKindsAreTheKindsThereAre() throws {
        // The event tables start with the header `| `e` | sent by | own fields |`; each of their rows names a kind.
        var documented: Set<String> = []
        var inEventTable = false
        for row in try traceFormatDocument().split(separator: "\n", omittingEmptySubsequences: false) {
            if row.hasPrefix("| `e` | sent by") { inEventTable = true; continue }
            guard inEventTable, row.hasPrefix("|") else { inEventTable = false; continue }
            if row.hasPrefix("| `"), let kind = row.dropFirst(3).split(separator: "`").first { documented.insert(String(kind)) }
        }
        #expect(documented == Set(oneOfEveryKind.map(\.wireName)))
        #expect(documented.count == 19)
    }

    @Test func theDocumentsExamplesDecodeAndEncodeByteForByte() throws {
        let examples = try traceFormatDocument().split(separator: "\n").filter { $0.hasPrefix(#"{"e":""#) }
        #expect(examples.count == 20)
        var kinds: Set<String> = []
        for example in examples {
            let event = try TraceLineParser.parse(Array(example.utf8)).get()
            #expect(Array(event.encoded().dropLast()) == Array(example.utf8), "\(example)")
            if case .unknown = event.kind { Issue.record("an example of a kind the decoder does not know: \(example)") }
            kinds.insert(event.kind.wireName)
        }
        // Two examples of `row` and of `begin` (with and without its task); every other kind has one.
        #expect(kinds.count == 18 && !kinds.contains("input") && kinds.contains("task") && kinds.contains("queue") && kinds.contains("phase"))
    }

    @Test func helloAsTheFixtureSentIt() throws {
        // Copied from a real run of RunnerFixture with fd 3 on a file.
        let event = try parse(#"{"e":"hello","t":2306185619721,"tid":12134,"q":"com.apple.main-thread","v":1,"page":"RunnerFixture","pid":12134,"speed":1.0}"#).get()
        #expect(event == PageEvent(time: time, thread: thread, queue: main,
                                   kind: .hello(version: 1, page: "RunnerFixture", pid: 12_134, speed: 1)))
    }

    @Test func aTinyDurationInExponentFormComesBackExactly() throws {
        #expect(String(1.5e-06) == "1.5e-06")
        let event = PageEvent(time: 1, thread: 1, queue: "", kind: .result(file: "a.swift", line: 1, kind: .duration, text: "2 µs", seconds: 1.5e-06))
        #expect(try roundTrip(event) == event)
    }

    @Test func notANumberIsSentAsZero() throws {
        let event = PageEvent(time: 1, thread: 1, queue: "", kind: .hello(version: 1, page: "p", pid: 1, speed: .nan))
        #expect(try roundTrip(event).kind == .hello(version: 1, page: "p", pid: 1, speed: 0))
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
        // A queue label is libdispatch's C string, so it cannot hold a NUL; the text can.
        let label = text.replacingOccurrences(of: "\u{0}", with: "")
        let event = PageEvent(time: time, thread: thread, queue: "queue “\(label)”", kind: .out(text: text))
        let decoded = try roundTrip(event)
        #expect(decoded == event)
        guard case .out(let back) = decoded.kind else { throw RoundTripFailure.wrongKind }
        #expect(Array(back.utf8) == Array(text.utf8))
    }

    enum RoundTripFailure: Error { case wrongKind }

    @Test func controlBytesAreWrittenAsLowercaseUnicodeEscapes() throws {
        let event = PageEvent(time: 1, thread: 1, queue: "", kind: .out(text: "\u{1}\u{1F}"))
        #expect(String(decoding: event.encoded(), as: UTF8.self) == #"{"e":"out","t":1,"tid":1,"q":"","text":"\u0001\u001f"}"# + "\n")
        #expect(try roundTrip(event) == event)
    }

    @Test func escapesTheEncoderNeverWritesButJSONAllows() throws {
        let event = try parse(#"{"e":"out","t":1,"tid":1,"q":"","text":"\/\b\f\u00e9\u00E9\ud83e\uddf5\uD83E\uDDF5\u0041"}"#).get()
        #expect(event.kind == .out(text: "/\u{8}\u{C}éé🧵🧵A"))
    }

    @Test func spacesBetweenTokensAndATrailingCarriageReturnAreAccepted() throws {
        let event = try parse("{ \"e\" : \"mark\" ,\t\"t\":5, \"tid\":6,\"q\":\"q\", \"name\":\"x\" }\r").get()
        #expect(event == PageEvent(time: 5, thread: 6, queue: "q", kind: .mark(name: "x")))
    }

    @Test func unknownKindsAreKeptAndUnknownFieldsIgnored() throws {
        #expect(try parse(#"{"e":"future","t":1,"tid":1,"q":"","x":1}"#).get().kind == .unknown("future"))
        #expect(try parse(#"{"e":"mark","t":1,"tid":1,"q":"","name":"m","later":true,"name2":"n"}"#).get().kind == .mark(name: "m"))
        // A key that appears twice keeps its last value.
        #expect(try parse(#"{"e":"mark","t":1,"tid":1,"q":"","name":"first","name":"last"}"#).get().kind == .mark(name: "last"))
        // An integer written with a zero fraction is still an integer.
        #expect(try parse(#"{"e":"begin","t":1,"tid":1,"q":"","id":3.0,"name":"s"}"#).get().kind == .begin(id: 3, name: "s"))
    }

    @Test func parsesASliceOfALargerBuffer() throws {
        // The runner hands over `ArraySlice`s of its read buffer, whose indices do not start at zero.
        let buffer = Array("garbage\n{\"e\":\"mark\",\"t\":9,\"tid\":8,\"q\":\"\",\"name\":\"sliced\"}\nmore".utf8)
        let start = try #require(buffer.firstIndex(of: UInt8(ascii: "{")))
        let end = try #require(buffer.lastIndex(of: UInt8(ascii: "}"))) + 1
        #expect(try TraceLineParser.parse(buffer[start..<end]).get() == PageEvent(time: 9, thread: 8, queue: "", kind: .mark(name: "sliced")))
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() throws {
        let prefix = #"{"e":"mark","t":1,"tid":1,"q":"","name":""#
        let suffix = #""}"#
        let name = String(repeating: "n", count: TraceLineParser.maximumLineBytes - prefix.utf8.count - suffix.utf8.count)
        let line = Array((prefix + name + suffix).utf8)
        #expect(line.count == 65_536)
        #expect(try TraceLineParser.parse(line).get().kind == .mark(name: name))
    }
}

@Suite("Trace line parser: every kind of bad line", .bodiesBelowTheRunner)
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

    @Test func missingOrMistypedOwnFields() {
        let common = #"{"t":1,"tid":2,"q":"","#
        #expect(failure(of: common + #""e":"begin","name":"s"}"#) == .missingField("id"))
        #expect(failure(of: common + #""e":"begin","id":"1","name":"s"}"#) == .missingField("id"))
        #expect(failure(of: common + #""e":"end","id":1}"#) == .missingField("name"))
        #expect(failure(of: common + #""e":"mark","name":7}"#) == .missingField("name"))
        #expect(failure(of: common + #""e":"out"}"#) == .missingField("text"))
        #expect(failure(of: common + #""e":"hello","v":1,"page":"p","pid":4294967296,"speed":1}"#) == .missingField("pid"))
        #expect(failure(of: common + #""e":"result","file":"a","line":1,"text":"x"}"#) == .missingField("kind"))
        #expect(failure(of: common + #""e":"knob","name":"k","type":"int","value":"1"}"#) == .missingField("default"))
        #expect(failure(of: common + #""e":"dep","op":"a","oid":1,"on":"b"}"#) == .missingField("onid"))
        #expect(failure(of: common + #""e":"crash","signal":11,"image":"","program":"no","pc":1,"addr":1,"stackOverflow":false}"#)
                == .missingField("program"))
        #expect(failure(of: common + #""e":"rows"}"#) == .missingField("count"))
        #expect(failure(of: common + #""e":"detail","index":0,"caption":"c"}"#) == .missingField("part"))
    }

    @Test func wordsOutsideTheirSet() {
        let common = #"{"t":1,"tid":2,"q":"","#
        #expect(failure(of: common + #""e":"op","op":"a","oid":1,"state":"sleeping"}"#) == .unknownValue(field: "state", value: "sleeping"))
        #expect(failure(of: common + #""e":"expect","ending":"normal","why":"w"}"#) == .unknownValue(field: "ending", value: "normal"))
        #expect(failure(of: common + #""e":"knob","name":"k","type":"float","value":"1","default":"1"}"#)
                == .unknownValue(field: "type", value: "float"))
        #expect(failure(of: common + #""e":"result","file":"a","line":1,"kind":"guess","text":"x"}"#) == .unknownValue(field: "kind", value: "guess"))
        #expect(failure(of: common + #""e":"input","commands":"zoom"}"#) == .unknownValue(field: "commands", value: "zoom"))
        #expect(TraceLineParser.Failure.unknownValue(field: "state", value: "sleeping").description
                == "an event line whose \"state\" is \"sleeping\", which the format does not know")
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

    /// Found by `scripts/fuzz.sh` (TraceLineParser): a negative `pc` reads as its 64-bit pattern, past 2^63, which the
    /// encoder writes back as a JSON number, so the round trip moves it to the nearest double; it must then stay put.
    @Test func anAddressPast2To63SettlesAfterOneRoundTrip() throws {
        let line = #"{"e":"crash","t":2306241290111,"tid":12134,"q":"","signal":4,"image":"libdispatch.so","program":false,"pc":-40693061560280,"addr":1406930660280,"stackOverflow":false}"#
        let event = try parse(line).get()
        func addresses(_ event: PageEvent) -> (pc: UInt64, address: UInt64)? {
            if case .crash(_, _, _, let pc, let address, _) = event.kind { return (pc, address) }
            return nil
        }
        let (pc, address) = try #require(addresses(event))
        #expect(pc == UInt64(bitPattern: -40_693_061_560_280))
        #expect(address == 1_406_930_660_280)
        let again = try TraceLineParser.parse(event.encoded().dropLast()).get()
        #expect(try TraceLineParser.parse(again.encoded().dropLast()).get() == again)
        let (pcAgain, addressAgain) = try #require(addresses(again))
        #expect(addressAgain == address, "an address under 2^63 comes back exactly")
        #expect(pcAgain == UInt64(Double(pc)), "past 2^63: the nearest double")
    }

    /// Found by `scripts/fuzz.sh` (TraceLineParser): a row whose `px` is not a string had an empty picture, which the
    /// encoder leaves out, so the row came back without one. A `px` that is not a string is no picture.
    @Test func aRowWhosePixelsAreNotAStringHasNoPicture() throws {
        let event = try parse(#"{"e":"row","t":0,"tid":12143,"q":"","index":0,"caption":"lod","px":0}"#).get()
        #expect(event.kind == .row(index: 0, caption: "lod", picture: nil, parts: nil))
        #expect(try TraceLineParser.parse(event.encoded().dropLast()).get() == event)
    }
}
