import Testing
import PageProtocol
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

@Suite("Run record", .bodiesBelowTheRunner)
struct RunRecordTests {
    private let pid: Int32 = 500

    private func event(_ kind: EventKind, time: UInt64 = 10, thread: Int32 = 500, queue: String = "com.apple.main-thread") -> HostEvent {
        .trace(PageEvent(time: time, thread: thread, queue: queue, kind: kind))
    }

    private func started(_ limits: RunRecord.Limits = RunRecord.Limits()) -> RunRecord {
        var record = RunRecord(limits: limits)
        record.apply(.started(pid: pid, time: 1_000))
        return record
    }

    private func line(_ text: String, _ stream: OutputLine.Stream = .stdout) -> HostEvent {
        .output(OutputLine(stream: stream, text: text, time: 5))
    }

    @Test func outputBeyondTheLimitDropsTheOldestAndCountsThem() {
        var limits = RunRecord.Limits()
        limits.outputLines = 10
        var record = started(limits)
        // The record trims once it is a tenth over the limit, back to the limit.
        for index in 0..<11 { record.apply(line("line \(index)")) }
        #expect(record.output.count == 11)
        #expect(record.droppedOutputLines == 0)
        record.apply(line("line 11"))
        #expect(record.outputText == (2..<12).map { "line \($0)" })
        #expect(record.droppedOutputLines == 2)
        for index in 12..<1_000 { record.apply(line("line \(index)")) }
        #expect(record.output.count <= 11)
        #expect(record.output.count + record.droppedOutputLines == 1_000)
        #expect(record.outputText.last == "line 999")
        #expect(record.eventCount == 1_001)
        #expect(record.firstOutputTime == 5)
    }

    @Test func marksBeyondTheLimitDropTheOldest() {
        var limits = RunRecord.Limits()
        limits.marks = 20
        var record = started(limits)
        for index in 0..<23 { record.apply(event(.mark(name: "m\(index)"), time: UInt64(index))) }
        #expect(record.marks.map(\.name) == (3..<23).map { "m\($0)" })
        #expect(record.droppedMarks == 3)
    }

    @Test func finishedSpansBeyondTheLimitDropTheOldest() {
        var limits = RunRecord.Limits()
        limits.spans = 10
        var record = started(limits)
        for id in 1...12 {
            record.apply(event(.begin(id: id, name: "s\(id)"), time: UInt64(id * 10)))
            record.apply(event(.end(id: id, name: "s\(id)"), time: UInt64(id * 10 + 5)))
        }
        #expect(record.spans.map(\.id) == Array(3...12))
        #expect(record.droppedSpans == 2)
        #expect(record.spans.last == Span(id: 12, name: "s12", thread: pid, queue: "com.apple.main-thread", start: 120, end: 125, endThread: pid))
    }

    @Test func openSpansBeyondTheirLimitAreDroppedAndTheirEndsIgnored() {
        var limits = RunRecord.Limits()
        limits.openSpans = 2
        var record = started(limits)
        for id in 1...3 { record.apply(event(.begin(id: id, name: "s\(id)"))) }
        #expect(record.openSpans.keys.sorted() == [1, 2])
        #expect(record.droppedSpans == 1)
        record.apply(event(.end(id: 3, name: "s3"), time: 20))
        #expect(record.spans == [])
        record.apply(event(.end(id: 1, name: "s1"), time: 20))
        #expect(record.spans.map(\.id) == [1])
    }

    @Test func spansStillOpenAtTheEndAreKeptWithoutAnEnd() {
        var record = started()
        record.apply(event(.begin(id: 2, name: "waiting forever"), time: 30))
        record.apply(event(.begin(id: 1, name: "outer"), time: 20))
        record.apply(.ended(.stopped, time: 99))
        #expect(record.spans.map(\.name) == ["outer", "waiting forever"])
        #expect(record.spans.allSatisfy { $0.end == nil && $0.duration == nil })
        #expect(record.openSpans.isEmpty)
        #expect(record.ending == .stopped)
        #expect(record.endTime == 99)
    }

