import Foundation
import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// Issue 10, point 1: a lane is a thread, named alike everywhere; the queue belongs to each span, mark and line.
@Suite("Lanes and queues", .bodiesBelowTheRunner)
struct LaneAndQueueTests {
    private func finishedRun(width: Int, height: Int) throws -> TourModel {
        var model = try FixturePages.model(width: width, height: height)
        model.run(.finishedQueueRun)
        return model
    }

    /// The lane titles down the timeline's label column, top to bottom.
    private func laneTitles(_ model: TourModel) throws -> [String] {
        let record = try #require(model.currentPage.record)
        let geometry = try #require(model.timelineGeometry())
        let screen = TourRenderer.render(model)
        return (0..<min(record.threads.count, geometry.visibleLanes)).map { row in
            screen.lines(in: Rect(x: geometry.labels.x, y: geometry.plot.y + row, width: geometry.labels.width, height: 1))[0]
        }
    }

    @Test("Lanes have one name in the interface and the Chrome export, as in plain mode (PlainReportTests): main, then T1, T2…")
    func oneNameEverywhere() throws {
        let model = try finishedRun(width: 120, height: 40)
        let record = try #require(model.currentPage.record)
        let names = record.threads.map(\.name)
        #expect(names == ["main", "T1"])

        #expect(try laneTitles(model) == names)

        let trace = try #require(ChromeTrace.document(for: record, title: "1 Queue")["traceEvents"] as? [[String: Any]])
        let exported = trace.filter { $0["name"] as? String == "thread_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(exported == names)

        // The output pane and the info row name the same lane.
        let screen = TourRenderer.render(model)
        let output = try #require(model.layout.panes[.output])
        #expect(screen.find("T1   B done on a worker", in: output) != nil)
        var selected = try finishedRun(width: 200, height: 40)
        selected.press(.tab, .tab, .character("j"), .character("l"))
        let timeline = try #require(selected.layout.panes[.timeline])
        let info = "helper  starts 100.0 ms  lasts 200.0 ms  queue B \(RunScript.workerQueue)  thread T1 #\(RunScript.worker)"
        #expect(TourRenderer.render(selected).find(info, in: timeline) != nil)
    }

    @Test("A worker that serves two queues is one lane; each bar has its own queue's colour, and marks theirs")
    func barsTakeTheirQueuesColour() throws {
        let model = try finishedRun(width: 120, height: 40)
        let record = try #require(model.currentPage.record)
        let screen = TourRenderer.render(model)
        let timeline = try #require(model.layout.panes[.timeline])
        let helper = try #require(screen.find("helper", in: timeline))
        let notify = try #require(screen.find("notify", in: timeline))
        #expect(helper.y == notify.y, "one lane for the worker thread")
        let workers = PaletteColor.queue(try #require(record.queueNumber(of: RunScript.workerQueue)))
        let main = PaletteColor.queue(try #require(record.queueNumber(of: RunScript.mainQueue)))
        #expect(workers != main)
        #expect(screen[helper.x, helper.y].style.foreground == workers)
        #expect(screen[notify.x, notify.y].style.foreground == main)
        let mark = try #require(screen.find("◆", in: timeline))
        #expect(screen[mark.x, mark.y].style == CellStyle(foreground: workers, bold: true))
    }

    @Test("The legend lists every queue seen, with a swatch of its colour, at 120×40 and 80×24", arguments: [(120, 40), (80, 24)])
    func legendListsTheQueues(width: Int, height: Int) throws {
        var model = try finishedRun(width: width, height: height)
        if model.layout.mode == .compact { model.press(.tab, .tab) }
        let record = try #require(model.currentPage.record)
        let geometry = try #require(model.timelineGeometry())
        #expect(geometry.legendRows == 1)
        #expect(geometry.visibleLanes >= record.threads.count, "the legend leaves room for both lanes")
        let screen = TourRenderer.render(model)
        let timeline = try #require(model.layout.panes[.timeline]).inside
        let legend = Rect(x: timeline.x, y: geometry.legendRow, width: timeline.width, height: 1)
        for queue in record.queues {
            let entry = try #require(screen.find(queue, in: legend), "\(queue) in the legend")
            let color = PaletteColor.queue(try #require(record.queueNumber(of: queue)))
            #expect(screen[entry.x, entry.y].style.foreground == color)
            let swatch = screen[entry.x - 2, entry.y]
            #expect(swatch.style == CellStyle(foreground: color, bold: true, reverse: true), "a swatch before \(queue)")
            #expect(swatch.character == QueueLabel.key(try #require(record.queueNumber(of: queue))))
        }
    }

    @Test("A legend with more queues than fit says how many it left out; labels lose com.apple. before being cut")
    func legendOverflow() throws {
        var script = RunScript()
        let queues = ["com.apple.root.default-qos", "tour.groups.box", "tour.groups.background", "lessonkit.live-view", RunScript.mainQueue]
        for (index, queue) in queues.enumerated() {
            script.span(index + 1, "s\(index)", from: Double(index * 10), to: Double(index * 10 + 5), thread: RunScript.worker, queue: queue)
        }
        var model = try FixturePages.model(width: 80, height: 24)
        model.run(script)
        let record = try #require(model.currentPage.record)
        let rows = TimelineLegend.rows(record, width: 60, maxRows: 1, glyphs: .unicode)
        #expect(rows.count == 1)
        let texts = try #require(rows.first).map(\.text)
        #expect(texts.last == "+\(queues.count - texts.count + 1) more")
        // Short of room, labels drop the com.apple. of the main and global queues, so more of them fit.
        #expect(Array(texts.dropLast()) == ["root.default-qos", "tour.groups.box"])
        let everything = TimelineLegend.rows(record, width: 60, maxRows: 5, glyphs: .unicode)
        #expect(everything.flatMap { $0 }.map(\.text) == queues)
        #expect(everything.allSatisfy { row in row.map(\.width).reduce(0, +) + 2 * (row.count - 1) <= 60 })
        #expect(Formatting.queueLabel(RunScript.mainQueue, width: 12, glyphs: .unicode) == "main-thread")
        #expect(Formatting.queueLabel("", width: 12, glyphs: .unicode) == "no queue")
    }

    @Test("A printed line shows its lane and its queue's swatch, with the queue's label where the pane is wide")
    func outputLinesNameTheirQueue() throws {
        let model = try finishedRun(width: 120, height: 40)
        let record = try #require(model.currentPage.record)
        let workers = try #require(record.queueNumber(of: RunScript.workerQueue))
        let screen = TourRenderer.render(model)
        let output = try #require(model.layout.panes[.output])
        let line = try #require(screen.find("T1   \(QueueLabel.key(workers)) done on a worker", in: output))
        #expect(screen[line.x + 5, line.y].style == CellStyle(foreground: .queue(workers), bold: true, reverse: true))

        // At 80×24 the output tab is wide enough for the labels.
        let compact = try finishedRun(width: 80, height: 24)
        let wide = TourRenderer.render(compact)
        let compactOutput = try #require(compact.layout.panes[.output])
        let labelled = try #require(wide.find("T1   \(QueueLabel.key(workers)) \(RunScript.workerQueue) done on a worker", in: compactOutput))
        #expect(wide[labelled.x + 7, labelled.y].style.foreground == .queue(workers))
        // Labels are cut to the column, the main and global queues' shared com.apple. first.
        #expect(wide.find("main A main-thread         starting", in: compactOutput) != nil)
    }
}
