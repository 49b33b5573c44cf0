import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
@testable import TourInterface
import TourTestSupport

/// The edit loop in the model: changes on disk, builds, compiler messages, the editor and reset, as pure updates.
@Suite("Edit loop", .bodiesBelowTheRunner)
struct EditLoopUpdateTests {
    /// A build outcome as `PageBuilder` reports it.
    static func outcome(_ status: BuildOutcome.Status, _ diagnostics: [Diagnostic] = [], output: [String] = []) -> BuildOutcome {
        BuildOutcome(status: status, diagnostics: BuildDiagnostics(diagnostics: diagnostics, unlocatedErrors: []),
                     output: output, seconds: 0.5)
    }

    /// A message on `line` of the current page's `main.swift`.
    static func diagnostic(_ model: TourModel, line: Int, _ severity: Diagnostic.Severity = .error, _ message: String = "cannot find 'prnt' in scope") -> Diagnostic {
        Diagnostic(file: model.currentPage.page.source.path, line: line, column: 1, severity: severity, message: message)
    }

    /// Reports a change of the current page's `main.swift` and returns the build it asked for.
    static func change(_ model: inout TourModel) throws -> (effects: [TourEffect], build: BuildOrder) {
        let effects = model.update(.editLoop(.sourceChanged(page: model.currentPage.page, files: ["main.swift"])))
        guard let order = builds(effects).last else { throw Failure("a change did not ask for a build: \(effects)") }
        return (effects, order)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func starts(_ effects: [TourEffect]) -> [RunOrder] {
        effects.compactMap(\.runOrder)
    }

    static func builds(_ effects: [TourEffect]) -> [BuildOrder] {
        effects.compactMap { if case .build(let order) = $0 { order } else { nil } }
    }

    @Test("A change during a run stops it, then builds, then runs again: one build and one run per change")
    func changeDuringRun() throws {
        var model = try FixturePages.model()
        let first = try #require(model.update(.key(.character("r"))).last?.runOrder, "r did not start a run")
        let (effects, build) = try Self.change(&model)
        // The build starts before the new text is read: reading it is not on the way to the new run.
        #expect(effects == [.stop(runID: first.runID), .build(build), .readSource(model.currentPage.page)])
        #expect(build.page == model.currentPage.page)
        #expect(model.currentPage.status == .building)

        _ = model.update(.host(runID: first.runID, .ended(.stopped, time: 5)))
        _ = model.update(.editLoop(.buildStarted(buildID: build.buildID, time: 10, route: .direct)))
        #expect(Self.starts(model.update(.editLoop(.buildOutput(buildID: build.buildID, lines: ["Compiling…"])))).isEmpty)
        let finished = model.update(.editLoop(.buildFinished(buildID: build.buildID, Self.outcome(.succeeded))))
        #expect(Self.starts(finished).count == 1)
        #expect(Self.builds(finished).isEmpty)
        #expect(model.currentPage.status == .running)
        #expect(Self.starts(finished).first?.runID != first.runID)
        #expect(model.notice == "Rebuilt in 0.50 s.")
    }

    @Test("A rebuild that cannot take the direct route says why on the status line, as it starts and when it ends")
    func fullRebuildSaysWhy() throws {
        var model = try FixturePages.model()
        let (_, build) = try Self.change(&model)
        let product = model.currentPage.page.product
        _ = model.update(.editLoop(.buildStarted(buildID: build.buildID, time: 10, route: .swiftBuild(reason: "LessonKit changed (Spans.swift)"))))
        #expect(model.notice == "Full rebuild of \(product) (LessonKit changed (Spans.swift))…")
        var outcome = Self.outcome(.succeeded)
        outcome.route = .swiftBuild(reason: "LessonKit changed (Spans.swift)")
        _ = model.update(.editLoop(.buildFinished(buildID: build.buildID, outcome)))
        #expect(model.notice == "Rebuilt in 0.50 s, in full: LessonKit changed (Spans.swift).")

        // The direct route is the usual one: nothing to explain.
        let (_, next) = try Self.change(&model)
        _ = model.update(.editLoop(.buildStarted(buildID: next.buildID, time: 20, route: .direct)))
        #expect(model.notice?.hasPrefix("main.swift changed: rebuilding") == true)
    }

    @Test("A build that ends before the stopped run does waits for the run's end: the old and new runs never overlap")
    func rerunWaitsForTheOldRun() throws {
        var model = try FixturePages.model()
        let first = try #require(model.update(.key(.character("r"))).last?.runOrder, "r did not start a run")
        let (_, build) = try Self.change(&model)
        #expect(model.update(.editLoop(.buildFinished(buildID: build.buildID, Self.outcome(.succeeded)))).isEmpty)
        let ended = model.update(.host(runID: first.runID, .ended(.stopped, time: 5)))
        #expect(Self.starts(ended).count == 1)
        #expect(model.update(.host(runID: first.runID, .ended(.stopped, time: 6))).isEmpty)
        #expect(model.currentPage.status == .running)
    }

    @Test("A second change while the first builds cancels that build; only the last one reruns the page")
    func burstOfChanges() throws {
        var model = try FixturePages.model()
        let (_, first) = try Self.change(&model)
        let (effects, second) = try Self.change(&model)
        #expect(effects == [.cancelBuild(buildID: first.buildID), .build(second), .readSource(model.currentPage.page)])
        // The cancelled build's end arrives late and changes nothing.
        #expect(model.update(.editLoop(.buildFinished(buildID: first.buildID, Self.outcome(.cancelled)))).isEmpty)
        #expect(model.currentPage.status == .building)
        let finished = model.update(.editLoop(.buildFinished(buildID: second.buildID, Self.outcome(.succeeded))))
        #expect(Self.starts(finished).count == 1)
    }

    @Test("A page the learner left while it built is not started behind their back")
    func leftWhileBuilding() throws {
        var model = try FixturePages.model()
        let (_, build) = try Self.change(&model)
        model.press(.character("n"))
        let finished = model.update(.editLoop(.buildFinished(buildID: build.buildID, Self.outcome(.succeeded))))
        #expect(finished.isEmpty)
        #expect(model.notice == "Page 1 is rebuilt; r runs it there.")
        #expect(model.pages[0].status == .notRun)
    }

    @Test("A failed build puts its messages on the model, selects the first error, and the page does not compile; nothing runs")
    func failedBuild() throws {
        var model = try FixturePages.model()
        let (_, build) = try Self.change(&model)
        let warning = Self.diagnostic(model, line: 15, .warning, "variable 'serial' was never used")
        let error = Self.diagnostic(model, line: 18)
        let finished = model.update(.editLoop(.buildFinished(buildID: build.buildID, Self.outcome(.failed, [warning, error], output: ["main.swift:18:1: error: …"]))))
        #expect(Self.starts(finished).isEmpty)
        #expect(model.currentPage.status == .doesNotCompile)
        #expect(model.currentPage.build.diagnostics == [warning, error])
        #expect(model.currentPage.build.selectedDiagnostic == 1)
        #expect(model.currentPage.build.output == ["main.swift:18:1: error: …"])
        // The status line is left to the page's state and the keys for it.
        #expect(model.notice == nil)

        // r does not run the last good program: it builds again.
        let rerun = model.update(.key(.character("r")))
        #expect(Self.starts(rerun).isEmpty)
        #expect(Self.builds(rerun).count == 1)
    }

    @Test("d and D step through the messages and wrap around")
    func stepping() throws {
        var model = try FixturePages.model()
        model.press(.character("d"))
        #expect(model.notice == "No compiler messages on this page.")
        let (_, build) = try Self.change(&model)
        let messages = [Self.diagnostic(model, line: 14), Self.diagnostic(model, line: 15, .warning, "unused"), Self.diagnostic(model, line: 18)]
        _ = model.update(.editLoop(.buildFinished(buildID: build.buildID, Self.outcome(.failed, messages))))
        #expect(model.currentPage.build.selectedDiagnostic == 0)
        model.press(.character("d"))
        #expect(model.currentPage.build.selectedDiagnostic == 1)
        #expect(model.notice?.hasPrefix("2/3 main.swift:15:1: warning: unused") == true)
        model.press(.character("d"), .character("d"))
        #expect(model.currentPage.build.selectedDiagnostic == 0)
        model.press(.character("D"))
        #expect(model.currentPage.build.selectedDiagnostic == 2)
    }

    @Test("e opens main.swift at the first code line in view, or the selected message's file at its line")
    func editLine() throws {
        var model = try FixturePages.model()
        #expect(model.update(.key(.character("e"))).isEmpty)
        #expect(model.notice?.hasPrefix("Set VISUAL or EDITOR") == true)

        model.editing = EditingSettings(editor: "nano", editorOrigin: "$EDITOR")
        let page = model.currentPage.page
        // The prose block takes lines 1 to 10; `import LessonKit` is the first code line.
        #expect(model.update(.key(.character("e"))) == [.edit(EditOrder(page: page, file: page.source.path, line: 11))])
        let knobRow = try #require(model.pageLayout().rows.firstIndex { $0.sourceLine == 13 })
        model.currentPage.pageScroll = knobRow
        #expect(model.update(.key(.character("e"))) == [.edit(EditOrder(page: page, file: page.source.path, line: 13))])

        let (_, build) = try Self.change(&model)
        let helper = Diagnostic(file: "/elsewhere/01-Queue/Helper.swift", line: 7, column: 3, severity: .error, message: "expected '}'")
        _ = model.update(.editLoop(.buildFinished(buildID: build.buildID, Self.outcome(.failed, [helper]))))
        #expect(model.update(.key(.character("e"))) == [.edit(EditOrder(page: page, file: helper.file, line: 7))])
    }

    @Test("x asks before resetting: y resets the page, n leaves it")
    func resetAsksFirst() throws {
        var model = try FixturePages.model()
        model.press(.character("x"))
        #expect(model.overlay == .confirmReset(page: 0))
        #expect(model.update(.key(.character("n"))).isEmpty)
        #expect(model.overlay == nil)

        model.press(.character("x"))
        #expect(model.update(.key(.character("y"))) == [.reset(model.currentPage.page)])
        #expect(model.overlay == nil)
        _ = model.update(.editLoop(.resetFinished(page: model.currentPage.page, .noOriginal)))
        #expect(model.notice == "Page 1 has no original to put back: it is not in git's HEAD, and was never edited through the tour.")
    }

    @Test("after a reset the status line offers u, and u asks to undo it; help lists it")
    func undoReset() throws {
        var model = try FixturePages.model()
        let page = model.currentPage.page
        _ = model.update(.editLoop(.resetFinished(page: page, .restored)))
        let notice = try #require(model.notice)
        #expect(notice.hasPrefix("Page 1 is back to its original text; u undoes the reset."))
        #expect(TourRenderer.render(model).find("u undoes the reset", in: model.layout.status) != nil)
        // Once the notice gives way, the hints keep offering it.
        _ = model.update(.key(.character("j")))
        #expect(model.notice == nil)
        #expect(TourRenderer.render(model).find("u undo reset", in: model.layout.status) != nil)
        #expect(model.update(.key(.character("u"))) == [.undoReset(page)])
        _ = model.update(.editLoop(.resetFinished(page: page, .undone)))
        #expect(model.notice == "Page 1 is back to the version its reset replaced; it rebuilds and runs again.")
        #expect(!model.currentPage.offersUndo)
        _ = model.update(.editLoop(.resetFinished(page: page, .nothingToUndo)))
        #expect(model.notice == "Page 1 has no reset to undo.")
        _ = model.update(.editLoop(.resetFinished(page: page, .undoFailed("the kept copy is damaged"))))
        #expect(model.notice == "Could not undo the reset of page 1: the kept copy is damaged")
        #expect(Overlays.helpLines(model).contains { $0.keys.contains("x u") && $0.meaning.contains("undo reset") })
    }

    @Test("s cancels a build in flight; r then builds before it runs")
    func cancelBuild() throws {
        var model = try FixturePages.model()
        let (_, build) = try Self.change(&model)
        #expect(model.update(.key(.character("s"))) == [.cancelBuild(buildID: build.buildID)])
        // Its program is older than its source now: the list of pages and the status line say it is still to build.
        #expect(model.currentPage.status == .notBuilt)
        let rerun = model.update(.key(.character("r")))
        let rebuild = try #require(Self.builds(rerun).first)
        #expect(Self.starts(rerun).isEmpty)
        #expect(Self.starts(model.update(.editLoop(.buildFinished(buildID: rebuild.buildID, Self.outcome(.succeeded))))).count == 1)
    }

    @Test("A program older than its source is built before r runs it")
    func staleProgram() throws {
        var model = try FixturePages.model()
        _ = model.update(.editLoop(.watchStarted(page: model.currentPage.page, programIsStale: true)))
        let effects = model.update(.key(.character("r")))
        #expect(Self.starts(effects).isEmpty)
        let build = try #require(Self.builds(effects).first)
        #expect(Self.starts(model.update(.editLoop(.buildFinished(buildID: build.buildID, Self.outcome(.succeeded))))).count == 1)
        // Built now: the next r runs at once.
        #expect(Self.starts(model.update(.key(.character("r")))).count == 1)
    }

    @Test("A page whose source disappears mid-run is stopped and says it cannot build; a hung build says it was stopped")
    func badInput() throws {
        var model = try FixturePages.model()
        let run = try #require(model.update(.key(.character("r"))).last?.runOrder, "r did not start a run")
        let effects = model.update(.editLoop(.sourceUnavailable(page: model.currentPage.page, missing: ["main.swift"], unreadable: [])))
        #expect(effects == [.stop(runID: run.runID)])
        #expect(model.currentPage.status == .cannotBuild)
        #expect(model.notice?.contains("source is not there to build") == true)
        // Nothing to build from: r says so rather than starting a build that can only fail.
        #expect(model.update(.key(.character("r"))).isEmpty)
        #expect(model.notice?.contains("x restores the original") == true)

        let (_, build) = try Self.change(&model)
        _ = model.update(.editLoop(.buildFinished(buildID: build.buildID, Self.outcome(.timedOut))))
        #expect(model.currentPage.status == .cannotBuild)
        #expect(model.notice?.contains("was stopped") == true)
    }

    @Test("An editor that fails or is missing gets a notice naming it and what to set")
    func editorProblems() throws {
        var model = try FixturePages.model()
        _ = model.update(.editLoop(.editorFinished(.failed(editor: "vim", status: 1))))
        #expect(model.notice == "Set VISUAL or EDITOR to an editor that works: 'vim' ended with status 1.")
        _ = model.update(.editLoop(.editorFinished(.notFound(editor: "subl -w", origin: "$EDITOR"))))
        #expect(model.notice == "Set VISUAL or EDITOR to an editor that works: 'subl -w' ($EDITOR) is not a program here.")
    }
}
