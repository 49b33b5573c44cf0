/// Every key the tutorial and the presenter handle, in one table each: the key, what it does, and the line of the
/// help (`?`) that says so. The update looks a key's action up here, and the help is drawn from the same rows, so a
/// key cannot be handled and left out of the help, nor named there and not handled.
struct KeyMap<Action: Hashable & Sendable>: Sendable {
    /// Where a binding holds: anywhere, or only while a pane has the focus, where it comes before the others.
    enum Context: Sendable {
        case anywhere, timeline, liveView
    }

    /// The keys of one action.
    struct Binding: Sendable {
        var action: Action
        /// The keys the help names, in its order.
        var named: [Key]
        /// Keys that do the same and that the help leaves out for room: `,` and `.` for `<` and `>` (which need Shift),
        /// Home and End for g and G, Enter for Space.
        var also: [Key] = []
        var context: Context = .anywhere

        var keys: [Key] { named + also }
    }

    /// One line of the help.
    struct Row: Sendable {
        enum Keys: Sendable {
            /// The keys and what they do.
            case bound([Binding])
            /// Keys bound on another row, explained again for another situation.
            case reminder(of: Action)
            /// No key: a sign on the screen, explained (the list's marks, the meter).
            case sign(@Sendable (Glyphs) -> String)
        }

        var group: String
        var keys: Keys
        var meaning: @Sendable (TourModel) -> String

        init(_ group: String, _ keys: Keys, _ meaning: String) {
            self.init(group, keys) { _ in meaning }
        }

        /// A row that goes on with the group of the row above it.
        init(_ keys: Keys, _ meaning: String) {
            self.init("", keys, meaning)
        }

        init(_ group: String, _ keys: Keys, meaning: @escaping @Sendable (TourModel) -> String) {
            self.group = group
            self.keys = keys
            self.meaning = meaning
        }
    }

    let rows: [Row]

    var bindings: [Binding] {
        rows.flatMap { row -> [Binding] in
            if case .bound(let bindings) = row.keys { bindings } else { [] }
        }
    }

    /// What `key` does in `context`: a binding of that context first, then one that holds anywhere.
    func action(for key: Key, in context: Context = .anywhere) -> Action? {
        let all = bindings
        let inContext = all.first { $0.context == context && $0.keys.contains(key) }
        return (inContext ?? all.first { $0.context == .anywhere && $0.keys.contains(key) })?.action
    }

    /// The help's lines: each row's group, the keys it names (or the sign it explains), and its meaning.
    func helpLines(_ model: TourModel) -> [(group: String, keys: String, meaning: String)] {
        rows.map { row in
            let keys: String
            switch row.keys {
            case .bound(let bindings): keys = Self.names(of: bindings)
            case .reminder(let action): keys = Self.names(of: bindings.filter { $0.action == action })
            case .sign(let sign): keys = sign(model.glyphs)
            }
            return (row.group, keys, row.meaning(model))
        }
    }

    private static func names(of bindings: [Binding]) -> String {
        bindings.flatMap(\.named).map(\.helpName).joined(separator: " ")
    }

    /// The keys that choose a knob and change it, the same in the tutorial and on stage.
    static func knobBindings(previous: Action, next: Action, lower: Action, raise: Action) -> [Binding] {
        [Binding(action: previous, named: [.character("[")]),
         Binding(action: next, named: [.character("]")]),
         Binding(action: lower, named: [.character("-")], also: [.character("_")]),
         Binding(action: raise, named: [.character("+")], also: [.character("=")])]
    }

    /// The keys that slow the simulated waits down and speed them up, the same in the tutorial and on stage.
    static func speedBindings(slower: Action, faster: Action) -> [Binding] {
        [Binding(action: slower, named: [.character("<")], also: [.character(",")]),
         Binding(action: faster, named: [.character(">")], also: [.character(".")])]
    }
}

extension Key {
    /// How the help names the key.
    var helpName: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Bksp"
        case .redraw: "^L"
        }
    }
}

/// What a key does in the tutorial (`TourModel.handle(_:)`, `handleTimeline`, `handleLiveView`).
enum TutorialAction: Hashable, Sendable, CaseIterable {
    case nextPage, previousPage, toggleDeepDive, toggleAllDeepDives
    case run, stop, slower, faster
    case previousKnob, nextKnob, lowerKnob, raiseKnob
    case nextPane, previousPane, zoom, unzoom
    case lineDown, lineUp, pageDown, pageUp, top, bottom
    case edit, nextDiagnostic, previousDiagnostic, askToReset, undoReset
    case predict, check, editExercise, hint, solution, switchShownRun
    case help, redraw, quit, nextWarning, savePictures, present, playLevel, roomPoll
    /// The live view's, while it has the focus.
    case liveLineDown, liveLineUp, livePageDown, livePageUp, letGo, fullSize, leaveFullSize
    /// The timeline's, while it has the focus.
    case previousItem, nextItem, zoomIn, zoomOut, fitRun, zoomToSelection, panLeft, panRight, follow, nextView, search
}

