import Foundation
import Testing
import TourCore
import PageProtocol
@testable import TourInterface
import TourTestSupport

/// Issue 15's performance goals for the timeline, without a terminal: a key to a new frame while a page streams
/// 50,000 events/s on 64 threads with the sampler's readings, and zooming and panning a completed run of 1,000,000
/// events. Off by default; `TOUR_BENCHMARKS=1 swift test --filter TimelineBenchmarks` runs them.
@Suite("Timeline benchmarks", .bodiesBelowTheRunner, .enabled(if: ProcessInfo.processInfo.environment["TOUR_BENCHMARKS"] == "1"))
struct TimelineBenchmarks {
    static let threads = 64

    /// Event `index` of a stream on 64 threads, 20 µs apart (50,000 a second): each thread opens a span and closes
    /// it four events of its own later, on one of three queues, with a mark now and then.
    static func event(_ index: Int) -> HostEvent {
        let time = RunScript.start + UInt64(index) * 20_000
        let thread = Int32(1_000 + index % threads)
        let round = index / threads
        let queue = ["tour.bench.serial", "tour.bench.concurrent", "com.apple.root.default-qos"][index % 3]
        let kind: EventKind
        switch round % 5 {
        case 0: kind = .begin(id: index, name: "work \(round)")
        case 4: kind = .end(id: index - 4 * threads, name: "work")
        case 2 where index % 7 == 0: kind = .mark(name: "tick")
        default: kind = .result(file: "main.swift", line: 15, kind: .peek, text: "\(index)", seconds: nil)
        }
        return .trace(PageEvent(time: time, thread: thread, queue: queue, kind: kind))
    }

    /// The sampler's readings of all 64 threads at `time`, alternating so every stretch is short.
    static func samples(at time: UInt64, round: Int) -> HostEvent {
        .threadStates((0..<threads).map { ThreadStateReading(thread: Int32(1_000 + $0), state: ($0 + round) % 3 == 0 ? .waiting : .running) },
                      time: time)
    }

    static func milliseconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    static func load() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }

    static func report(_ what: String, _ timings: [Double]) {
        let sorted = timings.sorted()
        let perKey = zip(keys, timings).map { key, time in
            let name: String
            switch key {
            case .character(let character): name = String(character)
            default: name = "\(key)"
            }
            return "\(name) \(String(format: "%.0f", time))"
        }
        print("benchmark \(what) per key (ms): \(perKey.joined(separator: ", "))")
        print("benchmark \(what): median \(String(format: "%.1f", sorted[sorted.count / 2])) ms, worst \(String(format: "%.1f", sorted.last ?? 0)) ms over \(timings.count) keys, load \(load())")
    }

    /// The keys a learner presses in the timeline: zoom, pan, select, change lanes, views and search.
    static let keys: [Key] = [.character("i"), .character("i"), .character("L"), .character("H"), .character("l"), .character("l"),
                              .character("j"), .character("Z"), .character("o"), .character("t"), .character("i"), .character("L"),
                              .character("h"), .character("t"), .character("0"), .character("/"), .character("w"), .enter, .escape,
                              .character("F"), .character("o")]

    @Test("Keys in the timeline while a page streams 50,000 events/s on 64 threads, at 120×40 and 80×24")
    func keysWhileStreaming() throws {
        for size in [Size(width: 120, height: 40), Size(width: 80, height: 24)] {
            var model = try FixturePages.model(width: size.width, height: size.height)
            guard case .start(let order)? = model.update(.key(.character("r"))).last else { throw Failure.noRun }
            _ = model.update(.host(runID: order.runID, .started(pid: 1, time: RunScript.start)))
            model.press(.tab, .tab)
            var index = 0
            // Two seconds in first, so the record is full of spans and stretches.
            func stream(frames: Int) {
                for _ in 0..<frames {
                    // A frame of 33 ms: 1,667 events and three samples.
                    for _ in 0..<1_667 {
                        _ = model.update(.host(runID: order.runID, Self.event(index)))
                        if index % 500 == 0 {
                            _ = model.update(.host(runID: order.runID, Self.samples(at: RunScript.start + UInt64(index) * 20_000, round: index / 500)))
                        }
                        index += 1
                    }
                    _ = model.update(.tick(now: RunScript.start + UInt64(index) * 20_000))
                }
            }
            stream(frames: 60)
            _ = TourRenderer.render(model)
            var timings: [Double] = []
            for key in Self.keys {
                stream(frames: 1)
                timings.append(Self.milliseconds {
                    _ = model.update(.key(key))
                    _ = TourRenderer.render(model)
                })
            }
            Self.report("timeline key-to-frame streaming \(size.width)×\(size.height)", timings)
            #expect(timings.count == Self.keys.count)
        }
    }

    @Test("Zooming and panning a completed run of 1,000,000 events on 64 threads, at 120×40")
    func keysOnAMillionEvents() throws {
        var model = try FixturePages.model(width: 120, height: 40)
        guard case .start(let order)? = model.update(.key(.character("r"))).last else { throw Failure.noRun }
        _ = model.update(.host(runID: order.runID, .started(pid: 1, time: RunScript.start)))
        for index in 0..<1_000_000 {
            _ = model.update(.host(runID: order.runID, Self.event(index)))
            if index % 500 == 0 {
                _ = model.update(.host(runID: order.runID, Self.samples(at: RunScript.start + UInt64(index) * 20_000, round: index / 500)))
            }
        }
        _ = model.update(.host(runID: order.runID, .ended(.exited(code: 0), time: RunScript.start + 1_000_000 * 20_000)))
        model.press(.tab, .tab)
        let record = try #require(model.currentPage.record)
        print("benchmark million-event run: \(record.spans.count) spans kept, \(record.droppedSpans) dropped, "
              + "\(record.threadStates.values.map(\.count).reduce(0, +)) state stretches")
        // What every frame paid for the warnings before they were kept per change of the record (`WarningsCache`).
        let warnings = (0..<5).map { _ in Self.milliseconds { _ = TraceWarnings.of(record, cores: model.cores) } }.sorted()
        print("benchmark million-event run: TraceWarnings.of median \(String(format: "%.1f", warnings[2])) ms of 5, load \(Self.load())")
        _ = TourRenderer.render(model)
        var timings: [Double] = []
        for key in Self.keys {
            timings.append(Self.milliseconds {
                _ = model.update(.key(key))
                _ = TourRenderer.render(model)
            })
        }
        Self.report("timeline key-to-frame on a completed 1,000,000-event run", timings)
        #expect(timings.count == Self.keys.count)
    }

    enum Failure: Error { case noRun }
}
