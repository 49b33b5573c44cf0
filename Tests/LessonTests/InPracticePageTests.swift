import Foundation
import Synchronization
import Testing
import TourCore
import TourTestSupport
import PageProtocol

/// Page 5 proves its rules from its own trace: the marks every row change makes, the queue's suspend and resume
/// marks, the operations' reported states and the spans of the work itself.
@Suite("Page 5: In Practice", .bodiesBelowTheRunner)
struct InPracticePageTests {
    static let product = "Lesson05InPractice"
    /// The default run: the `downAndBack` script, three operations at once, suspension and cache on.
    static let run = Task { await sharedRun(product: product, speed: 10) }

    @Test func endsByItselfWithEveryRowInViewFiltered() async throws {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
        let picture = try Self.listPicture(in: run)
        let inView = picture.filter { $0.hasPrefix(">") }
        #expect(inView.count == 4)
        for line in inView {
            #expect(line.hasSuffix("filtered") || line.hasSuffix("filtered (from cache)"), "a row in view is not filtered: \(line)")
        }
    }

    @Test func theLiveViewShowsPlaceholdersThenPhotosThenTheFilteredRowsInView() async throws {
        let recorder = RunRecorder()
        let events = Mutex<[PageEvent]>([])
        await PageRunSlots.shared.withSlot {
            let run = PageRun.start(RunRequest(executable: BuildProducts.executable(named: Self.product), speed: 10)) { event in
                recorder.apply(event)
                switch event {
                case .trace(let trace):
                    switch trace.kind {
                    case .rows, .row: events.withLock { $0.append(trace) }
                    default: break
                    }
                default: break
                }
            }
            await run.ended()
        }
        let record = recorder.record
        #expect(record.ending == .exited(code: 0))
        #expect(record.rejectedTraceLines == 0)
        let rows = events.withLock { $0 }.compactMap { event -> (caption: String, picture: PagePicture?)? in
            if case .row(_, let caption, let picture, _) = event.kind { (caption, picture) } else { nil }
        }
        // Each state is drawn: a row without a picture while it waits, then with its photo, then filtered.
        #expect(rows.contains { $0.caption.hasSuffix("placeholder") && $0.picture == nil })
        #expect(rows.contains { $0.caption.hasSuffix("loaded") && $0.picture != nil })
        #expect(rows.contains { $0.caption.hasSuffix("filtered") && $0.picture != nil })
        var state = LiveViewState()
        events.withLock { $0 }.forEach { state.apply($0) }
        #expect(state.rejectedPictures == 0)
        // At rest, the four rows in view each show a 64×48 thumbnail of their tilt-shifted photo.
        #expect(state.rows.count == 4)
        for row in state.rows {
            #expect(row.caption.hasSuffix("filtered"), "\(row.caption)")
            #expect(row.picture?.width == 64 && row.picture?.height == 48, "\(row.caption) has no thumbnail")
        }
    }

