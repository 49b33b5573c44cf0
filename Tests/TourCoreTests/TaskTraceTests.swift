import Foundation
import Testing
import PageProtocol
import TourCore
import TourTestSupport

/// Traced Swift tasks in the record: the fold of `task` lines and a span's `task`, the tree the task view draws, what
/// the trace can say about a task between its spans, and the Chrome export's async slices.
@Suite("Tasks in the trace", .bodiesBelowTheRunner)
struct TaskTraceTests {
    static let end = TraceFixture.start + 420 * 1_000_000

    private func nestedRun() throws -> RunRecord {
        try TraceFixture.record(TraceFixture.nestedTasks, endedAt: Self.end)
    }

    private func milliseconds(_ value: Int) -> UInt64 { TraceFixture.start + UInt64(value) * 1_000_000 }

    @Test("task lines fold into RunRecord.tasks, with parent, kind, start, end and threads; a span keeps its task")
    func fold() async throws {
        let record = try nestedRun()
        #expect(record.tasks.map(\.number) == [1, 5, 2, 3, 4])
        let album = try #require(record.tasks.first { $0.number == 1 })
        #expect(album.parent == nil && album.name == "load album" && album.kind == .unstructured)
        #expect(album.start == milliseconds(10) && album.thread == 101)
        #expect(album.end == milliseconds(400) && album.endThread == 102)
        let logger = try #require(record.tasks.first { $0.number == 5 })
        #expect(logger.kind == .detached && logger.parent == 1 && logger.end == nil, "left running when the run ended")
        #expect(record.tasks.first { $0.number == 4 }?.parent == 3)
        #expect(record.spans.first { $0.name == "decode a" }?.task == 2)
        #expect(record.spans.first { $0.name == "main waits" }?.task == nil)
    }

    @Test("a second start, an end of an unknown task and a second end change nothing; tasks past the cap are counted")
    func foldRefusals() async throws {
        let lines = [TraceFixture.task(1, "a", parent: nil, "start", at: 1, thread: 101),
                     TraceFixture.task(1, "again", parent: 7, "start", at: 2, thread: 102),
                     TraceFixture.task(9, "never started", parent: nil, "end", at: 3, thread: 101),
                     TraceFixture.task(1, "a", parent: nil, "end", at: 4, thread: 101),
                     TraceFixture.task(1, "a", parent: nil, "end", at: 5, thread: 102),
                     TraceFixture.task(2, "b", parent: 1, "start", at: 6, thread: 101),
                     TraceFixture.task(3, "c", parent: 1, "start", at: 7, thread: 101)]
        var record = RunRecord(limits: { var limits = RunRecord.Limits(); limits.tasks = 2; return limits }())
        record.apply(.started(pid: TraceFixture.pid, time: TraceFixture.start))
        for line in lines { record.apply(.trace(try TraceLineParser.parse(Array(line.utf8)).get())) }
        #expect(record.tasks.map(\.number) == [1, 2])
        #expect(record.tasks[0].name == "a" && record.tasks[0].parent == nil)
        #expect(record.tasks[0].end == milliseconds(4) && record.tasks[0].endThread == 101)
        #expect(record.drops.tasks == 1)
        #expect(record.dropNotes().contains("1 task beyond the cap of 2 tasks was dropped"))
    }

    @Test("the tree: each task under the one it was started from, in the order they started")
    func tree() async throws {
        let tree = try nestedRun().taskTree()
        #expect(tree.map(\.task.number) == [1, 5, 2, 3, 4])
        #expect(tree.map(\.depth) == [0, 1, 1, 1, 2])
    }

    @Test("between spans: suspended where the task went on on another thread, unproven where it stayed on one")
    func stretches() async throws {
        let record = try nestedRun()
        let download = try #require(record.tasks.first { $0.number == 2 })
        let stretches = record.stretches(of: download, until: Self.end)
        #expect(stretches.count == 5)
        #expect(stretches[0] == .betweenSpans(from: milliseconds(70), to: milliseconds(80), thread: 102))
        #expect(stretches[2] == .suspended(from: milliseconds(150), to: milliseconds(220), left: 102, resumed: 101))
        #expect(stretches[4] == .betweenSpans(from: milliseconds(260), to: milliseconds(270), thread: 101))
        let album = try #require(record.tasks.first { $0.number == 1 })
        #expect(record.stretches(of: album, until: Self.end).contains(.suspended(from: milliseconds(60), to: milliseconds(300),
                                                                               left: 101, resumed: 102)))
        let other = try #require(record.tasks.first { $0.number == 3 })
        #expect(!record.stretches(of: other, until: Self.end).contains { if case .suspended = $0 { true } else { false } },
                "download b stayed on one thread: nothing proves it was suspended")
        let logger = try #require(record.tasks.first { $0.number == 5 })
        #expect(record.stretches(of: logger, until: Self.end).last == .betweenSpans(from: milliseconds(65), to: Self.end, thread: 103),
                "a task still running reaches the end of the run")
    }

    @Test("the Chrome export, read back: each task an async slice, its spans nested in it naming their thread")
    func chromeExport() async throws {
        let record = try nestedRun()
        let data = try JSONSerialization.data(withJSONObject: ChromeTrace.document(for: record, title: "tasks"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["cat"] as? String == "task" && $0["id"] as? Int == 2 }
        #expect(slices.map { "\($0["ph"]!) \($0["name"]!) \($0["ts"]!)" }
                == ["b download a 70000", "b fetch a 80000", "e fetch a 150000", "b decode a 220000", "e decode a 260000",
                    "e download a 270000"])
        let fetch = try #require(slices.first { $0["name"] as? String == "fetch a" }?["args"] as? [String: Any])
        #expect(fetch["thread"] as? String == record.laneName(of: 102))
        let task = try #require(slices.first?["args"] as? [String: Any])
        #expect(task["parent"] as? Int == 1 && task["kind"] as? String == "child")
        let logger = events.filter { $0["cat"] as? String == "task" && $0["id"] as? Int == 5 && $0["name"] as? String == "logger" }
        #expect(logger.map { $0["ph"] as? String } == ["b", "e"])
        #expect(logger.last?["ts"] as? Double == 420_000, "a task left running ends with the run")
    }
}
