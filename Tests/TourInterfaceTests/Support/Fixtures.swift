import Foundation
import TourCore
@testable import TourInterface

/// Pages written for the tests, so snapshots do not change whenever a real page is edited.
enum FixturePages {
    static let queueSource = """
        /*:
         # Queue

         An `OperationQueue` runs operations *for you*, on threads it **manages**.

         - A queue has a width.
         - Operations wait their turn.

         - note: Queues are cheap.
         */
        import LessonKit

        let width = knob("width", default: 2, in: 1...4, "how many run at once")
        let serial = knob("serial", default: false)
        duration {
            work(42) // the slow part
        }
        peek(width)
        //: - experiment: Set `width` to 1 and run again.
        let label = "queue"
        /*:
         Next: [Dispatch](@next)
         */
        """

    static let dispatchSource = """
        //: # Dispatch
        //: Queues without objects.
        print("hello")
        """

    /// A page that draws a list in the live view.
    static let gallerySource = """
        //: # Gallery
        //: Pictures arrive while the list scrolls.
        import LessonKit

        LiveView.rows([LiveRow(caption: "loading")])
        """

    /// A page with two deep dives, each followed by a code line with a result (lines 15 and 26).
    static let internalsSource = """
        /*:
         # Internals

         The loop sleeps until something wakes it.

         - deep dive: What wakes a sleeping loop. The loop waits in one system call
           and returns when a source it watches is signalled.

           Two kinds of source:
           - a message on a port
           - a timer that fires
         */
        import LessonKit

        let waits = peek(2)
        /*:
         A paragraph between the deep dives, long enough to need a second row in the narrow layout.

         - note: The result of each line sits beside it, folded or not.

         Another paragraph, so the page is taller than its pane at 80 by 24.

         - Deep dive: Counting threads. The page reads how many threads its process has.
           It reads the count at run time and never assumes it.
         */
        let threads = peek(3)
        //: Back to [Dispatch](@previous)
        """

    /// A catalog of fixture pages in a fresh temporary folder: queue and dispatch, then the gallery and the
    /// internals page when asked, numbered in that order.
    static func catalog(withGallery: Bool = false, withDeepDives: Bool = false) throws -> PageCatalog {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tour-interface-\(UUID().uuidString)")
        let named = [("Queue", queueSource), ("Dispatch", dispatchSource)] + (withGallery ? [("Gallery", gallerySource)] : [])
            + (withDeepDives ? [("Internals", internalsSource)] : [])
        let pages = named.enumerated().map { index, page in ("0\(index + 1)-\(page.0)", page.1) }
        for (folder, source) in pages {
            let directory = root.appendingPathComponent("Lessons").appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try source.write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        }
        return try PageCatalog.load(root: root)
    }

    static func model(width: Int = 120, height: Int = 40, glyphs: Glyphs = .unicode, withGallery: Bool = false,
                      withDeepDives: Bool = false) throws -> TourModel {
        var model = TourModel.load(try catalog(withGallery: withGallery, withDeepDives: withDeepDives), speed: 1,
                                   size: Size(width: width, height: height), glyphs: glyphs, pictureDepth: .colors256)
        model.readEverySource()
        return model
    }
}

/// Builds the host events of a made-up run, with times in milliseconds from its start.
struct RunScript {
    static let start: UInt64 = 1_000_000_000_000
    static let mainThread: Int32 = 100
    static let worker: Int32 = 201
    static let mainQueue = "com.apple.main-thread"
    static let workerQueue = "com.example.workers"

    var events: [HostEvent] = [.started(pid: mainThread, time: start)]

    static func time(_ milliseconds: Double) -> UInt64 {
        start + UInt64(milliseconds * 1_000_000)
    }

    private mutating func trace(_ kind: String, at milliseconds: Double, thread: Int32, queue: String = "", _ fields: [String: TraceValue]) {
        events.append(.trace(TraceEvent(kind: kind, time: Self.time(milliseconds), thread: thread, queue: queue, fields: fields)))
    }

    mutating func span(_ id: Int, _ name: String, from: Double, to: Double?, thread: Int32, queue: String = "") {
        trace("begin", at: from, thread: thread, queue: queue, ["id": .integer(id), "name": .string(name)])
        if let to { trace("end", at: to, thread: thread, queue: queue, ["id": .integer(id), "name": .string(name)]) }
    }

    mutating func mark(_ name: String, at milliseconds: Double, thread: Int32, queue: String = "") {
        trace("mark", at: milliseconds, thread: thread, queue: queue, ["name": .string(name)])
    }

    mutating func result(line: Int, _ text: String, at milliseconds: Double, kind: String = "peek") {
        trace("result", at: milliseconds, thread: Self.mainThread,
              ["file": .string("main.swift"), "line": .integer(line), "kind": .string(kind), "text": .string(text)])
    }

    mutating func knob(_ name: String, value: String, defaultValue: String, min: Int, max: Int, help: String) {
        trace("knob", at: 0, thread: Self.mainThread, ["name": .string(name), "type": .string("int"), "value": .string(value),
                                                        "default": .string(defaultValue), "min": .integer(min), "max": .integer(max),
                                                        "help": .string(help)])
    }

