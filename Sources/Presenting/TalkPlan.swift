import PageProtocol
import TourCore

/// What a script needs to know of a page to be checked: the page, the knobs its source declares and how many blocks a
/// presenter reveals on it.
public struct TalkPage: Sendable, Equatable {
    public var page: Page
    public var knobs: [KnobDeclaration]
    public var blockCount: Int

    public init(page: Page, knobs: [KnobDeclaration], blockCount: Int) {
        self.page = page
        self.knobs = knobs
        self.blockCount = blockCount
    }

    /// The page as its files on disk are now.
    public init(reading page: Page) {
        let source = page.readParsedSource()
        self.init(page: page, knobs: source.knobs, blockCount: source.document.presentedBlocks.count)
    }
}

/// A script checked against the pages: the runs it makes, in order, and how long its pauses and waits are.
public struct TalkPlan: Sendable, Equatable {
    /// A run step: the page, with every knob the script set on it so far, at the script's speed and seed by then.
    public struct Run: Sendable, Equatable {
        public var line: Int
        public var page: Page
        public var knobSettings: [KnobSetting]
        public var speed: Double
        /// The script's `seed` by then, or the one the check was given (`--seed`); nil for a run without one.
        public var seed: UInt64?
    }

    public var runs: [Run] = []
    public var pauseSeconds: Double = 0
    public var waits = 0
    public var pagesVisited: [Page] = []

    /// Checks a script as far as it reads against `pages`, as `check(_:pages:catalog:seed:)` does: the lines that did
    /// not parse and the steps that do not fit the pages are named together, in line order, in one pass.
    public static func check(_ reading: TalkScript.Reading, pages: [TalkPage], catalog: PageCatalog, seed: UInt64? = nil) throws(TalkScriptProblems) -> TalkPlan {
        var problems = reading.problems
        do throws(TalkScriptProblems) {
            let plan = try check(reading.script, pages: pages, catalog: catalog, seed: seed, unreadPageLines: reading.unreadPageLines)
            if problems.isEmpty { return plan }
        } catch {
            problems += error.problems
        }
        throw TalkScriptProblems(problems: problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
    }

    /// Checks `script` against `pages` (the catalog's, read): every page, knob and value exists, and no reveal goes past
    /// a page's end. Throws every problem found, each naming its line.
    /// `seed` is the one the runs have until a `seed` step changes it (`tour present --seed N`). After a page that is
    /// not known, or one of `unreadPageLines` (a `page` line that did not parse), the steps that act on a page are not
    /// checked until the next page: whatever they would be told, their page is what is wrong.
    public static func check(_ script: TalkScript, pages: [TalkPage], catalog: PageCatalog, seed: UInt64? = nil,
                             unreadPageLines: [Int] = []) throws(TalkScriptProblems) -> TalkPlan {
        var plan = TalkPlan()
        var problems: [TalkScriptProblem] = []
        var current: TalkPage?
        var pageNotFound = false
        var revealed = 0
        var speed: Double = 1
        var seed = seed
        var knobs: [String: [KnobSetting]] = [:]
        var previousLine = 0
        for step in script.steps {
            func problem(_ message: String) { problems.append(TalkScriptProblem(line: step.line, message)) }
            if unreadPageLines.contains(where: { $0 > previousLine && $0 < step.line }) {
                current = nil
                pageNotFound = true
            }
            previousLine = step.line
            let needsPage: Bool
            switch step.step {
            case .reveal, .set, .run: needsPage = true
            default: needsPage = false
            }
            if needsPage && current == nil {
                if !pageNotFound {
                    problem("`\(step.step.word)` comes before any `page` step, so it has no page to act on; put `page 1` (or its page) above it")
                }
                continue
            }
            switch step.step {
            case .page(let name):
                guard let page = catalog.page(named: name), let facts = pages.first(where: { $0.page == page }) else {
                    problem("there is no page \(EchoedInput.quoted(name)); the pages are \(catalog.choices)")
                    current = nil
                    pageNotFound = true
                    continue
                }
                pageNotFound = false
                current = facts
                revealed = min(1, facts.blockCount)
                plan.pagesVisited.append(page)
            case .reveal(let reveal):
                guard let page = current else { continue }
                switch reveal {
                case .all:
                    revealed = page.blockCount
                case .blocks(let count):
                    guard revealed + count <= page.blockCount else {
                        let left = page.blockCount - revealed
                        problem("`reveal \(count)` goes past the end of page \(page.page.number) (\(page.page.slug)): it has \(page.blockCount) blocks "
                                + "and \(revealed) are shown by then; " + (left > 0 ? "`reveal \(left)` or `reveal all` shows the rest" : "every block is shown already"))
                        continue
                    }
                    revealed += count
                }
            case .set(let name, let value):
                guard let page = current else { continue }
                let pageName = "page \(page.page.number) (\(page.page.slug))"
                guard let knob = page.knobs.first(where: { $0.name == name }) else {
                    problem(KnobSpec.unknownKnob(name, among: page.knobs.map(\.name), of: pageName).description)
                    continue
                }
                do throws(LaunchProblem) {
                    _ = try knob.spec.value(from: value)
                } catch {
                    problem(error.description + "; for example `set \(name) \(knob.spec.defaultValue.text)`")
                    continue
                }
                var settings = knobs[page.page.slug, default: []].filter { $0.name != name }
                if value != knob.spec.defaultValue.text { settings.append(KnobSetting(name: name, value: value)) }
                knobs[page.page.slug] = settings
            case .run:
                guard let page = current else { continue }
                plan.runs.append(Run(line: step.line, page: page.page, knobSettings: knobs[page.page.slug] ?? [], speed: speed, seed: seed))
            case .wait:
                plan.waits += 1
            case .pause(let seconds):
                plan.pauseSeconds += seconds
            case .speed(let factor):
                speed = factor
            case .seed(let value):
                seed = value
            case .note, .caption:
                break
            case .theme:
                if script.steps.first(where: { if case .theme = $0.step { true } else { false } }) != step {
                    problem("the talk has one theme, chosen by its first `theme` step; remove this one")
                }
            case .end:
                if step != script.steps.last {
                    problem("`end` shows the talk's end slide and must be the script's last step; move the steps after it above it")
                }
            }
        }
        guard problems.isEmpty else { throw TalkScriptProblems(problems: problems) }
        return plan
    }
}

extension TalkStep {
    /// The word that starts the step's line.
    public var word: String {
        switch self {
        case .page: "page"
        case .reveal: "reveal"
        case .set: "set"
        case .run: "run"
        case .wait: "wait"
        case .pause: "pause"
        case .note: "note"
        case .caption: "caption"
        case .speed: "speed"
        case .seed: "seed"
        case .end: "end"
        case .theme: "theme"
        }
    }
}
