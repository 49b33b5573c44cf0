import Foundation
import TourCore
import PageProtocol
import TourTestSupport
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
        let root = ScratchSpace.folder.appendingPathComponent("tour-interface-\(UUID().uuidString)")
        let named = [("Queue", queueSource), ("Dispatch", dispatchSource)] + (withGallery ? [("Gallery", gallerySource)] : [])
            + (withDeepDives ? [("Internals", internalsSource)] : [])
        let pages = named.enumerated().map { index, page in ("0\(index + 1)-\(page.0)", page.1) }
        for (folder, source) in pages {
            let directory = root.appendingPathComponent("Lessons").appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Unsynced: a test waited for the disk at each synced write, on one of Swift Testing's two threads.
            try ScratchSpace.write(source.utf8, to: directory.appendingPathComponent("main.swift"))
        }
        return try PageCatalog.load(root: root)
    }

    static func model(width: Int = 120, height: Int = 40, glyphs: Glyphs = .unicode, withGallery: Bool = false,
                      withDeepDives: Bool = false) throws -> TourModel {
        // No exercises: the real catalog's would attach to fixture pages that share a real page's slug.
        var model = TourModel.load(try catalog(withGallery: withGallery, withDeepDives: withDeepDives), speed: 1,
                                   size: Size(width: width, height: height), glyphs: glyphs, pictureDepth: .colors256,
                                   exercises: [])
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

    private mutating func trace(_ kind: EventKind, at milliseconds: Double, thread: Int32, queue: String = "") {
        events.append(.trace(PageEvent(time: Self.time(milliseconds), thread: thread, queue: queue, kind: kind)))
    }

    /// A `width`×`height` picture of one colour, as a page sends it.
    static func picture(_ color: [UInt8], width: Int, height: Int) -> PagePicture {
        let pixels = Array((0..<(width * height)).map { _ in color }.joined())
        return PagePicture(width: width, height: height, base64: Data(pixels).base64EncodedString())
    }

    mutating func span(_ id: Int, _ name: String, from: Double, to: Double?, thread: Int32, queue: String = "") {
        trace(.begin(id: id, name: name), at: from, thread: thread, queue: queue)
        if let to { trace(.end(id: id, name: name), at: to, thread: thread, queue: queue) }
    }

    /// The `end` of span `id`, begun earlier with `span(_:_:from:to: nil, thread:queue:)`: for spans nested in others.
    mutating func endSpan(_ id: Int, _ name: String, at milliseconds: Double, thread: Int32, queue: String = "") {
        trace(.end(id: id, name: name), at: milliseconds, thread: thread, queue: queue)
    }

    mutating func mark(_ name: String, at milliseconds: Double, thread: Int32, queue: String = "") {
        trace(.mark(name: name), at: milliseconds, thread: thread, queue: queue)
    }

    /// Operation `oid` called `name` reaching `state`, as an `op` event reports it.
    mutating func operation(_ name: String, _ oid: Int, _ state: OperationState, at milliseconds: Double, thread: Int32 = worker,
                            queue: String = workerQueue) {
        trace(.op(operation: name, oid: oid, state: state), at: milliseconds, thread: thread, queue: queue)
    }

    /// Operation `oid` called `name` waits for `dependencyID` called `dependency`.
    mutating func dependency(_ name: String, _ oid: Int, on dependency: String, _ dependencyID: Int, at milliseconds: Double) {
        trace(.dep(operation: name, oid: oid, dependency: dependency, onid: dependencyID), at: milliseconds, thread: Self.mainThread,
              queue: Self.mainQueue)
    }

    /// Thread-state samples every 10 ms from `from` to `to`, as the host's sampler sends them.
    mutating func samples(from: Double, to: Double, _ readings: (Double) -> [ThreadStateReading]) {
        for time in stride(from: from, through: to, by: 10) {
            events.append(.threadStates(readings(time), time: Self.time(time)))
        }
    }

    mutating func result(line: Int, _ text: String, at milliseconds: Double, kind: ResultKind = .peek) {
        trace(.result(file: "main.swift", line: line, kind: kind, text: text, seconds: nil), at: milliseconds, thread: Self.mainThread)
    }

    mutating func knob(_ name: String, value: String, defaultValue: String, min: Int, max: Int, help: String) {
        trace(.knob(KnobAnnouncement(name: name, type: .int, value: value, defaultValue: defaultValue, minimum: min, maximum: max,
                                     help: help)), at: 0, thread: Self.mainThread)
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
        trace(.rows(count: rows.count), at: milliseconds, thread: Self.worker)
        for (index, row) in rows.enumerated() {
            let picture = row.color.map { Self.picture($0, width: width, height: height) }
            trace(.row(index: index, caption: row.caption, picture: picture, parts: nil), at: milliseconds, thread: Self.worker)
        }
    }

    /// Part `part` of row `row`'s full-size pictures, `parts` in all: a `row` event announcing them, then the `detail`.
    mutating func detail(row: Int, part: Int, of parts: Int, caption: String, color: [UInt8], width: Int = 4, height: Int = 3,
                         at milliseconds: Double) {
        trace(.row(index: row, caption: "\(row) at full size", picture: nil, parts: parts), at: milliseconds, thread: Self.worker)
        trace(.detail(index: row, part: part, caption: caption, picture: Self.picture(color, width: width, height: height)),
              at: milliseconds, thread: Self.worker)
    }

    /// The page says it reads scroll commands.
    mutating func acceptScrollCommands(at milliseconds: Double) {
        trace(.input(commands: .scroll), at: milliseconds, thread: Self.mainThread)
    }

    mutating func end(_ ending: RunEnding, at milliseconds: Double) {
        events.append(.ended(ending, time: Self.time(milliseconds)))
    }

    /// A finished run with page 4's first chain (load → tilt-shift → show coffee) and a cancelled download whose
    /// filter checks and cancels itself, on the queue "images"; the main thread waits in a span meanwhile.
    static var finishedDependenciesRun: RunScript {
        var script = RunScript()
        let second = worker + 1
        script.span(1, "waitUntilAllOperationsAreFinished", from: 1, to: 600, thread: mainThread, queue: mainQueue)
        script.dependency("tilt-shift coffee", 2, on: "load coffee", 1, at: 1)
        script.dependency("show coffee", 3, on: "tilt-shift coffee", 2, at: 1)
        script.dependency("tilt-shift retina", 5, on: "load retina", 4, at: 2)
        script.operation("load retina", 4, .cancelled, at: 2, thread: mainThread, queue: mainQueue)
        script.operation("load coffee", 1, .executing, at: 5, queue: "images")
        script.operation("load retina", 4, .finished, at: 6, thread: second, queue: "images")
        script.operation("tilt-shift retina", 5, .ready, at: 7, thread: second, queue: "images")
        script.operation("tilt-shift retina", 5, .executing, at: 180, thread: second, queue: "images")
        script.operation("tilt-shift retina", 5, .cancelled, at: 181, thread: second, queue: "images")
        script.operation("tilt-shift retina", 5, .finished, at: 182, thread: second, queue: "images")
        script.operation("load coffee", 1, .finished, at: 305, queue: "images")
        script.operation("tilt-shift coffee", 2, .ready, at: 306, queue: "images")
        script.operation("tilt-shift coffee", 2, .executing, at: 307, thread: second, queue: "images")
        script.span(2, "filtering for tilt-shift coffee", from: 308, to: 450, thread: second, queue: "images")
        script.operation("tilt-shift coffee", 2, .finished, at: 451, thread: second, queue: "images")
        script.operation("show coffee", 3, .ready, at: 452, thread: second, queue: "images")
        script.operation("show coffee", 3, .executing, at: 453, thread: second, queue: "images")
        script.operation("show coffee", 3, .finished, at: 470, thread: second, queue: "images")
        script.end(.exited(code: 0), at: 620)
        return script
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
        script.result(line: 15, "398.0 ms", at: 400, kind: .duration)
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
        for page in pages.map(\.page) { _ = update(.editLoop(.sourceRead(page: page, page.readParsedSource()))) }
    }

    /// Starts a run of the current page and feeds it `script`, as the terminal layer would; returns the run's id.
    @discardableResult
    mutating func run(_ script: RunScript) -> Int? {
        guard let order = update(.key(.character("r"))).last?.runOrder else { return nil }
        for event in script.events { _ = update(.host(runID: order.runID, event)) }
        return order.runID
    }

    /// Sends keys one after another, ignoring effects.
    mutating func press(_ keys: Key...) {
        for key in keys { _ = update(.key(key)) }
    }
}

extension TourEffect {
    /// The order of a `.start` effect, nil for any other effect: `try #require(effects.last?.runOrder)`.
    var runOrder: RunOrder? {
        if case .start(let order) = self { order } else { nil }
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
