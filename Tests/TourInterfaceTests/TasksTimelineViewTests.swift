import Testing
import PageProtocol
import TourCore
import TourTestSupport
@testable import TourInterface

/// The timeline's task view, drawn from a fixture run with nested tasks (`TraceFixture.nestedTasks`).
@Suite("Task view", .bodiesBelowTheRunner)
struct TasksTimelineViewTests {
    /// The fixture run fed to a model as the terminal layer would, with the task view chosen.
    private func model(width: Int, height: Int) throws -> TourModel {
        var model = try FixturePages.model(width: width, height: height)
        var script = RunScript()
        script.events = [.started(pid: TraceFixture.pid, time: TraceFixture.start)]
        for line in TraceFixture.nestedTasks {
            script.events.append(.trace(try TraceLineParser.parse(Array(line.utf8)).get()))
        }
        script.events.sort { time(of: $0) < time(of: $1) }
        script.events.append(.ended(.exited(code: 0), time: TraceFixture.start + 420_000_000))
        model.run(script)
        model.currentPage.timeline.view = .tasks
        return model
    }

    private func time(of event: HostEvent) -> UInt64 {
        switch event {
        case .trace(let trace): trace.time
        default: 0
        }
    }

    @Test("120×40: a row per task, children indented under their parent, spans named by lane, suspended stretches as ~")
    func full() async throws {
        let model = try model(width: 120, height: 40)
        let screen = TourRenderer.render(model)
        let timeline = try #require(model.layout.panes[.timeline])
        Snapshot.expect(screen.lines(in: timeline), matches: "pane-timeline-tasks-120")
        let rows = screen.lines(in: timeline)
        let titles = ["#1 load album", "└ #5 logger", "└ #2 download a", "└ #3 download b", "  └ #4 thumbnail"]
        let found = try titles.map { title in try #require(rows.firstIndex { $0.contains("│" + title) }, "no row for \(title)") }
        #expect(found == found.sorted(), "the rows are in tree order")
        let record = try #require(model.currentPage.record)
        let download = rows[found[2]]
        // Each bar starts with the lane of the thread that ran it: download a's two spans ran on two threads, each name
        // fitted to its bar.
        #expect(download.contains("\(record.laneName(of: 102)) fetc…") && download.contains("\(record.laneName(of: 101)) …"))
        #expect(download.contains("~"), "download a went on on another thread: suspended")
        #expect(!rows[found[3]].contains("~"), "download b stayed on one thread: nothing proves a suspension")
        #expect(rows.contains { $0.contains("5 tasks (1 running), 2 resumptions on another thread") })
        let bar = try #require(screen.find("\(record.laneName(of: 102)) fetc", in: timeline))
        #expect(screen[bar.x, bar.y].style.reverse)
    }

    @Test("80×24: the timeline tab shows the task view, the rows it has room for and how many more there are")
    func compact() async throws {
        var model = try model(width: 80, height: 24)
        for _ in 0..<8 where model.focus != .timeline { model.press(.tab) }
        let screen = TourRenderer.render(model)
        Snapshot.expect(screen.lines, matches: "compact-timeline-tasks")
        #expect(screen.find("#1 load album") != nil)
        #expect(screen.find("more below") != nil)
    }

    @Test("t in the focused timeline reaches the task view after the queue view, then comes back to the threads")
    func switching() async throws {
        var model = try model(width: 120, height: 40)
        model.currentPage.timeline.view = .threads
        for _ in 0..<8 where model.focus != .timeline { model.press(.tab) }
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .queues)
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .tasks)
        model.press(.character("t"))
        #expect(model.currentPage.timeline.view == .threads)
    }

    @Test("a run without traced tasks says how a page starts them")
    func noTasks() async throws {
        var model = try FixturePages.model()
        model.run(.finishedQueueRun)
        model.currentPage.timeline.view = .tasks
        let screen = TourRenderer.render(model)
        #expect(screen.find("No traced Swift tasks in this run") != nil)
    }
}
