import Testing
import Foundation
import Glibc
import TourTestSupport
@testable import LessonKit
@testable import PageProtocol

/// The page side's encoder writes exactly the bytes the host's parser and `docs/trace-format.md` expect.
@Suite("Event line encoding", .bodiesBelowTheRunner)
struct EventLineTests {
    /// Strings that need every kind of care: quotes, backslashes, control characters, DEL, non-ASCII, and
    /// lines longer than the scratch space, so the line moves to the heap midway.
    static let strings: [String] = [
        "", "plain", "say \"hi\"", #"back\slash"#, "\\\"", "line\nbreak", "cr\rtab\t", "\u{0}\u{1}\u{1f}\u{7f}",
        "café ü 日本 🙂", "e\u{301}", String(repeating: "long ", count: 80), String(repeating: "\"\\\n", count: 30),
        "com.apple.root.default-qos", "a\u{8}b\u{c}c",
    ]
    static let integers: [Int] = [0, 1, -1, 9, 10, -10, 42, Int.max, Int.min, 1_000_000_007]
    static let doubles: [Double] = [0, 1.5, -2.25, 1e300, .infinity, .nan, 0.1]

    /// What the encoder before issue 11 (one byte at a time, digits reversed in place) wrote for these cases,
    /// recorded from it before it was replaced.
    static let golden: [String] = [
        "{\"e\":\"\",\"t\":0,\"tid\":-3,\"q\":\"\",\"name\":\"\",\"n\":0,\"x\":0.0,\"b\":true}",
        "{\"e\":\"plain\",\"t\":1000000007,\"tid\":-2,\"q\":\"plain\",\"name\":\"plain\",\"n\":1,\"x\":1.5,\"b\":false}",
        "{\"e\":\"say \\\"hi\\\"\",\"t\":2000000014,\"tid\":-1,\"q\":\"say \\\"hi\\\"\",\"name\":\"say \\\"hi\\\"\",\"n\":-1,\"x\":-2.25,\"b\":true}",
        "{\"e\":\"back\\\\slash\",\"t\":3000000021,\"tid\":0,\"q\":\"back\\\\slash\",\"name\":\"back\\\\slash\",\"n\":9,\"x\":1e+300,\"b\":false}",
        "{\"e\":\"\\\\\\\"\",\"t\":4000000028,\"tid\":1,\"q\":\"\\\\\\\"\",\"name\":\"\\\\\\\"\",\"n\":10,\"x\":0,\"b\":true}",
        "{\"e\":\"line\\nbreak\",\"t\":5000000035,\"tid\":2,\"q\":\"line\\nbreak\",\"name\":\"line\\nbreak\",\"n\":-10,\"x\":0,\"b\":false}",
        "{\"e\":\"cr\\rtab\\t\",\"t\":6000000042,\"tid\":3,\"q\":\"cr\\rtab\\t\",\"name\":\"cr\\rtab\\t\",\"n\":42,\"x\":0.1,\"b\":true}",
        "{\"e\":\"\\u0000\\u0001\\u001f\u{7F}\",\"t\":7000000049,\"tid\":4,\"q\":\"\\u0001\\u001f\u{7F}\",\"name\":\"\\u0000\\u0001\\u001f\u{7F}\",\"n\":9223372036854775807,\"x\":0.0,\"b\":false}",
        "{\"e\":\"café ü 日本 🙂\",\"t\":8000000056,\"tid\":5,\"q\":\"café ü 日本 🙂\",\"name\":\"café ü 日本 🙂\",\"n\":-9223372036854775808,\"x\":1.5,\"b\":true}",
        "{\"e\":\"é\",\"t\":9000000063,\"tid\":6,\"q\":\"é\",\"name\":\"é\",\"n\":1000000007,\"x\":-2.25,\"b\":false}",
        "{\"e\":\"long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long \",\"t\":10000000070,\"tid\":7,\"q\":\"long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long \",\"name\":\"long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long long \",\"n\":0,\"x\":1e+300,\"b\":true}",
        "{\"e\":\"\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\",\"t\":11000000077,\"tid\":8,\"q\":\"\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\",\"name\":\"\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\\\"\\\\\\n\",\"n\":1,\"x\":0,\"b\":false}",
        "{\"e\":\"com.apple.root.default-qos\",\"t\":12000000084,\"tid\":9,\"q\":\"com.apple.root.default-qos\",\"name\":\"com.apple.root.default-qos\",\"n\":-1,\"x\":0,\"b\":true}",
        "{\"e\":\"a\\u0008b\\u000cc\",\"t\":13000000091,\"tid\":10,\"q\":\"a\\u0008b\\u000cc\",\"name\":\"a\\u0008b\\u000cc\",\"n\":9,\"x\":0.1,\"b\":false}",
        "{\"e\":\"mark\",\"t\":18446744073709551615,\"tid\":-2147483648,\"q\":\"\",\"n\":0,\"n\":1,\"n\":-1,\"n\":9,\"n\":10,\"n\":-10,\"n\":42,\"n\":9223372036854775807,\"n\":-9223372036854775808,\"n\":1000000007}"
    ]

