@preconcurrency import Glibc
import Foundation
import LessonKit
import Synchronization
import Testing
import TourCore
import TourTestSupport

/// Rehearsable demos: one seed, one order of events; and a plain run recorded as an asciicast, replayed.
@Suite("On stage: seeded runs and recordings")
struct OnStageRunTests {
    /// Page 8's clients and the names they write, as the page has them.
    static let newNames = [("Charlie", "Cheesecake"), ("Delia", "Dingle"), ("Eva", "Evershed"), ("Freddie", "Frost"), ("Gina", "Gregory")]

    /// When each client writes its first name and its last name, at speed 1, under `seed`: the page draws them
    /// from `PageRandom(stream: "first last")` as this does.
    static func writeTimes(seed: UInt64) -> [(first: Double, last: Double)] {
        newNames.map { first, last in
            var random = PageRandom(stream: "\(first) \(last)", seed: seed)
            let beforeFirst = Double.random(in: 0...0.1, using: &random)
            return (beforeFirst, beforeFirst + Double.random(in: 0...0.4, using: &random))
        }
    }

    /// The smallest gap between two moments whose order decides what the unsafe person's clients print: the ends of
    /// the changes (the order of the prints and last names), and the last first-name write against every end.
    static func narrowestGap(seed: UInt64) -> Double {
        let times = writeTimes(seed: seed)
        let moments = times.map(\.last) + [times.map(\.first).max()!]
        let sorted = moments.sorted()
        return zip(sorted, sorted.dropFirst()).map { $1 - $0 }.min()!
    }

    /// Of the first 100,000 seeds, the one whose moments lie furthest apart (at least 40 ms, or none): ten runs at once
    /// on a loaded two-core machine must agree because of the seed, not by luck, and the first seed just over 40 ms
    /// once gave two orders in a clean-clone CI run.
    static let seed: UInt64? = {
        let widest = (UInt64(0)..<100_000).max { narrowestGap(seed: $0) < narrowestGap(seed: $1) }
        return widest.flatMap { narrowestGap(seed: $0) >= 0.04 ? $0 : nil }
    }()

    /// The order of events of page 8's unsafe race that the seed decides: the changes by their end, and what each
    /// client then read.
    static func eventOrder(_ run: RunRecord) -> [String] {
        run.spans.filter { $0.name.hasPrefix("change to ") }.sorted { ($0.end ?? 0) < ($1.end ?? 0) }.map(\.name)
            + run.outputText.filter { $0.hasPrefix("Unsafe person") }
    }

    @Test func oneSeedGivesPage8TheSameEventOrderInTenRuns() async throws {
        let seed = try #require(Self.seed)
        let runs = await withTaskGroup(of: RunRecord.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    await recordRun(product: "Lesson08Barrier", knobs: [("people", "unsafe")], arguments: ["--seed", String(seed)])
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for run in runs { #expect(run.endedAsExpected) }
        let orders = runs.map(Self.eventOrder)
        let first = try #require(orders.first)
        #expect(first.count == 11)
        #expect(orders.allSatisfy { $0 == first }, "orders differ: \(Set(orders))")
        // And it is the order the seed's delays predict.
        let times = Self.writeTimes(seed: seed)
        let byEnd = Self.newNames.indices.sorted { times[$0].last < times[$1].last }
        #expect(Array(first.prefix(5)) == byEnd.map { "change to \(Self.newNames[$0].0) \(Self.newNames[$0].1)" })
        let lastFirstName = Self.newNames[times.indices.max { times[$0].first < times[$1].first }!].0
        #expect(first.last == "Unsafe person's final name: \(lastFirstName) \(Self.newNames[byEnd.last!].1)")
    }

    @Test func theSeedMakesTheDelaysAndNotTheSystem() async throws {
        #expect(Self.writeTimes(seed: 7).map(\.last) == Self.writeTimes(seed: 7).map(\.last))
        #expect(Self.writeTimes(seed: 7).map(\.last) != Self.writeTimes(seed: 8).map(\.last))
        // Without a seed, two draws differ (the chance that 64 random bits repeat is nil).
        var first = PageRandom(stream: "x", seed: nil)
        var second = PageRandom(stream: "x", seed: nil)
        #expect(first.next() != second.next())
    }

    @Test func plainModeLeavesSpeakerNotesOutUnlessAskedFor() async throws {
        let catalog = try PageCatalog.load()
        let page = try #require(catalog.page(named: "groups"))
        let source = page.readSourceTexts().main
        let notes = LiterateParser.parse(source).speakerNotes
        try #require(!notes.isEmpty, "page 7 has speaker notes")
        let report = PlainReport(style: .detect(forceBare: true))
        let lines = report.speakerNoteLines(source)
        #expect(lines.first == "Speaker notes")
        #expect(lines.dropFirst().first == "  main.swift:\(notes[0].line)  \(notes[0].text)")
        // The report of a run without --notes has none of them.
        let summary = report.summary(of: RunRecord(), source: source).joined(separator: "\n")
        #expect(!summary.contains(notes[0].text))
    }

    @Test func aPlainRunRecordsWhatItPrintedAndTheReplayShowsItsLastScreen() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tour-cast-\(UUID().uuidString).cast").path
        defer { unlink(path) }
        let catalog = try PageCatalog.load()
        let page = try #require(catalog.page(named: "groups"))
        var options = TourCommand.RunOptions(page: "groups")
        options.plain = true
        options.speed = 10
        options.castFile = path
        let printed = Mutex<[String]>([])
        let request = options
        let status = await awaitBlocking {
            PlainRun.execute(request, page: page, catalog: catalog, style: .detect(forceBare: true), castSize: (200, 30)) { line in
                printed.withLock { $0.append(line) }
            }.rawValue
        }
        #expect(status == PlainRun.Status.endedAsExpected.rawValue)
        let (header, events) = try Asciicast.read(path)
        #expect(header["width"] as? Int == 200)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(try #require(events.last).time > 0)
        var terminal = TerminalEmulator(width: 200, height: 30)
        for event in events { terminal.feed(event.text) }
        #expect(terminal.unknownSequences.isEmpty)
        // Every line printed but the closing "Recording written" is in the recording; the last screen is its last 29.
        let lines = printed.withLock { $0 }
        #expect(lines.last?.hasPrefix("Recording written to \(path)") == true)
        let recorded = lines.dropLast()
        #expect(events.count == recorded.count)
        let expected = Array(recorded.suffix(29)).map { $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression) } + [""]
        #expect(terminal.text == expected)
    }
}
