import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// The key maps the update handles keys by and the help is drawn from.
@Suite("Key map", .bodiesBelowTheRunner)
struct KeyMapTests {
    @Test("A key does one thing wherever it is pressed")
    func oneActionPerKey() {
        expectOneActionPerKey(TutorialAction.keyMap)
        expectOneActionPerKey(PresenterAction.keyMap)
    }

    @Test("Every action has a key, and every key the help names does what its line says")
    func everyActionBound() {
        expectEveryActionBound(TutorialAction.keyMap)
        expectEveryActionBound(PresenterAction.keyMap)
    }

    @Test("The help's keys are the bound keys, and a focused pane's own bindings come before the others")
    func helpAndLookUp() throws {
        let model = try FixturePages.model()
        let tutorial = TutorialAction.keyMap.helpLines(model)
        #expect(tutorial.first?.keys == "n → p ←")
        #expect(tutorial.contains { $0.group == "Timeline" && $0.keys == "h l j k" })
        // ^L redraws on stage too, and the stage's help says so.
        let presenter = PresenterAction.keyMap.helpLines(model)
        #expect(presenter.contains { $0.group == "Other" && $0.keys == "P Esc ? ^L q" && $0.meaning.contains("redraw") })
        #expect(presenter.contains { $0.group == "Script" && $0.keys == "Space →" })

        #expect(TutorialAction.keyMap.action(for: .character("h")) == .hint)
        #expect(TutorialAction.keyMap.action(for: .character("h"), in: .timeline) == .previousItem)
        #expect(TutorialAction.keyMap.action(for: .character("j"), in: .timeline) == .lineDown)
        #expect(TutorialAction.keyMap.action(for: .character("e"), in: .liveView) == .edit)
        #expect(TutorialAction.keyMap.action(for: .character(","), in: .anywhere) == .slower)
        #expect(TutorialAction.keyMap.action(for: .character("#")) == nil)
    }

    @Test("At 80×24 each help shows every line whole, its keys and its meaning, in Unicode and in ASCII")
    func everyLineShowsWhole() throws {
        for glyphs in [Glyphs.unicode, .ascii] {
            for onStage in [false, true] {
                var model = try FixturePages.model(width: 80, height: 24, glyphs: glyphs)
                if onStage { model.press(.character("P")) }
                model.press(.character("?"))
                let rows = TourRenderer.render(model).lines
                for line in Overlays.helpLines(model) {
                    // ASCII spells the arrows out (`Overlays.ascii`); the meaning is what can be cut.
                    #expect(rows.contains { $0.contains(line.meaning) && (glyphs == .ascii || $0.contains(line.keys)) },
                            "\(glyphs) \(onStage ? "stage" : "tutorial"): \(line.keys) \(line.meaning)")
                }
            }
        }
    }

    @Test("Ctrl-L redraws on stage")
    func presenterRedraws() throws {
        var model = try FixturePages.model()
        model.press(.character("P"))
        #expect(model.update(.key(.redraw)) == [.redrawAll])
    }

    private func expectOneActionPerKey<Action>(_ map: KeyMap<Action>, sourceLocation: SourceLocation = #_sourceLocation) {
        for context in [KeyMap<Action>.Context.anywhere, .timeline, .liveView] {
            var actions: [Key: Action] = [:]
            for binding in map.bindings where binding.context == context {
                for key in binding.keys {
                    if let other = actions[key], other != binding.action {
                        Issue.record("\(key) is bound to both \(other) and \(binding.action) in \(context)", sourceLocation: sourceLocation)
                    }
                    actions[key] = binding.action
                }
            }
        }
    }

    private func expectEveryActionBound<Action: CaseIterable>(_ map: KeyMap<Action>, sourceLocation: SourceLocation = #_sourceLocation) {
        let bound = Set(map.bindings.filter { !$0.keys.isEmpty }.map(\.action))
        for action in Action.allCases where !bound.contains(action) {
            Issue.record("\(action) has no key", sourceLocation: sourceLocation)
        }
        for binding in map.bindings {
            for key in binding.keys where map.action(for: key, in: binding.context) != binding.action {
                Issue.record("\(key) does not do \(binding.action), as its line of the help says", sourceLocation: sourceLocation)
            }
        }
    }
}
