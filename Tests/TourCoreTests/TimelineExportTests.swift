import Foundation
import FoundationXML
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourCommandLine
import TourTestSupport
import PageProtocol

/// The pictures a run is shared as: `--svg` (`TimelineSVG`) and the Chrome trace's thread states and operation
/// lifetimes (`ChromeTrace`), read back as a browser or Perfetto would, from a fixture run with known threads.
@Suite("Timeline exports", .bodiesBelowTheRunner)
final class TimelineExportTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tour-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    private static let worker: Int32 = 102
    private static let idle: Int32 = 103

    /// Three threads: main waits for two operations on a worker, the second of which depends on the first; a
    /// third thread only marks; the sampler saw main waiting and the worker running, then waiting.
    private func fixture(open: Bool = false) throws -> RunRecord {
        typealias F = TraceFixture
        var lines = [
            F.line("begin", at: 0, #""id":1,"name":"wait for <both> & \"more\"""#),
            F.state("download", 1, "ready", at: 1),
            F.state("download", 1, "executing", at: 2, thread: Self.worker, queue: "downloads"),
            F.line("begin", at: 2, thread: Self.worker, queue: "downloads", #""id":2,"name":"download""#),
            F.line("end", at: 40, thread: Self.worker, queue: "downloads", #""id":2,"name":"download","cpu":1000000"#),
            F.state("download", 1, "finished", at: 40, thread: Self.worker, queue: "downloads"),
            F.line("dep", at: 1, #""op":"filter","oid":2,"on":"download","onid":1"#),
            F.state("filter", 2, "ready", at: 40, thread: Self.worker, queue: "downloads"),
            F.state("filter", 2, "executing", at: 41, thread: Self.worker, queue: "filters"),
            F.line("begin", at: 41, thread: Self.worker, queue: "filters", #""id":3,"name":"filter \u001b[31mred""#),
            F.line("end", at: 90, thread: Self.worker, queue: "filters", #""id":3,"name":"filter","cpu":45000000"#),
            F.state("filter", 2, "finished", at: 90, thread: Self.worker, queue: "filters"),
            F.mark("idle mark", at: 50, thread: Self.idle, queue: ""),
            F.state("never", 3, "ready", at: 60),
        ]
        if !open { lines.append(F.line("end", at: 95, #""id":1,"name":"wait""#)) }
        // The trace lines in the order of their stamps, as the host receives them, with the sampler's rounds
        // every 10 ms beside them.
        var record = RunRecord()
        record.apply(.started(pid: F.pid, time: F.start))
        let events = try lines.map { try TraceLineParser.parse(Array($0.utf8)).get() }
            .enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        for event in events { record.apply(.trace(event)) }
        for tick in 0...9 {
            record.apply(.threadStates([ThreadStateReading(thread: F.pid, state: .waiting),
                                        ThreadStateReading(thread: Self.worker, state: tick < 9 ? .running : .waiting)],
                                       time: F.start + UInt64(tick) * 10_000_000))
        }
        record.apply(.ended(.exited(code: 0), time: F.start + 100_000_000))
        return record
    }

    // MARK: SVG

    /// Counts the SVG's elements by name and class as an XML parser reads them.
    private final class Elements: NSObject, XMLParserDelegate {
        var lanes: [String] = []
        var spans = 0, states = 0, marks = 0
        /// Each span bar's top, in the order drawn.
        var spanTops: [Double] = []
        var texts: [String] = []
        private var inText = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            switch (name, attributes["class"]) {
            case ("g", "lane"): lanes.append(attributes["data-thread"] ?? "?")
            case ("rect", "span"):
                spans += 1
                spanTops.append(Double(attributes["y"] ?? "") ?? .nan)
            case ("rect", "state"): states += 1
            case ("path", "mark"): marks += 1
            case ("text", _): inText = true; texts.append("")
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText { texts[texts.count - 1] += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" { inText = false }
        }
    }

    @Test func thePictureIsWellFormedXMLWithOneLanePerThreadSeen() async throws {
        let record = try fixture()
        let svg = TimelineSVG.document(for: record, title: "4 Dependencies <fixture>")
        let parser = XMLParser(data: Data(svg.utf8))
        let elements = Elements()
        parser.delegate = elements
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(elements.lanes == record.threads.map { String($0.thread) })
        #expect(elements.lanes.count == 3)
        #expect(elements.spans == 3)
        #expect(elements.marks == 1)
        // Main's one stretch and the worker's two.
        #expect(elements.states == 3)
        #expect(elements.texts.contains("4 Dependencies <fixture>"))
        #expect(elements.texts.contains("main #100"))
        #expect(elements.texts.contains { $0.hasPrefix("0 ms") || $0 == "0 ms" })
        #expect(elements.texts.contains("B downloads") && elements.texts.contains("C filters"), "the queue legend, each with its letter")
        #expect(!svg.unicodeScalars.contains { $0.value == 0x1B }, "no control character reaches the XML")
    }

    /// A picture for a slide, or a PNG made from it, shows everything in words: no hover is needed to tell two queues
    /// of one colour apart, to read a mark, or to see what a thread that only printed did.
    @Test func everyQueueHasALetterAndMarksAndPrintedLinesAreLabelled() async throws {
        typealias F = TraceFixture
        var lines: [String] = []
        for index in 0..<14 {
            lines.append(F.line("begin", at: index * 5, thread: Self.worker, queue: "queue \(index)", #""id":\#(index + 1),"name":"job \#(index)""#))
            lines.append(F.line("end", at: index * 5 + 4, thread: Self.worker, queue: "queue \(index)", #""id":\#(index + 1),"name":"job \#(index)""#))
        }
        lines.append(F.mark("the barrier starts", at: 30, thread: Self.worker, queue: "queue 6"))
        var record = RunRecord()
        record.apply(.started(pid: F.pid, time: F.start))
        for line in lines { record.apply(.trace(try TraceLineParser.parse(Array(line.utf8)).get())) }
        // A line the page printed, as the runner hands it on: stamped with its thread and queue.
        record.apply(.output(OutputLine(stream: .stdout, text: "only printed this", time: F.start + 40_000_000, thread: Self.idle, queue: "printer")))
        record.apply(.ended(.exited(code: 0), time: F.start + 80_000_000))
        let svg = TimelineSVG.document(for: record, title: "many queues")
        let parser = XMLParser(data: Data(svg.utf8))
        let elements = Elements()
        parser.delegate = elements
        #expect(parser.parse())
        let legend = elements.texts.filter { $0.contains("queue ") }
        let letters = legend.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(legend.count >= 14)
        #expect(Set(letters).count == letters.count, "each queue its own letter: \(legend)")
        #expect(elements.texts.contains("the barrier starts"), "the mark's name is drawn, not only hovered")
        #expect(elements.texts.contains("only printed this"), "a printed line is drawn on its thread's lane")
        #expect(elements.lanes.contains(String(Self.idle)))
    }

    @Test func aSpanNestedInAnotherIsDrawnUnderItAndTheLanesBelowMoveDown() async throws {
        typealias F = TraceFixture
        let lines = [
            F.line("begin", at: 0, #""id":1,"name":"outer""#),
            F.line("begin", at: 0, thread: Self.worker, queue: "downloads", #""id":3,"name":"download""#),
            F.line("begin", at: 10, #""id":2,"name":"inner""#),
            F.line("end", at: 50, #""id":2,"name":"inner""#),
            F.line("end", at: 90, #""id":1,"name":"outer""#),
            F.line("end", at: 90, thread: Self.worker, queue: "downloads", #""id":3,"name":"download""#),
        ]
        var record = RunRecord()
        record.apply(.started(pid: F.pid, time: F.start))
        for line in lines { record.apply(.trace(try TraceLineParser.parse(Array(line.utf8)).get())) }
        record.apply(.ended(.exited(code: 0), time: F.start + 100_000_000))
        #expect(record.threads.map(\.deepestNesting) == [1, 0])
        let parser = XMLParser(data: Data(TimelineSVG.document(for: record, title: "nested").utf8))
        let elements = Elements()
        parser.delegate = elements
        #expect(parser.parse())
        // Drawn as they ended: inner, outer (main's lane), then the worker's download.
        let tops = elements.spanTops
        try #require(tops.count == 3)
        #expect(tops[0] >= tops[1] + TimelineSVG.barHeight, "the inner bar lies under the outer one, not over it: \(tops)")
        #expect(tops[2] >= tops[0] + TimelineSVG.barHeight, "the worker's lane starts below main's two rows: \(tops)")
    }

    @Test func anOpenSpanIsDrawnToTheEndOfTheRun() async throws {
        let svg = TimelineSVG.document(for: try fixture(open: true), title: "open")
        let parser = XMLParser(data: Data(svg.utf8))
        let elements = Elements()
        parser.delegate = elements
        #expect(parser.parse())
        #expect(elements.spans == 3)
    }

    @Test func svgTargetsAreCheckedAsTraceTargetsAre() async throws {
        let file = folder.appendingPathComponent("timeline.svg").path
        #expect(TimelineSVG.problem(withTarget: file) == nil)
        let problem = try #require(TimelineSVG.problem(withTarget: folder.path))
        #expect(problem == "--svg \(folder.path) is a folder; name a file in it, for example --svg \(folder.path)/timeline.svg")
        #expect(TimelineSVG.problem(withTarget: "/dev/null")?.hasPrefix("--svg /dev/null is a device, not a regular file") == true)
        try TimelineSVG.write(try fixture(), title: "written", to: file)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("<?xml"))
    }

    // MARK: Chrome trace

    private func traceEvents(_ record: RunRecord) throws -> [[String: Any]] {
        let data = try JSONSerialization.data(withJSONObject: ChromeTrace.document(for: record, title: "fixture"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(document["traceEvents"] as? [[String: Any]])
    }

    @Test func threadStatesAreSlicesOnATrackBesideEachThreadThatNeverOverlap() async throws {
        let events = try traceEvents(try fixture())
        let states = events.filter { $0["cat"] as? String == "thread state" }
        #expect(states.allSatisfy { $0["ph"] as? String == "X" })
        let byTrack = Dictionary(grouping: states) { $0["tid"] as! Int }
        #expect(Set(byTrack.keys) == [ChromeTrace.stateTrack(of: TraceFixture.pid), ChromeTrace.stateTrack(of: Self.worker)])
        for (_, slices) in byTrack {
            let ordered = slices.map { ($0["ts"] as! Double, $0["dur"] as! Double) }.sorted { $0.0 < $1.0 }
            for (earlier, later) in zip(ordered, ordered.dropFirst()) {
                #expect(earlier.0 + earlier.1 <= later.0 + 1e-6, "slices on one track follow each other")
            }
        }
        let worker = try #require(byTrack[ChromeTrace.stateTrack(of: Self.worker)]).map { $0["name"] as! String }
        #expect(worker == ["running", "waiting"])
        let names = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(names.contains("main state") && names.contains("T1 state"))
    }

    @Test func operationLifetimesAreAsyncSlicesThatNestByID() async throws {
        let events = try traceEvents(try fixture()).filter { $0["cat"] as? String == "operation" && ["b", "e"].contains($0["ph"] as? String) }
        // Perfetto pairs `b` and `e` by category and id, and nests them as a stack: read them back the same way.
        var stacks: [Int: [String]] = [:]
        var outer: [Int: String] = [:]
        var seen: [Int: [String]] = [:]
        let ordered = events.enumerated().sorted { ($0.element["ts"] as! Double, $0.offset) < ($1.element["ts"] as! Double, $1.offset) }
        for (_, event) in ordered {
            let id = event["id"] as! Int, name = event["name"] as! String
            if event["ph"] as? String == "b" {
                if stacks[id, default: []].isEmpty { outer[id] = name }
                stacks[id, default: []].append(name)
                seen[id, default: []].append(name)
            } else {
                #expect(stacks[id]?.last == name, "operation \(id): '\(name)' ends inside '\(stacks[id]?.last ?? "nothing")'")
                stacks[id]?.removeLast()
            }
        }
        #expect(stacks.values.allSatisfy { $0.isEmpty }, "every slice that began ended")
        #expect(outer == [1: "download", 2: "filter", 3: "never"])
        #expect(seen[1] == ["download", "ready", "executing"])
        #expect(seen[2] == ["filter", "ready", "executing"])
        // Never finished: its one state lasts to the end of the run, and says so.
        #expect(seen[3] == ["never", "ready"])
        let never = try #require(events.first { $0["id"] as? Int == 3 && $0["ph"] as? String == "b" })
        #expect((never["args"] as? [String: Any])?["finished"] as? Bool == false)
    }
}