    @Test func eachRowInViewOffersItsPhotoBeforeAndAfterTheFilterAtFullSize() async throws {
        let run = await Self.run.value
        // The live view's f key draws these: larger than the thumbnails, within the largest picture sent, the photos' shape.
        let live = run.liveView
        #expect(live.rejectedPictures == 0)
        try #require(live.rows.count == 4)
        for row in live.rows {
            #expect(row.fullSize.map(\.caption) == ["before", "after tilt-shift"], "\(row.caption)")
            let before = try #require(row.fullSize.first?.picture, "\(row.caption) has no photo at full size")
            let after = try #require(row.fullSize.last?.picture, "\(row.caption) has no filtered picture at full size")
            for picture in [before, after] {
                #expect(picture.width > 64 && picture.height > 48 && picture.width <= 160 && picture.height <= 96)
                #expect(picture.width * 3 == picture.height * 4, "\(picture.width)×\(picture.height) is not the photos' 4:3")
            }
            #expect(before.pixels != after.pixels, "\(row.caption): the tilt-shift changed nothing")
        }
        #expect(run.outputText.contains { $0.hasPrefix("The photos are ") && $0.contains("f in the live view") },
                "plain mode says what the live view's f shows")
    }

    @Test func listHasSixteenRowsOrMoreOverRepeatingPhotos() async throws {
        let run = await Self.run.value
        let rows = try Self.listPicture(in: run).dropFirst()
        #expect(rows.count >= 16)
        let photos = rows.map { $0.dropFirst(2).split(separator: " ")[1] }
        #expect(Set(photos).count < photos.count, "some photos appear in more than one row")
    }

    @Test func rowsScrolledAwayNeverStartTheirFilter() async {
        let run = await Self.run.value
        Self.expectAwayRowsStartNothing(in: run)
    }

    @Test func firstScreenLeftBeforeAnyOfItsFiltersBegan() async {
        let run = await Self.run.value
        // The script drags the first screen away at once; its filters wait for downloads of 100 ms (at speed 10)
        // and the queue is suspended before any download ends, so none of them can begin.
        let events = Self.rowEvents(in: run)
        for row in 0..<4 {
            let history = events.filter { $0.row == row }
            #expect(!history.contains { $0.state == "filtering" }, "row \(row) began a filter")
            let away = history.first { $0.state == "away" }
            #expect(away?.note?.hasSuffix("cancelled") == true, "row \(row) left without cancelling anything")
        }
    }

    @Test func noPhotoIsDownloadedTwice() async {
        let run = await Self.run.value
        Self.expectEachPhotoDownloadedAtMostOnce(in: run)
        #expect(run.outputText.contains { $0.hasPrefix("Downloads:") && $0.hasSuffix("none twice.") })
    }

    @Test func nothingStartsWhileTheQueueIsSuspended() async throws {
        let run = await Self.run.value
        let suspensions = try Self.suspensions(in: run)
        #expect(suspensions.count == 3, "one suspension per gesture of the script")
        Self.expectNothingStartsWhileSuspended(in: run, suspensions: suspensions)
    }

    @Test func rowsThatCameIntoViewDuringAGestureWaitedForTheFingerToLift() async throws {
        let run = await Self.run.value
        let suspensions = try Self.suspensions(in: run)
        var waited = 0
        for operation in run.operations {
            guard let ready = operation.firstTime(of: .ready),
                  let gesture = suspensions.first(where: { $0.start < ready && ready < $0.end }) else { continue }
            if let executing = operation.firstTime(of: .executing) {
                #expect(executing > gesture.end, "\(operation.name) became ready while suspended and started before the resume")
            }
            waited += 1
        }
        #expect(waited > 0, "the rows that scroll in during the first gesture queue their downloads while it lasts")
    }

    @Test func neverMoreThanThreeOperationsWorkAtOnce() async {
        let run = await Self.run.value
        #expect(Self.mostWorkAtOnce(in: run) <= 3)
    }

    @Test func aCancelledOperationNeverStartsExecuting() async throws {
        let run = await Self.run.value
        let cancelled = run.operations.compactMap { operation in operation.firstTime(of: .cancelled).map { (operation, $0) } }
        // The script drags the first screen away at once, cancelling its rows' operations: a run without one proves nothing.
        try #require(!cancelled.isEmpty, "the run cancelled no operation")
        for (operation, time) in cancelled {
            #expect(!operation.changes.contains { $0.state == .executing && $0.time > time },
                    "\(operation.name) executed after it was cancelled")
        }
    }

    @Test func everyFilterSpanFollowsItsRowsFilteringMark() async {
        let run = await Self.run.value
        let events = Self.rowEvents(in: run)
        let filters = run.spans.filter { $0.name.hasPrefix("tilt-shift row ") }
        #expect(!filters.isEmpty)
        for span in filters {
            let row = Int(span.name.dropFirst("tilt-shift row ".count))
            let announced = events.filter { $0.row == row && $0.state == "filtering" && $0.time <= span.start }.count
            let begun = filters.filter { $0.name == span.name && $0.start <= span.start }.count
            #expect(announced >= begun, "\(span.name) began without its row announcing the filter")
        }
    }

    @Test func oneOperationAtATimeNeverOverlaps() async throws {
        let run = await sharedRun(product: Self.product, knobs: [("maxConcurrentOperationCount", "1")], speed: 10)
        #expect(run.ending == .exited(code: 0))
        #expect(Self.mostWorkAtOnce(in: run) == 1)
        #expect(try Self.mostWorkAtOnce(printedBy: run) == 1, "the page says one worked at a time")
        Self.expectNothingStartsWhileSuspended(in: run, suspensions: (try? Self.suspensions(in: run)) ?? [])
        Self.expectAwayRowsStartNothing(in: run)
        Self.expectEachPhotoDownloadedAtMostOnce(in: run)
    }

    @Test func withoutTheCacheEveryFilteredRowDownloadsItsOwnPhoto() async throws {
        let run = await recordRun(product: Self.product, knobs: [("cacheImages", "false")], speed: 10)
        #expect(run.ending == .exited(code: 0))
        let (cached, photos) = try Self.downloads(printedBy: (await Self.run.value))
        #expect(cached <= photos, "with the cache, each photo is downloaded at most once")
        #expect(try Self.downloads(printedBy: run).count > photos, "the count of downloads grows past the number of photos")
        let events = Self.rowEvents(in: run)
        #expect(!events.contains { $0.note == "from cache" || $0.note == "shares a download" })
        let filtered = events.filter { $0.state == "filtered" }.count
        let downloads = run.spans.filter { $0.name.hasPrefix("network load ") }.count
        #expect(filtered > 0)
        #expect(downloads >= filtered, "each filtered row had a download of its own")
        Self.expectAwayRowsStartNothing(in: run)
    }

    @Test func aFlickWithoutSuspensionStillStartsNoFilterForRowsThatLeft() async {
        let run = await recordRun(product: Self.product, knobs: [("script", "flick"), ("suspendWhileScrolling", "false")], speed: 10)
        #expect(run.ending == .exited(code: 0))
        #expect(!run.marks.contains { $0.name == "queue suspended" })
        #expect(run.marks.contains { $0.name == "finger down" })
        Self.expectAwayRowsStartNothing(in: run)
        Self.expectEachPhotoDownloadedAtMostOnce(in: run)
        #expect(run.outputText.contains("The list, rows 14 to 17 in view (marked >):"), "the flick ends at the bottom of the list")
    }

    @Test func commandsFromStandardInputScrollTheList() async throws {
        let (output, status) = try await PageWithInput.talk(arguments: ["--speed", "10", "--set", "script=keys"]) { page in
            page.send("scroll +3\nbogus\nstop\n")
            page.closeInput()
            return page.readToEnd()
        }
        #expect(status == 0)
        #expect(output.contains("ignored 'bogus'"))
        #expect(output.contains("The list, rows 3 to 6 in view (marked >):"))
        let inView = output.split(separator: "\n").filter { $0.hasPrefix(">") }
        #expect(inView.count == 4 && inView.allSatisfy { $0.hasSuffix("filtered") || $0.hasSuffix("(from cache)") })
    }

    @Test func theFingerLiftsByItselfWhenCommandsPause() async throws {
        let ((untilLift, rest), status) = try await PageWithInput.talk(arguments: ["--speed", "10", "--set", "script=keys"]) { page in
            page.send("scroll +2\n")
            // No stop is sent: the page lifts the finger after a quiet spell, and only then is it told to quit.
            let untilLift = page.read(until: "Finger lifted at rows 2 to 5")
            page.send("quit\n")
            page.closeInput()
            return (untilLift, page.readToEnd())
        }
        #expect(untilLift.contains("Finger lifted at rows 2 to 5"))
        #expect(status == 0)
        #expect(rest.contains("Done: quit at rows 2 to 5"))
    }

    @Test func scrollingFromTheTutorialTakesOverFromTheScript() async throws {
        let (output, status) = try await PageWithInput.talk(arguments: ["--speed", "10"], hostSendsCommands: true) { page in
            _ = page.read(until: "takes over from it")
            // The script's first drag (+4) may be under way; the learner's -1 replaces everything after it.
            page.send("scroll -1\nstop\n")
            page.closeInput()
            return page.readToEnd()
        }
        #expect(status == 0)
        let firstRow = try #require(output.firstMatch(of: /The list, rows (\d+) to/).flatMap { Int($0.1) },
                                    "no final list in:\n\(output)")
        #expect(firstRow <= 3, "the script's later drags (+10, -8) still played:\n\(output)")
        #expect(!output.contains("After a rest of 1.5 s"), "the script's second rest came after the takeover")
    }

    @Test func aRestPrintsTheTimeItLastsAtTheRunsSpeed() async throws {
        let run = await recordRun(product: Self.product, speed: 4)
        #expect(run.ending == .exited(code: 0))
        let index = try #require(run.output.firstIndex { $0.text.hasPrefix("After a rest of ") })
        let line = run.output[index]
        // Both figures, as Simulated.describe writes them: "2.5 s at 1×, 0.62 s at 4×".
        #expect(line.text.hasPrefix("After a rest of 2.5 s at 1×, ") && line.text.contains(" at 4×, rows "), "\(line.text)")
        // The rest begins after the line printed just before it: it lasts at least its 0.625 s at 4×, and less than the
        // 2.5 s it would at 1× (a loaded machine can only make it longer, by however much, so that is the only bound).
        let lasted = Double(line.time - run.output[index - 1].time) / 1e9
        #expect(lasted >= 0.6 && lasted < 2.5, "the rest lasted \(lasted) s")
    }

    // MARK: Experiments: each knob changes what its callout says

    @Test func sixOperationsAtOnceOverlapAtMostAsManyAsThePoolRuns() async throws {
        // Asked for before awaiting the suite's run, so that it does not queue behind every run asked for meanwhile.
        async let sixRun = recordRun(product: Self.product, knobs: [("maxConcurrentOperationCount", "6")], speed: 10)
        let run = await Self.run.value
        #expect(try Self.mostWorkAtOnce(printedBy: run) >= 2, "the default queue overlaps downloads")
        let six = await sixRun
        let sixAtOnce = try Self.mostWorkAtOnce(printedBy: six)
        #expect(sixAtOnce >= 2 && sixAtOnce <= 6)
        #expect(six.outputText.contains { $0.contains("the queue allows 6, and this process may use \(coresOfThisProcess()) cores") })
    }

    @Test func withoutSuspensionAFlickBeginsWorkForRowsPassingThrough() async throws {
        // Speed 2: the drag lasts at least 0.7 s, the first downloads 0.5 s, so slots free up while the finger is down.
        // Two runs that do not wait for each other, started together.
        async let suspendedRun = recordRun(product: Self.product, knobs: [("script", "flick")], speed: 2)
        async let freeRun = recordRun(product: Self.product, knobs: [("script", "flick"), ("suspendWhileScrolling", "false")], speed: 2)
        let suspended = await suspendedRun
        #expect(try Self.workBegunWhileScrolling(printedBy: suspended) == [0])
        let free = await freeRun
        let begun = try Self.workBegunWhileScrolling(printedBy: free)
        #expect(begun.count == 1 && begun[0] >= 1, "\(begun)")
    }

    @Test(arguments: [[("maxConcurrentOperationCount", "6")], [("maxConcurrentOperationCount", "6"), ("visibleRows", "6")]])
    func workQueuedDuringAnEarlierDragIsNotCountedForTheNextOne(knobs: [(String, String)]) async throws {
        // With six slots, work queued during one drag is handed to libdispatch at its lift and can still wait for a
        // thread when the next drag begins; it begins then, but it was not queued during that drag. The callout promises
        // 0 for every drag while the queue is suspended, however the threads happen to fall.
        let run = await recordRun(product: Self.product, knobs: knobs, speed: 4)
        #expect(try Self.workBegunWhileScrolling(printedBy: run) == [0, 0, 0])
    }

    @Test func theStillScriptLoadsTheFirstScreenAndCancelsNothing() async throws {
        let run = await recordRun(product: Self.product, knobs: [("script", "still")], speed: 10)
        #expect(run.ending == .exited(code: 0))
        #expect(!Self.rowEvents(in: run).contains { $0.state == "away" })
        #expect(run.outputText.contains("The list, rows 0 to 3 in view (marked >):"))
        #expect(run.outputText.contains { $0.hasSuffix("Operations cancelled before their work began: 0.") })
    }

    // MARK: Reading the output

    /// The figure in the page's last summary line, "At most N downloads and filters worked at once".
    static func mostWorkAtOnce(printedBy run: RunRecord) throws -> Int {
        #expect(run.ending == .exited(code: 0))
        let line = try #require(run.outputText.first { $0.hasPrefix("At most ") })
        return try #require(line.firstMatch(of: /At most (\d+) download/).flatMap { Int($0.1) }, "\(line)")
    }

    /// The count after each lift of the work queued during the drag that began while the finger was down.
    static func workBegunWhileScrolling(printedBy run: RunRecord) throws -> [Int] {
        #expect(run.ending == .exited(code: 0))
        let counts = run.outputText.compactMap { $0.firstMatch(of: /^\s*(\d+) downloads? (and|or) filters? queued during the drag/).flatMap { Int($0.1) } }
        try #require(!counts.isEmpty, "no lift summary in:\n\(run.outputText.joined(separator: "\n"))")
        return counts
    }

    /// The page's "Downloads: N for M photos" line: N, and the number of photos the list shows (from its first line).
    static func downloads(printedBy run: RunRecord) throws -> (count: Int, photos: Int) {
        #expect(run.ending == .exited(code: 0))
        let line = try #require(run.outputText.first { $0.hasPrefix("Downloads: ") })
        let count = try #require(line.firstMatch(of: /Downloads: (\d+) for/).flatMap { Int($0.1) }, "\(line)")
        let first = try #require(run.outputText.first { $0.contains(" rows over ") })
        let photos = try #require(first.firstMatch(of: /rows over (\d+) photos/).flatMap { Int($0.1) }, "\(first)")
        return (count, photos)
    }

    // MARK: Reading the trace

    /// A row change as the page marks it, for example `row 6 astronaut: filtered (from cache)`.
    struct RowEvent {
        var row: Int
        var photo: String
        var state: String
        var note: String?
        var time: UInt64
    }

    /// The row marks of `run` in the order they happened (they are made under the list's lock).
    static func rowEvents(in run: RunRecord) -> [RowEvent] {
        let events = run.marks.compactMap { mark -> RowEvent? in
            guard mark.name.hasPrefix("row "), let colon = mark.name.range(of: ": ") else { return nil }
            let subject = mark.name[..<colon.lowerBound].split(separator: " ")
            guard subject.count == 3, let row = Int(subject[1]) else { return nil }
            var change = String(mark.name[colon.upperBound...])
            var note: String?
            if let open = change.range(of: " ("), change.hasSuffix(")") {
                note = String(change[open.upperBound..<change.index(before: change.endIndex)])
                change = String(change[..<open.lowerBound])
            }
            return RowEvent(row: row, photo: String(subject[2]), state: change, note: note, time: mark.time)
        }
        return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// A row comes into view showing a placeholder, or straight away with what the cache had.
    static func isEntry(_ event: RowEvent) -> Bool {
        event.state == "placeholder" || event.note == "from cache"
    }

    static func expectAwayRowsStartNothing(in run: RunRecord, sourceLocation: SourceLocation = #_sourceLocation) {
        let events = rowEvents(in: run)
        #expect(events.contains { $0.state == "away" }, "the run scrolled rows away", sourceLocation: sourceLocation)
        for row in Set(events.map(\.row)) {
            let history = events.filter { $0.row == row }
            if let first = history.first {
                #expect(isEntry(first), "row \(row) began with \(first.state)", sourceLocation: sourceLocation)
            }
            for (before, after) in zip(history, history.dropFirst()) where before.state == "away" {
                #expect(isEntry(after), "row \(row) showed \(after.state) after it scrolled away", sourceLocation: sourceLocation)
            }
        }
    }

    static func expectEachPhotoDownloadedAtMostOnce(in run: RunRecord, sourceLocation: SourceLocation = #_sourceLocation) {
        let downloads = run.spans.filter { $0.name.hasPrefix("network load ") }.map(\.name)
        #expect(!downloads.isEmpty, sourceLocation: sourceLocation)
        #expect(Set(downloads).count == downloads.count, "downloads: \(downloads.sorted())", sourceLocation: sourceLocation)
    }

    /// The stretches between each `queue suspended` mark and the `queue resumed` mark after it.
    static func suspensions(in run: RunRecord) throws -> [(start: UInt64, end: UInt64)] {
        let starts = run.marks.filter { $0.name == "queue suspended" }.map(\.time).sorted()
        let ends = run.marks.filter { $0.name == "queue resumed" }.map(\.time).sorted()
        try #require(starts.count == ends.count)
        let pairs = Array(zip(starts, ends))
        for (index, pair) in pairs.enumerated() {
            try #require(pair.0 < pair.1)
            if index > 0 { try #require(pairs[index - 1].1 < pair.0) }
        }
        return pairs.map { (start: $0.0, end: $0.1) }
    }

    /// Suspension stops the queue from handing out operations, not one it handed to a thread already: so an
    /// operation may begin inside a suspension only if it was ready before the suspension began.
    static func expectNothingStartsWhileSuspended(in run: RunRecord, suspensions: [(start: UInt64, end: UInt64)]) {
        for operation in run.operations {
            guard let executing = operation.firstTime(of: .executing),
                  let gesture = suspensions.first(where: { $0.start < executing && executing < $0.end }) else { continue }
            let ready = operation.firstTime(of: .ready)
            #expect(ready.map { $0 < gesture.start } == true,
                    "\(operation.name) started during a suspension without having been ready before it")
        }
    }

    /// The most downloads and filters at work at the same moment. Their spans lie inside `main()`, so each
    /// one sits within the time its operation holds one of the queue's slots.
    static func mostWorkAtOnce(in run: RunRecord) -> Int {
        let work = run.spans.filter { $0.name.hasPrefix("network load ") || $0.name.hasPrefix("tilt-shift row ") }
        var moments: [(time: UInt64, change: Int)] = []
        for span in work {
            moments.append((span.start, 1))
            moments.append((span.end ?? UInt64.max, -1))
        }
        // At equal times an ending is counted before a beginning: touching spans do not overlap.
        moments.sort { ($0.time, $0.change) < ($1.time, $1.change) }
        var current = 0, most = 0
        for moment in moments {
            current += moment.change
            most = max(most, current)
        }
        return most
    }

    /// The text picture the page prints at its end: the header line, then one line per row.
    static func listPicture(in run: RunRecord) throws -> [String] {
        let lines = run.outputText
        let start = try #require(lines.lastIndex { $0.hasPrefix("The list, rows ") })
        let end = lines[start...].firstIndex { $0.hasPrefix("Downloads:") } ?? lines.endIndex
        return Array(lines[start..<end])
    }
}