    @Test func resultsPerLineKeepTheLatestTextAndCount() {
        var record = started()
        record.apply(event(.result(file: "main.swift", line: 12, kind: .duration, text: "1.0 ms", seconds: 0.001), time: 11))
        record.apply(event(.result(file: "main.swift", line: 12, kind: .duration, text: "2.0 ms", seconds: 0.002), time: 12))
        record.apply(event(.result(file: "main.swift", line: 14, kind: .peek, text: "42", seconds: nil), time: 13))
        record.apply(event(.result(file: "Other.swift", line: 12, kind: .peek, text: "x", seconds: nil), time: 14))
        #expect(record.results == [
            LineResult(file: "main.swift", line: 12, kind: .duration, text: "2.0 ms", seconds: 0.002, count: 2, time: 12),
            LineResult(file: "main.swift", line: 14, kind: .peek, text: "42", seconds: nil, count: 1, time: 13),
            LineResult(file: "Other.swift", line: 12, kind: .peek, text: "x", seconds: nil, count: 1, time: 14),
        ])
    }

    @Test func knobsReplaceByName() {
        var record = started()
        record.apply(event(.knob(KnobAnnouncement(name: "width", type: .int, value: "2", defaultValue: "2", minimum: 1, maximum: 8,
                                                  help: "how wide"))))
        record.apply(event(.knob(KnobAnnouncement(name: "style", type: .choice, value: "serial", defaultValue: "serial",
                                                  choices: ["serial", "concurrent"]))))
        record.apply(event(.knob(KnobAnnouncement(name: "width", type: .int, value: "4", defaultValue: "2", minimum: 1, maximum: 8))))
        #expect(record.knobs == [
            KnobValue(name: "width", type: .int, value: "4", defaultValue: "2", minimum: 1, maximum: 8, choices: [], help: ""),
            KnobValue(name: "style", type: .choice, value: "serial", defaultValue: "serial", minimum: nil, maximum: nil,
                      choices: ["serial", "concurrent"], help: ""),
        ])
    }

    @Test func lanesAreThreadsNamedMainAndTnInTheOrderTheyAppear() {
        var record = started()
        // The process's first thread is known from the start, before any queue.
        #expect(record.threads == [ThreadLane(thread: pid, number: 0, isMain: true)])
        record.apply(event(.mark(name: "x"), thread: 503, queue: "com.apple.root.default-qos"))
        record.apply(event(.mark(name: "x"), thread: pid, queue: "com.apple.main-thread"))
        record.apply(event(.mark(name: "x"), thread: 501, queue: "fixture.operations"))
        record.apply(.output(OutputLine(stream: .stdout, text: "printed", time: 3, thread: 502, queue: "fixture.serial")))
        #expect(record.threads == [
            ThreadLane(thread: pid, number: 0, isMain: true),
            ThreadLane(thread: 503, number: 1, isMain: false),
            ThreadLane(thread: 501, number: 2, isMain: false),
            ThreadLane(thread: 502, number: 3, isMain: false),
        ])
        #expect(record.threads.map(\.name) == ["main", "T1", "T2", "T3"])
        #expect(record.laneName(of: 501) == "T2")
        #expect(record.laneName(of: pid) == "main")
        #expect(record.lane(for: 999) == nil)
    }

    /// Issue 10: a pool thread serves many queues, so its lane was titled after whichever it served first.
    @Test func aWorkerThreadThatServesTwoQueuesIsOneLaneWhoseSpansCarryBothLabels() throws {
        var record = started()
        let worker: Int32 = 501
        record.apply(event(.begin(id: 1, name: "filter"), time: 20, thread: worker, queue: "photos"))
        record.apply(event(.end(id: 1, name: "filter"), time: 30, thread: worker, queue: "photos"))
        record.apply(event(.begin(id: 2, name: "job"), time: 40, thread: worker, queue: "com.apple.root.default-qos"))
        record.apply(event(.mark(name: "halfway"), time: 45, thread: worker, queue: "com.apple.root.default-qos"))
        record.apply(event(.end(id: 2, name: "job"), time: 50, thread: worker, queue: "com.apple.root.default-qos"))
        record.apply(.output(OutputLine(stream: .stdout, text: "notified", time: 60, thread: worker, queue: "com.apple.main-thread")))

        let lanes = record.threads.filter { !$0.isMain }
        #expect(lanes == [ThreadLane(thread: worker, number: 1, isMain: false)])
        #expect(record.laneName(of: worker) == "T1")
        #expect(record.spans.filter { $0.thread == worker }.map(\.queue) == ["photos", "com.apple.root.default-qos"])
        #expect(record.marks.map(\.queue) == ["com.apple.root.default-qos"])
        #expect(record.output.map(\.queue) == ["com.apple.main-thread"])
        // The queues seen, each once, in the order they first came: they key the colours and the legend.
        #expect(record.queues == ["photos", "com.apple.root.default-qos", "com.apple.main-thread"])
        #expect(record.queueNumber(of: "com.apple.main-thread") == 2)
        #expect(record.queueNumber(of: "never.seen") == nil)
    }

    @Test func workOnNoQueueIsListedAsNoQueue() {
        var record = started()
        record.apply(event(.mark(name: "x"), thread: 600, queue: ""))
        #expect(record.laneName(of: 600) == "T1")
        #expect(record.queues == [""])
        #expect(QueueLabel.shown("") == "no queue")
        #expect(QueueLabel.shown("photos") == "photos")
        // Events that are neither spans, marks nor printed lines name no queue of their own in the legend.
        record.apply(event(.knob(KnobAnnouncement(name: "width", type: .bool, value: "true", defaultValue: "true")), thread: pid,
                           queue: "com.apple.main-thread"))
        #expect(record.queues == [""])
    }

    @Test func operationsDependenciesHelloAndRejections() {
        var record = started()
        record.apply(event(.hello(version: 1, page: "RunnerFixture", pid: 500, speed: 2)))
        record.apply(event(.op(operation: "download", oid: 1, state: .executing), time: 20, thread: 501))
        record.apply(event(.op(operation: "download", oid: 1, state: .finished), time: 30, thread: 501))
        record.apply(event(.dep(operation: "parse", oid: 2, dependency: "download", onid: 1), time: 15))
        record.apply(.rejectedTraceLine(reason: "first reason", time: 40))
        record.apply(.rejectedTraceLine(reason: "second reason", time: 41))
        #expect(record.page == "RunnerFixture")
        #expect(record.speed == 2)
        #expect(record.operations == [OperationRecord(id: 1, name: "download", changes: [
            .init(state: .executing, time: 20, thread: 501, queue: "com.apple.main-thread"),
            .init(state: .finished, time: 30, thread: 501, queue: "com.apple.main-thread"),
        ])])
        #expect(record.operations[0].firstTime(of: .finished) == 30)
        #expect(record.dependencies == [Dependency(operation: 2, operationName: "parse", dependsOn: 1, dependencyName: "download", time: 15, thread: 500)])
        #expect(record.rejectedTraceLines == 2)
        #expect(record.lastRejection == "second reason")
        #expect(record.eventCount == 7)
        #expect(record.seconds(at: 3_500_001_000) == 3.5)
    }

    /// A name is cut where a walk over its characters would cut it: at the last character boundary that leaves
    /// room for "…" in `nameBytes`, whatever the characters (combining marks, emoji joined by ZWJ, flags, CR LF,
    /// Hangul syllables built from jamo), for every limit from 1 to 40 bytes.
    @Test func namesAreCutAtTheCharacterBoundaryAWalkOverTheCharactersFinds() async throws {
        let pieces = ["ab", "e\u{301}\u{302}", "👨‍👩‍👧", "🇺🇸🇫🇷🇩", "\r\n", "\u{1100}\u{1161}\u{11A8}", "🧵", "x\u{200D}y", "é"]
        // Each piece alone, repeated, and all of them in turn, so every kind of character meets every cut.
        let texts = pieces.map { String(repeating: $0, count: 12) } + [pieces.joined(), pieces.reversed().joined()]
        for nameBytes in 1...40 {
            var limits = RunRecord.Limits()
            limits.nameBytes = nameBytes
            var record = started(limits)
            for text in texts { record.apply(event(.mark(name: text))) }
            let expected = texts.map { text -> String in
                guard text.utf8.count > nameBytes else { return text }
                var kept = 0
                return text.prefix { character in
                    kept += character.utf8.count
                    return kept <= nameBytes - "…".utf8.count
                } + "…"
            }
            #expect(record.marks.map(\.name) == expected, "nameBytes \(nameBytes)")
            #expect(record.marks.allSatisfy { $0.name.utf8.count <= max(nameBytes, "…".utf8.count) })
        }
    }
}