/// What a key does on stage (`TourModel.handlePresenter(_:)`).
enum PresenterAction: Hashable, Sendable, CaseIterable {
    case forward, back, nextPage, previousPage
    case run, stop, toggleRun
    case previousKnob, nextKnob, lowerKnob, raiseKnob, slower, faster
    case scrollBack, scrollDown
    case leave, help, redraw, quit, playLevel
}

extension TutorialAction {
    typealias Row = KeyMap<TutorialAction>.Row
    typealias Binding = KeyMap<TutorialAction>.Binding

    /// The tutorial's keys, in the order of its help; besides the keys, what the marks in the list of pages and the
    /// meter atop the timeline say (`SidebarView`, `ConcurrencyMeter`): they have no key of their own, and are the
    /// signs a learner asks about.
    static let keyMap = KeyMap(rows: [
        Row("Pages", .bound([Binding(action: .nextPage, named: [.character("n"), .right]),
                             Binding(action: .previousPage, named: [.character("p"), .left])]),
            "next / previous page (or click one in the list)"),
        Row(.sign { "\($0.exercisesOpen) \($0.exercisesDone)" }, "exercises to do / answered, check passed"),
        Row(.bound([Binding(action: .toggleDeepDive, named: [.character("o")]),
                    Binding(action: .toggleAllDeepDives, named: [.character("O")])]),
            "open / close the deep dive in view / all of them"),
        Row("Run", .bound([Binding(action: .run, named: [.character("r")]), Binding(action: .stop, named: [.character("s")])]
                          + KeyMap.speedBindings(slower: .slower, faster: .faster)),
            "run (again) / stop run or build / slower, faster"),
        Row("Knobs", .bound(KeyMap.knobBindings(previous: .previousKnob, next: .nextKnob, lower: .lowerKnob, raise: .raiseKnob)),
            "choose a knob / change its value; r runs with it"),
        Row("Panes", .bound([Binding(action: .nextPane, named: [.tab]), Binding(action: .previousPane, named: [.backTab])]),
            "next / previous pane; a click focuses one"),
        Row(.bound([Binding(action: .zoom, named: [.character("z")]), Binding(action: .unzoom, named: [.escape])]),
            "zoom the focused pane to the full screen / back"),
        Row("Scroll", .bound([Binding(action: .lineDown, named: [.character("j"), .down]),
                              Binding(action: .lineUp, named: [.character("k"), .up])]),
            "a line down / up (or the mouse wheel)"),
        Row(.bound([Binding(action: .pageDown, named: [.pageDown], also: [.character(" ")]),
                    Binding(action: .pageUp, named: [.pageUp])]),
            "a screenful down / up"),
        Row(.bound([Binding(action: .top, named: [.character("g")], also: [.home]),
                    Binding(action: .bottom, named: [.character("G")], also: [.end])]),
            "top / bottom (output: G follows new lines)"),
        // j and k scroll the list too, PgDn, Space and PgUp by a few rows; Esc goes back from a row at full size.
        Row("Live", .bound([Binding(action: .liveLineDown, named: [.down], also: [.character("j")], context: .liveView),
                            Binding(action: .liveLineUp, named: [.up], also: [.character("k")], context: .liveView),
                            Binding(action: .livePageDown, named: [], also: [.pageDown, .character(" ")], context: .liveView),
                            Binding(action: .livePageUp, named: [], also: [.pageUp], context: .liveView),
                            Binding(action: .letGo, named: [.enter], context: .liveView),
                            Binding(action: .fullSize, named: [.character("f")], context: .liveView),
                            Binding(action: .leaveFullSize, named: [], also: [.escape], context: .liveView)]),
            "scroll a running list / let go / a row full size"),
        Row("Timeline", .bound([Binding(action: .previousItem, named: [.character("h")], context: .timeline),
                                Binding(action: .nextItem, named: [.character("l")], context: .timeline),
                                // The scroll keys move the lanes, as ↓ and ↑ do.
                                Binding(action: .lineDown, named: [.character("j")], context: .timeline),
                                Binding(action: .lineUp, named: [.character("k")], context: .timeline)]),
            "previous / next span or mark; lane down / up"),
        Row(.bound([Binding(action: .zoomIn, named: [.character("i")], context: .timeline),
                    Binding(action: .zoomOut, named: [.character("o")], context: .timeline),
                    Binding(action: .fitRun, named: [.character("0")], context: .timeline),
                    Binding(action: .zoomToSelection, named: [.character("Z")], context: .timeline)]),
            "zoom in / out / fit the run / to the selection"),
        Row(.bound([Binding(action: .panLeft, named: [.character("H")], context: .timeline),
                    Binding(action: .panRight, named: [.character("L")], context: .timeline),
                    Binding(action: .follow, named: [.character("F")], context: .timeline),
                    Binding(action: .nextView, named: [.character("t")], context: .timeline),
                    Binding(action: .search, named: [.character("/")], context: .timeline)]),
            "pan / follow the live edge / next view / search"),
        Row("Meter", .sign { _ in "run/N" }, "threads running, of N cores; a digit or +: more"),
        Row(.sign { _ in "open/N" }, "spans open of the widest queue limit, else cores"),
        Row("Edit", .bound([Binding(action: .edit, named: [.character("e")])]), meaning: { model in
            model.editing.editor.map { "edit in \($0) (\(model.editing.editorOrigin)); a save reruns" }
                ?? "edit the page: set VISUAL or EDITOR first"
        }),
        Row(.bound([Binding(action: .nextDiagnostic, named: [.character("d")]),
                    Binding(action: .previousDiagnostic, named: [.character("D")]),
                    Binding(action: .askToReset, named: [.character("x")]),
                    Binding(action: .undoReset, named: [.character("u")])]),
            "messages / restore original (asks) / undo reset"),
        Row("Exercise", .bound([Binding(action: .predict, named: [.character("a")]),
                                Binding(action: .check, named: [.character("c")]),
                                Binding(action: .editExercise, named: [.character("E")])]),
            "answer the prediction / check the code / edit it"),
        Row(.bound([Binding(action: .hint, named: [.character("h")]),
                    Binding(action: .solution, named: [.character("v")]),
                    Binding(action: .switchShownRun, named: [.character("C")])]),
            "hint (timeline keeps h) / solution / check's run"),
        Row("Other", .bound([Binding(action: .help, named: [.character("?")]),
                             Binding(action: .redraw, named: [.redraw]),
                             Binding(action: .quit, named: [.character("q")])]),
            "this help / redraw / quit (asks during a run)"),
        Row(.bound([Binding(action: .nextWarning, named: [.character("W")]),
                    Binding(action: .savePictures, named: [.character("S")]),
                    Binding(action: .present, named: [.character("P")]),
                    Binding(action: .playLevel, named: [.character("B")]),
                    Binding(action: .roomPoll, named: [.character("R")])]),
            "warnings / picture / present / level / poll"),
    ])
}