/// The page run directly with a pipe on its standard input, as a host that sends scroll commands would run it.
///
/// `Process` rather than the runner, so the page runs alone and prints text instead of sending live view events.
final class PageWithInput: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var received = Data()
    /// A guard against a page that never ends: it is stopped after this long, and the test fails on its output.
    private static let limit = 30.0

    /// Starts the page in a page-run slot (`PageRunSlots`) and runs `conversation` with it on a thread of its own, as
    /// its reads and the wait for its exit block; returns what `conversation` returned and the page's exit status.
    static func talk<T: Sendable>(arguments: [String], hostSendsCommands: Bool = false,
                                  _ conversation: @escaping @Sendable (PageWithInput) -> T) async throws -> (T, Int32) {
        try await PageRunSlots.shared.withSlot {
            try await awaitBlocking("page-with-input") {
                let page = try PageWithInput(arguments: arguments, hostSendsCommands: hostSendsCommands)
                let said = conversation(page)
                return (said, page.exitStatus())
            }
        }
    }

    /// `hostSendsCommands` runs the page as the tutorial does, its script playing until a command arrives.
    private init(arguments: [String], hostSendsCommands: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: InPracticePageTests.product))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TOUR_STDIN_COMMANDS"] = hostSendsCommands ? "1" : nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.limit) { [process] in
            if process.isRunning { process.terminate() }
        }
    }

    func send(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Output up to and including the first line containing `text`, or everything until the page ends.
    func read(until text: String) -> String {
        while !String(decoding: received, as: UTF8.self).contains(text) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            received.append(chunk)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Everything the page printed after the last read, until it ended.
    func readToEnd() -> String {
        let alreadyRead = received.count
        received.append(output.fileHandleForReading.readDataToEndOfFile())
        return String(decoding: received[alreadyRead...], as: UTF8.self)
    }

    func exitStatus() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}