    /// Each case as the line the encoder writes, without its newline.
    static func encodedLines(scratchSize: Int) -> [String] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchSize) { scratch in
            var lines: [String] = []
            for (index, text) in strings.enumerated() {
                // A queue label is a C string: it cannot hold a NUL.
                let label = text.filter { $0 != "\u{0}" }
                let encoded = label.withCString { queue in
                    var line = EventLine(kindName: text, time: UInt64(index) * 1_000_000_007, thread: Int32(index) - 3,
                                         queue: queue, scratch: scratch)
                    line.add("name", text)
                    line.add("n", integers[index % integers.count])
                    line.add("x", doubles[index % doubles.count])
                    line.add("b", index % 2 == 0)
                    return line.withFinishedBytes { Array($0) }
                }
                lines.append(Self.text(of: encoded))
            }
            let extremes = "".withCString { queue in
                var line = EventLine(kindName: "mark", time: .max, thread: .min, queue: queue, scratch: scratch)
                for number in integers { line.add("n", number) }
                return line.withFinishedBytes { Array($0) }
            }
            lines.append(Self.text(of: extremes))
            return lines
        }
    }

    /// The line as text, after checking it ends in exactly one newline.
    static func text(of line: [UInt8]) -> String {
        #expect(line.last == 10)
        #expect(line.dropLast().contains(10) == false)
        return String(decoding: line.dropLast(), as: UTF8.self)
    }

    @Test(arguments: [EventLine.typicalSize, 8])
    func bytesMatchTheEncoderBeforeIt(scratchSize: Int) {
        let lines = Self.encodedLines(scratchSize: scratchSize)
        #expect(lines.count == Self.golden.count)
        for (line, expected) in zip(lines, Self.golden) {
            #expect(line == expected)
        }
    }

    /// Every line is valid JSON that reads back as the strings and numbers that went in.
    @Test func linesParseBackAsJSON() throws {
        let lines = Self.encodedLines(scratchSize: EventLine.typicalSize)
        for (index, text) in Self.strings.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[index].utf8)) as? [String: Any])
            #expect(object["e"] as? String == text)
            #expect(object["name"] as? String == text)
            #expect((object["n"] as? NSNumber)?.int64Value == Int64(Self.integers[index % Self.integers.count]))
        }
    }
}

/// Lines from many threads reach the descriptor whole and each exactly once, however the buffers fill and swap.
@Suite("Trace channel under concurrency", .bodiesBelowTheRunner)
struct LineBufferConcurrencyTests {
    @Test func linesFromManyThreadsStayWhole() async throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let readEnd = fds[0]
        let buffer = LineBuffer(fileDescriptor: fds[1])
        buffer.startFlusher()
        let received = ReceivedBytes()
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.append(chunk[..<count])
            }
            received.finish()
        }
        reader.start()
        let threads = 8
        let linesPerThread = 3_000
        // Names cut from one run of bytes: `String(repeating:count:)`, which appends a character at a time, was most
        // of the test's time, and the buffer sees the same lines either way.
        let xs = [UInt8](repeating: UInt8(ascii: "x"), count: 5_000)
        // concurrentPerform blocks its caller until every iteration is done: on a thread of its own, not the pool's.
        await awaitBlocking("concurrent-writers") {
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: EventLine.typicalSize) { scratch in
                    for number in 0..<linesPerThread {
                        "test.queue".withCString { queue in
                            var line = EventLine(kindName: "mark", time: UInt64(number), thread: Int32(thread), queue: queue,
                                                 scratch: scratch)
                            // Lengths from a few bytes to several kilobytes, so lines straddle every buffer boundary.
                            line.add("name", String(decoding: xs[..<((number * 37 + thread * 101) % 5_000)], as: UTF8.self))
                            line.withFinishedBytes { buffer.append($0) }
                        }
                    }
                }
            }
        }
        buffer.flush()
        close(fds[1])
        await received.finished()
        let bytes = received.bytes
        #expect(bytes.last == 10)
        // Reading 24,000 lines back is seconds of computing in a debug build: on a thread of its own, not the pool's.
        let check = await awaitBlocking("read-back") { Self.readBack(bytes) }
        #expect(check.lines == threads * linesPerThread)
        #expect(check.unreadable.isEmpty, "lines that are not a whole event: \(check.unreadable.prefix(3))")
        #expect(check.wrongLength.isEmpty, "names of the wrong length, by thread and line: \(check.wrongLength.prefix(3))")
        #expect(check.distinct == threads * linesPerThread)
    }

    /// What the lines read back hold: how many, those that are not a mark with a thread, a time and a name, those
    /// whose name is not as long as the writer made it, and how many distinct thread-and-number pairs. Read by the
    /// host's own decoder, which is optimised even in a debug build: Foundation's `JSONSerialization` took seconds
    /// over these 60 MB (the encoder's JSON is checked against it above, line by line).
    /// Only whole lines count, each ended by a newline; they are found with `memchr`, since a generic `split` over
    /// the 60 MB in this unoptimised test code took about two seconds of CPU.
    static func readBack(_ bytes: [UInt8]) -> (lines: Int, unreadable: [String], wrongLength: [String], distinct: Int) {
        var lines = 0
        var unreadable: [String] = [], wrongLength: [String] = []
        var seen = Set<Int>()
        var decoder = TraceLineDecoder()
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count, let newline = memchr(base + start, 10, buffer.count - start) {
                let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
                start = end + 1
                lines += 1
                guard let event = try? decoder.decode(line).get(), case .mark(let name) = event.kind else {
                    unreadable.append(String(decoding: line.prefix(80), as: UTF8.self))
                    continue
                }
                let thread = Int(event.thread), number = Int(event.time)
                if name.utf8.count != (number * 37 + thread * 101) % 5_000 { wrongLength.append("\(thread) \(number)") }
                seen.insert(thread * 1_000_000 + number)
            }
        }
        return (lines, unreadable, wrongLength, seen.count)
    }
}

/// What the reader thread has read so far.
private final class ReceivedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []
    private let done = Occurrences()

    func append(_ chunk: ArraySlice<UInt8>) { lock.withLock { storage += chunk } }
    func finish() { done.signal() }
    /// Waits, suspended, until the reader has read to the end; false if it did not within a minute.
    @discardableResult
    func finished() async -> Bool { await done.next(timeout: 60) }
    var bytes: [UInt8] { lock.withLock { storage } }
}
