import Foundation
import Testing
import TourCore
import PageProtocol
@testable import TourInterface
import TourTestSupport

/// The interface's share of the budgets in issue 3, without a terminal: how long the model takes to fold
/// a second's worth of a flooding page's events, and how long a key takes to become a frame while the
/// record is full. Off by default; `TOUR_BENCHMARKS=1 swift test --filter InterfaceBenchmarks` runs them.
@Suite("Interface benchmarks", .bodiesBelowTheRunner, .enabled(if: ProcessInfo.processInfo.environment["TOUR_BENCHMARKS"] == "1"))
struct InterfaceBenchmarks {
    /// A record at its limits: 50,000 spans over 8 threads, 5,000 output lines, a result every line.
    static func floodedModel() throws -> (TourModel, runID: Int) {
        var model = try FixturePages.model()
        guard case .start(let order)? = model.update(.key(.character("r"))).first else { throw BenchmarkFailure.noRun }
        _ = model.update(.host(runID: order.runID, .started(pid: 1, time: RunScript.start)))
        for event in Self.events(count: 60_000, from: 0) { _ = model.update(.host(runID: order.runID, event)) }
        return (model, order.runID)
    }

    enum BenchmarkFailure: Error { case noRun }

    /// `count` events as a page streams them: spans on 8 threads, output and results, 20 µs apart.
    static func events(count: Int, from first: Int) -> [HostEvent] {
        (first..<(first + count)).map { index in
            let time = RunScript.start + UInt64(index) * 20_000
            let thread = Int32(10 + index % 8)
            switch index % 10 {
            case 0: return .output(OutputLine(stream: .stdout, text: "line \(index)", time: time, thread: thread, queue: "q"))
            case 1: return .trace(PageEvent(time: time, thread: thread, queue: "q",
                                            kind: .result(file: "main.swift", line: 15, kind: .peek, text: "\(index)", seconds: nil)))
            case 2...5: return .trace(PageEvent(time: time, thread: thread, queue: "q", kind: .begin(id: index, name: "work \(index)")))
            default: return .trace(PageEvent(time: time, thread: thread, queue: "q", kind: .end(id: index - 4, name: "work")))
            }
        }
    }

    static func milliseconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    @Test("Folding 50,000 events (one second of a flooding page) into the model")
    func ingestion() throws {
        var (model, runID) = try Self.floodedModel()
        let batch = Self.events(count: 50_000, from: 60_000)
        let elapsed = Self.milliseconds {
            for event in batch { _ = model.update(.host(runID: runID, event)) }
        }
        print("benchmark ingestion: 50,000 events in \(String(format: "%.1f", elapsed)) ms")
        #expect(elapsed < 1_000)
    }

    @Test("A key to a new frame, with a full record, at 120×40 and 80×24")
    func keyToFrame() throws {
        for size in [Size(width: 120, height: 40), Size(width: 80, height: 24)] {
            var (model, _) = try Self.floodedModel()
            _ = model.update(.resize(size))
            var timings: [Double] = []
            for key in [Key.tab, .tab, .character("l"), .character("i"), .tab, .character("?"), .escape, .character("j")] {
                timings.append(Self.milliseconds {
                    _ = model.update(.key(key))
                    _ = TourRenderer.render(model)
                })
            }
            let worst = timings.max() ?? 0
            print("benchmark key-to-frame \(size.width)×\(size.height): median \(String(format: "%.1f", timings.sorted()[timings.count / 2])) ms, worst \(String(format: "%.1f", worst)) ms")
            #expect(worst < 50)
        }
    }
}

extension InterfaceBenchmarks {
    @Test("Loading the real catalog into a model and drawing the first frame")
    func firstFrame() throws {
        var frame = CellBuffer(size: Size(width: 1, height: 1))
        var catalog: PageCatalog?
        let loading = Self.milliseconds { catalog = try? PageCatalog.load() }
        let modelling = Self.milliseconds {
            var model = TourModel.load(catalog!, speed: 1, size: Size(width: 120, height: 40), glyphs: .unicode, pictureDepth: .colors256)
            // What the loop does before its first frame: read the first page, as `.launched` asks.
            for case .readSource(let page) in model.update(.launched) {
                _ = model.update(.editLoop(.sourceRead(page: page, page.readParsedSource())))
            }
            frame = TourRenderer.render(model)
        }
        print("benchmark first-frame work: catalog \(String(format: "%.1f", loading)) ms, model and first frame \(String(format: "%.1f", modelling)) ms")
        #expect(frame.text(ofRow: 0).contains("Pages"))
    }
}

extension InterfaceBenchmarks {
    /// The issue asks for at most 1 ms per 160×96 frame; debug builds are slower, so the bound here is loose and
    /// the release figure is measured with `swift test -c release`.
    @Test("A full 160×96 live view frame into 160×48 cells")
    func fullFrameToCells() {
        let frame = HalfBlockRendererTests.fullFrame()
        var times: [Double] = []
        for _ in 0..<31 {
            times.append(Self.milliseconds { _ = HalfBlockRenderer.render(frame, width: 160, height: 48, depth: .colors256) })
        }
        let median = times.sorted()[times.count / 2]
        print("benchmark live view: 160×96 frame to 160×48 cells, median \(String(format: "%.3f", median)) ms")
        #expect(median < 50)
    }
}