    /// A line printed through LessonKit, which names the thread and the queue it ran on.
    mutating func print(_ text: String, at milliseconds: Double, thread: Int32 = mainThread, queue: String = mainQueue) {
        events.append(.output(OutputLine(stream: .stdout, text: text, time: Self.time(milliseconds), thread: thread, queue: queue)))
    }

    mutating func stderr(_ text: String, at milliseconds: Double) {
        events.append(.output(OutputLine(stream: .stderr, text: text, time: Self.time(milliseconds))))
    }

    /// A list of rows in the live view, each a `width`×`height` picture of one colour, or a placeholder where nil.
    mutating func rows(_ rows: [(caption: String, color: [UInt8]?)], width: Int = 4, height: Int = 2, at milliseconds: Double) {
        trace("rows", at: milliseconds, thread: Self.worker, ["count": .integer(rows.count)])
        for (index, row) in rows.enumerated() {
            var fields: [String: TraceValue] = ["index": .integer(index), "caption": .string(row.caption)]
            if let color = row.color {
                let pixels = Array((0..<(width * height)).map { _ in color }.joined())
                fields["w"] = .integer(width)
                fields["h"] = .integer(height)
                fields["px"] = .string(Data(pixels).base64EncodedString())
            }
            trace("row", at: milliseconds, thread: Self.worker, fields)
        }
    }

    /// Part `part` of row `row`'s full-size pictures, `parts` in all: a `row` event announcing them, then the `detail`.
    mutating func detail(row: Int, part: Int, of parts: Int, caption: String, color: [UInt8], width: Int = 4, height: Int = 3,
                         at milliseconds: Double) {
        trace("row", at: milliseconds, thread: Self.worker, ["index": .integer(row), "caption": .string("\(row) at full size"),
                                                              "parts": .integer(parts)])
        let pixels = Array((0..<(width * height)).map { _ in color }.joined())
        trace("detail", at: milliseconds, thread: Self.worker, ["index": .integer(row), "part": .integer(part), "caption": .string(caption),
                                                                 "w": .integer(width), "h": .integer(height),
                                                                 "px": .string(Data(pixels).base64EncodedString())])
    }

    /// The page says it reads scroll commands.
    mutating func acceptScrollCommands(at milliseconds: Double) {
        trace("input", at: milliseconds, thread: Self.mainThread, ["commands": .string("scroll")])
    }

    mutating func end(_ ending: RunEnding, at milliseconds: Double) {
        events.append(.ended(ending, time: Self.time(milliseconds)))
    }

    /// A finished run of the queue page: two lanes, the worker's serving two queues, a mark, results on lines
    /// 15 and 18, output on both streams.
    static var finishedQueueRun: RunScript {
        var script = RunScript()
        script.knob("width", value: "2", defaultValue: "2", min: 1, max: 4, help: "how many run at once")
        script.print("starting", at: 1)
        script.span(1, "work", from: 2, to: 400, thread: mainThread, queue: mainQueue)
        script.span(2, "helper", from: 100, to: 300, thread: worker, queue: workerQueue)
        script.mark("halfway", at: 200, thread: worker, queue: workerQueue)
        // The worker then serves the main queue, as a pool thread does once the main thread calls dispatchMain().
        script.span(3, "notify", from: 320, to: 380, thread: worker, queue: mainQueue)
        script.result(line: 15, "398.0 ms", at: 400, kind: "duration")
        for (time, value) in [(410.0, "1"), (420, "2")] { script.result(line: 18, value, at: time) }
        script.print("done on a worker", at: 450, thread: worker, queue: workerQueue)
        script.stderr("warning: slow", at: 460)
        script.end(.exited(code: 0), at: 500)
        return script
    }
}

extension TourModel {
    /// Reads every page's files and folds them in as the terminal layer's `.readSource` would, so a test can move
    /// between pages without carrying out effects.
    mutating func readEverySource() {
        for page in pages.map(\.page) { _ = update(.editLoop(.sourceRead(page: page, page.readSourceTexts()))) }
    }

    /// Starts a run of the current page and feeds it `script`, as the terminal layer would; returns the run's id.
    @discardableResult
    mutating func run(_ script: RunScript) -> Int? {
        let effects = update(.key(.character("r")))
        guard case .start(let order)? = effects.last else { return nil }
        for event in script.events { _ = update(.host(runID: order.runID, event)) }
        return order.runID
    }

    /// Sends keys one after another, ignoring effects.
    mutating func press(_ keys: Key...) {
        for key in keys { _ = update(.key(key)) }
    }
}

extension CellBuffer {
    /// The rows of `rect` as text, trailing spaces removed: a pane's snapshot.
    func lines(in rect: Rect) -> [String] {
        (rect.y..<rect.maxY).map { y in
            var line = ""
            for x in rect.x..<rect.maxX where !self[x, y].isContinuation { line.append(self[x, y].character) }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Where `text` first appears, as (x, y), optionally only inside `rect`.
    func find(_ text: String, in rect: Rect? = nil) -> (x: Int, y: Int)? {
        let area = rect ?? Rect(x: 0, y: 0, width: size.width, height: size.height)
        let pattern = Array(text)
        for (offset, line) in lines(in: area).enumerated() {
            let row = Array(line)
            guard row.count >= pattern.count else { continue }
            for x in 0...(row.count - pattern.count) where Array(row[x..<(x + pattern.count)]) == pattern {
                return (area.x + x, area.y + offset)
            }
        }
        return nil
    }
}
