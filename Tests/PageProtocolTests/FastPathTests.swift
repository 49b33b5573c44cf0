import Testing
@testable import PageProtocol
import TourTestSupport

/// The shortcuts the encoder and the decoder take for speed, each checked against the plain reading of the format:
/// digits written in blocks, strings checked a word at a time, integers read straight from the bytes, known keys
/// found in a packed table, queue labels shared.
@Suite("Page protocol: the fast paths agree with the format", .bodiesBelowTheRunner)
struct FastPathTests {
    private func decoded(_ line: String) throws -> PageEvent {
        try TraceLineParser.parse(Array(line.utf8)).get()
    }

    private func encodedText(_ event: PageEvent) -> String {
        String(decoding: event.encoded().dropLast(), as: UTF8.self)
    }

    @Test func integersAtEveryDigitBlockBoundaryAreWrittenAsSwiftWritesThem() throws {
        var values: [Int] = [0, 1, 9, 10, 99, 100, 12_345, 9_999_999, 10_000_000, 99_999_999, 100_000_000, 100_000_001,
                             1_234_567_890_123, 9_999_999_999_999_999, 10_000_000_000_000_000, Int.max, -1, -100_000_000, Int.min]
        var power = 1
        while power <= Int.max / 10 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        for id in values {
            // A stamp must fit in an `Int` to be read back.
            let time = UInt64(min(id.magnitude, UInt(Int.max)))
            let event = PageEvent(time: time, thread: 1, queue: "", kind: .begin(id: id, name: "n"))
            #expect(encodedText(event) == #"{"e":"begin","t":\#(time),"tid":1,"q":"","id":\#(id),"name":"n"}"#)
            #expect(try TraceLineParser.parse(event.encoded().dropLast()).get() == event)
        }
    }

    @Test func aQuoteOrAControlCharacterIsEscapedWhereverItFallsInAWord() throws {
        for length in 0...20 {
            let plain = String(repeating: "a", count: length)
            #expect(encodedText(PageEvent(time: 1, thread: 1, queue: plain, kind: .mark(name: plain)))
                    == #"{"e":"mark","t":1,"tid":1,"q":"\#(plain)","name":"\#(plain)"}"#)
            for position in 0..<length {
                for (special, escaped) in [("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1F}", #"\u001f"#)] {
                    var characters = Array(plain)
                    characters[position] = Character(special)
                    let name = String(characters)
                    let expected = String(plain.prefix(position)) + escaped + String(plain.dropFirst(position + 1))
                    let event = PageEvent(time: 1, thread: 1, queue: "q", kind: .mark(name: name))
                    #expect(encodedText(event) == #"{"e":"mark","t":1,"tid":1,"q":"q","name":"\#(expected)"}"#)
                    #expect(try TraceLineParser.parse(event.encoded().dropLast()).get() == event)
                }
            }
        }
    }

    @Test func integersAreReadAsSwiftReadsThem() throws {
        let begin = #"{"e":"begin","t":1,"tid":1,"q":"","name":"s","id":"#
        #expect(try decoded(begin + "-9223372036854775808}").kind == .begin(id: Int.min, name: "s"))
        #expect(try decoded(begin + "9223372036854775807}").kind == .begin(id: Int.max, name: "s"))
        #expect(try decoded(begin + "007}").kind == .begin(id: 7, name: "s"))
        #expect(try decoded(begin + "-0}").kind == .begin(id: 0, name: "s"))
        // Past 64 bits it is a number, too large to be taken for an integer.
        #expect(throws: TraceLineParser.Failure.missingField("id")) { try decoded(begin + "9223372036854775808}") }
        #expect(throws: TraceLineParser.Failure.malformed("'-' is not a number", offset: begin.utf8.count)) {
            try decoded(begin + "-}")
        }
        #expect(throws: TraceLineParser.Failure.malformed("'1-2' is not a number", offset: begin.utf8.count)) {
            try decoded(begin + "1-2}")
        }
    }

    @Test func onlyTheExactKeyFillsAField() throws {
        let common = #"{"e":"mark","t":1,"tid":1,"q":"","#
        // Keys that share a known key's first bytes or length are other keys, and are ignored.
        #expect(try decoded(common + #""nam":"a","names":"b","NAME":"c","name":"d","stackOverflowed":1}"#).kind == .mark(name: "d"))
        #expect(throws: TraceLineParser.Failure.missingField("name")) { try decoded(common + #""nam":"a","namd":"b"}"#) }
        #expect(try decoded(#"{"e":"crash","t":1,"tid":1,"q":"","signal":11,"image":"","program":true,"pc":1,"addr":2,"stackOverflow":true}"#).kind
                == .crash(signal: 11, image: "", inProgram: true, pc: 1, address: 2, stackOverflow: true))
        // A kind's name is matched whole too.
        #expect(try decoded(#"{"e":"marks","t":1,"tid":1,"q":""}"#).kind == .unknown("marks"))
        #expect(try decoded(#"{"e":"","t":1,"tid":1,"q":""}"#).kind == .unknown(""))
    }

    @Test func theSlotsOfEveryKnownKeyFitOnTheStack() {
        // `withUnsafeTemporaryAllocation` takes up to 1 KiB from the stack and beyond that calls malloc, which cost
        // more than a third of decoding a line.
        #expect(MemoryLayout<RawValue>.stride * FieldKey.slotCount <= 1_024)
    }

    @Test func aDecoderHandsOutOneCopyOfEachQueueLabel() throws {
        var decoder = TraceLineDecoder()
        func label(_ line: String) throws -> String {
            try Array(line.utf8).withUnsafeBufferPointer { decoder.decode($0) }.get().queue
        }
        func storage(_ text: String) -> UnsafePointer<UInt8>? {
            text.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil
        }
        let long = "com.apple.root.default-qos"
        let first = try label(#"{"e":"mark","t":1,"tid":1,"q":"\#(long)","name":"a"}"#)
        let second = try label(#"{"e":"mark","t":2,"tid":1,"q":"\#(long)","name":"b"}"#)
        #expect(first == long && second == long)
        #expect(storage(first) != nil && storage(first) == storage(second), "the second event shares the first one's label")
        // Other labels are their own, and once more labels than it remembers have come, the first is made anew.
        let other = try label(#"{"e":"mark","t":3,"tid":1,"q":"com.example.other-queue","name":"c"}"#)
        #expect(other == "com.example.other-queue")
        for number in 0..<TraceLineDecoder.rememberedLabels {
            _ = try label(#"{"e":"mark","t":4,"tid":1,"q":"com.example.queue-number-\#(number)","name":"d"}"#)
        }
        let again = try label(#"{"e":"mark","t":5,"tid":1,"q":"\#(long)","name":"e"}"#)
        #expect(again == long && storage(again) != storage(first))
    }
}
