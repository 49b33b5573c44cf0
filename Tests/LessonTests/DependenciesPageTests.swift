import Testing
import TourCore
import TourTestSupport

/// Page 4 proves what it teaches from its own trace: each test reads the events of a real run.
@Suite("Page 4: Dependencies")
struct DependenciesPageTests {
    /// The page with its default knobs.
    static let run = recordRun(product: "Lesson04Dependencies", speed: 10)
    /// Dependents that do not check, a short link that leads nowhere, and the cycle, which ends the run.
    static let turned = recordRun(product: "Lesson04Dependencies", knobs: [
        ("checkDependencies", "false"), ("shortLink", "broken"), ("makeCycle", "true"),
    ], speed: 10, stuckAfter: 0.5)

    @Test func endsNormallyAsItSays() {
        #expect(Self.run.ending == .exited(code: 0))
        #expect(Self.run.endedAsExpected)
        #expect(Self.run.outputText.last?.hasPrefix("Done:") == true)
    }

    @Test func eachLinkOfTheChainStartsOnlyAfterTheOneBeforeFinishedItsWork() throws {
        for photo in ["coffee", "rocket"] {
            let loaded = try Self.time(of: "finished", for: "load \(photo)")
            let filterStart = try Self.time(of: "executing", for: "tilt-shift \(photo)")
            #expect(loaded < filterStart, "the filter waited for the download of \(photo)")
            let filtered = try #require(Self.run.spans(named: "filtering for tilt-shift \(photo)").first?.end)
            #expect(filtered < (try Self.time(of: "executing", for: "show \(photo)")))
        }
    }

    @Test func theImageTravelsAlongTheChain() {
        let shown = Self.run.outputText.filter { $0.hasPrefix("show coffee: 160×120") || $0.hasPrefix("show rocket: 160×120") }
        #expect(shown.count == 2, "each display found the filtered image through its dependency")
    }

    @Test func theDependenciesAreReportedAsDeclared() {
        let pairs = Set(Self.run.dependencies.map { "\($0.operationName) ← \($0.dependencyName)" })
        #expect(pairs.isSuperset(of: [
            "tilt-shift coffee ← load coffee", "show coffee ← tilt-shift coffee",
            "tilt-shift rocket ← load rocket", "show rocket ← tilt-shift rocket",
            "tilt-shift chelsea ← load chelsea", "blur chelsea ← load chelsea",
            "compare chelsea ← tilt-shift chelsea", "compare chelsea ← blur chelsea",
            "fetch title ← expand https://short.example/ops",
        ]))
    }

    @Test func aDependencyCrossesQueues() throws {
        let filter = try #require(Self.run.spans(named: "tilt-shift rocket").first)
        #expect(filter.queue == "filters")
        #expect(try Self.time(of: "finished", for: "load rocket") < filter.start)
    }

    @Test func aGraphFansOutAndBackIn() throws {
        let loaded = try Self.time(of: "finished", for: "load chelsea")
        for filter in ["tilt-shift chelsea", "blur chelsea"] {
            #expect(loaded < (try Self.time(of: "executing", for: filter)), "\(filter) waited for the shared download")
        }
        let compareStart = try Self.time(of: "executing", for: "compare chelsea")
        for filter in ["tilt-shift chelsea", "blur chelsea"] {
            let workEnd = try #require(Self.run.spans(named: "filtering for \(filter)").first?.end)
            #expect(workEnd < compareStart, "the comparison waited for \(filter)")
        }
        #expect(Self.run.outputText.filter { $0.hasPrefix("compare: ") }.count == 2)
    }

    @Test func dependentsOfACancelledOperationStillRun() throws {
        for run in [Self.run, Self.turned] {
            for name in ["tilt-shift retina", "show retina"] {
                let states = try #require(run.operations.first { $0.name == name }).changes.map(\.state)
                #expect(states.contains("executing"), "\(name) ran although its dependency was cancelled")
            }
            #expect(!run.spans.contains { $0.name == "filtering for tilt-shift retina" })
        }
    }

    @Test func checkingDependenciesPassesTheCancellationDownTheChain() throws {
        for name in ["tilt-shift retina", "show retina"] {
            let states = try #require(Self.run.operations.first { $0.name == name }).changes.map(\.state)
            #expect(states.contains("cancelled"))
        }
        #expect(Self.run.outputText.contains("tilt-shift retina: skipped, load retina was cancelled"))
        #expect(Self.run.outputText.contains("show retina: skipped, tilt-shift retina was cancelled"))
    }

    @Test func withoutTheCheckTheChainRunsOnNothing() throws {
        for name in ["tilt-shift retina", "show retina"] {
            let states = try #require(Self.turned.operations.first { $0.name == name }).changes.map(\.state)
            #expect(!states.contains("cancelled"))
        }
        #expect(Self.turned.outputText.contains("tilt-shift retina: no image to filter"))
        #expect(Self.turned.outputText.contains("show retina: nothing to show"))
    }

    @Test func typedLinksHandTheirOutputOn() throws {
        #expect(Self.run.outputText.contains("expand https://short.example/ops: https://articles.example/asynchronous-operations"))
        #expect(Self.run.outputText.contains("fetch title: Asynchronous programming with operations"))
        let expanded = try Self.time(of: "finished", for: "expand https://short.example/ops")
        #expect(expanded < (try Self.time(of: "executing", for: "fetch title")))
    }

    @Test func aFailedLinkLeavesTheNextWithoutInput() {
        #expect(Self.turned.outputText.contains("expand https://short.example/nope failed: the shortener does not know https://short.example/nope"))
        #expect(Self.turned.outputText.contains("fetch title failed: nothing to work on: the link before it failed"))
    }

    @Test func aCycleNeverRunsAndIsNamed() throws {
        let run = Self.turned
        guard case .stuck(let stall) = run.ending else {
            Issue.record("expected the run to be stuck, got \(String(describing: run.ending))")
            return
        }
        #expect(Set(stall.dependencyCycle) == ["compress", "upload"])
        #expect(stall.dependencyCycle.first == stall.dependencyCycle.last, "the cycle closes on itself")
        for name in ["compress", "upload"] {
            #expect(!(run.operations.first { $0.name == name }?.changes.contains { $0.state == "executing" } ?? false))
        }
        #expect(run.expectation?.ending == "stuck")
        #expect(run.endedAsExpected)
        #expect(run.ending?.explanation.contains("cycle") == true)
    }

    @Test func knobsAreAnnounced() {
        #expect(Self.turned.knobs.map(\.name) == ["checkDependencies", "shortLink", "makeCycle"])
        #expect(Self.run.knobs.allSatisfy { $0.value == $0.defaultValue })
    }

    /// When the operation called `name` first reported `state`.
    static func time(of state: String, for name: String) throws -> UInt64 {
        try #require(run.operations.first { $0.name == name }?.firstTime(of: state), "\(name) never reported \(state)")
    }
}