extension PresenterAction {
    typealias Row = KeyMap<PresenterAction>.Row
    typealias Binding = KeyMap<PresenterAction>.Binding

    /// The presenter's keys (`tour present`, `P`), in the order of its help.
    static let keyMap = KeyMap(rows: [
        Row("Reveal", .bound([Binding(action: .forward, named: [.character(" "), .right], also: [.enter]),
                              Binding(action: .back, named: [.left], also: [.character("b")])]),
            "next block (at the end, the next page) / back one"),
        Row("Pages", .bound([Binding(action: .nextPage, named: [.character("n")], also: [.pageDown]),
                             Binding(action: .previousPage, named: [.character("p")], also: [.pageUp])]),
            "next / previous page of the talk"),
        Row("Run", .bound([Binding(action: .run, named: [.character("r")]),
                           Binding(action: .stop, named: [.character("s")]),
                           Binding(action: .toggleRun, named: [.character("t")])]),
            "run (room: ask first) / stop / hide the run"),
        Row("Knobs", .bound(KeyMap.knobBindings(previous: .previousKnob, next: .nextKnob, lower: .lowerKnob, raise: .raiseKnob)),
            "choose / change a knob; the room sees a caption"),
        Row("Speed", .bound(KeyMap.speedBindings(slower: .slower, faster: .faster)),
            "slower / faster simulated waits"),
        Row("Scroll", .bound([Binding(action: .scrollBack, named: [.character("k"), .up]),
                              Binding(action: .scrollDown, named: [.character("j"), .down])]),
            "back up the page / down again"),
        Row("Script", .reminder(of: .forward), "end a wait or cut a pause short; Enter too"),
        Row("Level", .bound([Binding(action: .playLevel, named: [.character("B")])]),
            "play the page's level for the room"),
        Row("Other", .bound([Binding(action: .leave, named: [.character("P"), .escape]),
                             Binding(action: .help, named: [.character("?")]),
                             Binding(action: .redraw, named: [.redraw]),
                             Binding(action: .quit, named: [.character("q")])]),
            "back to the tutorial / this help / redraw / quit"),
    ])
}
