import Testing
import PageProtocol
@testable import TourInterface
import TourTestSupport

/// The full-screen play's pure core: what each key asks for, what a state the level sends shows, and the screen drawn
/// from it: a column a thread with its code and current line, the shared values, the locks and the lanes.
@Suite("A level's board", .bodiesBelowTheRunner)
struct LevelBoardTests {
    static let description = LevelDescription(name: "lost-update", version: 1, title: "The lost update", page: 8, introduction: "",
                                              hints: [], goal: "count ends below 2", fix: "a lock", threads: ["T1", "T2"])
    static let source = ["var count = 0", "func increment() {", "    let loaded = count", "    count = loaded + 1", "}"]

    static func state(steps: [Int], t1: LevelThreadState.Status = .enabled, t2: LevelThreadState.Status = .enabled, holds: [String] = [],
                      failure: LevelFailure? = nil, refusal: String? = nil) -> PlayState {
        PlayState(threads: [LevelThreadState(id: 1, name: "T1", status: t1, line: 3, next: "load count", blockedOn: nil, holds: holds),
                            LevelThreadState(id: 2, name: "T2", status: t2, line: 4, next: "store count = 1",
                                             blockedOn: t2 == .blocked ? "lock L" : nil, holds: [])],
                  shared: [SharedValueState(name: "count", value: "1")],
                  steps: steps.map { LevelStep(thread: $0, action: "step") }, ended: failure != nil, failure: failure, refusal: refusal)
    }

    @Test func keysWaitForTheFirstStateThenStepUndoAndRestart() throws {
        var board = LevelBoard(description: Self.description, source: Self.source, fixed: false)
        #expect(board.press(.character("1")) == nil, "nothing to step before the level's first state")
        #expect(board.press(.character("q")) == .quit, "q always quits")
        board.show(Self.state(steps: []))
        #expect(board.press(.character("u")) == nil)
        #expect(board.note.hasPrefix("Nothing to undo yet."))
        #expect(board.press(.character("3")) == nil, "no thread 3")
        #expect(board.press(.character("2")) == .step(2))
        #expect(board.press(.character("1")) == nil, "a key waits while a step is on its way")
        board.show(Self.state(steps: [2, 1, 1]))
        #expect(board.press(.character("u")) == .replay([2, 1]), "undo replays the schedule but its last step in a fresh run")
        board.show(Self.state(steps: [2, 1]))
        #expect(board.press(.character("r")) == .replay([]))
    }

    @Test func aRefusalAndAWinAreSaidInTheNote() throws {
        var board = LevelBoard(description: Self.description, source: Self.source, fixed: false)
        board.show(Self.state(steps: [1], t2: .blocked, refusal: "T2 is blocked"))
        #expect(board.note.hasPrefix("Refused: T2 is blocked."))
        let failure = LevelFailure(kind: .lostUpdate, message: "count is 1 after two increments")
        board.show(Self.state(steps: [1, 2, 1, 2], failure: failure))
        #expect(board.note.hasPrefix("You won: count is 1 after two increments.\nThe schedule: 1 2 1 2."))
        let deadlock = LevelFailure(kind: .deadlock, message: "2 threads alive and none can step", waitFor: [
            WaitForEdge(thread: 1, holds: ["A"], waitsFor: "lock B", heldBy: 2), WaitForEdge(thread: 2, holds: ["B"], waitsFor: "lock A", heldBy: 1),
        ])
        board.show(Self.state(steps: [1, 2], failure: deadlock))
        #expect(board.note.split(separator: "\n").dropFirst().prefix(2) == [
            "T1 holds A and waits for lock B, which T2 holds", "T2 holds B and waits for lock A, which T1 holds",
        ], "a deadlock's win shows its wait-for graph, an edge a line")
        board.show(Self.state(steps: [1, 2, 1, 2], failure: failure))
        #expect(board.press(.character("1")) == nil, "the run has ended")
        #expect(board.press(.character("u")) == .replay([1, 2, 1]))
        board.fail("level lost-update was killed by signal 6")
        #expect(board.note == "level lost-update was killed by signal 6 (r restarts, q quits)")
    }

    @Test func theScreenHasAColumnAThreadItsLineMarkedSharedValuesLocksAndLanes() throws {
        var board = LevelBoard(description: Self.description, source: Self.source, fixed: false)
        board.show(Self.state(steps: [1, 2, 1], t2: .blocked, holds: ["L"]))
        let lines = LevelBoardView.render(board, size: Size(width: 80, height: 24), glyphs: .ascii).lines
        #expect(lines[0] == " Level lost-update: The lost update")
        let heading = try #require(lines.first { $0.contains("1 T1: enabled") })
        #expect(heading.contains("2 T2: blocked on lock L"))
        let t1Marked = try #require(lines.firstIndex { $0.hasPrefix(">3       let loaded = count") })
        #expect(lines[t1Marked + 1].contains(">4       count = loaded + 1"), "each column marks its own thread's line")
        #expect(!lines[t1Marked].dropFirst().contains(">"), "T2 is not on line 3")
        #expect(lines.contains(" Shared: count = 1"))
        #expect(lines.contains(" Locks: L held by T1"))
        #expect(lines.contains(" T1      #.#"))
        #expect(lines.contains(" T2      .#."))
    }

    @Test func aWinIsSaidOnceARunWhenItHappensSoRestartingBeforeQuittingKeepsIt() throws {
        let failure = LevelFailure(kind: .lostUpdate, message: "count is 1 after two increments")
        var board = LevelBoard(description: Self.description, source: Self.source, fixed: false)
        let said1 = board.show(Self.state(steps: []))
        #expect(!said1)
        let said2 = board.show(Self.state(steps: [1, 2, 1]))
        #expect(!said2)
        let said3 = board.show(Self.state(steps: [1, 2, 1, 2], failure: failure))
        #expect(said3, "the win is for the shell to record now")
        let said4 = board.show(Self.state(steps: [1, 2, 1, 2], failure: failure, refusal: "the run has ended"))
        #expect(!said4, "the same run's win, once")
        #expect(board.press(.character("r")) == .replay([]))
        let said5 = board.show(Self.state(steps: []))
        #expect(!said5, "restarted: the state quit on would hold no win, and the win was said before")
        _ = board.press(.character("2"))
        let said6 = board.show(Self.state(steps: [2, 1, 2, 1], failure: failure))
        #expect(said6, "a new run's win is said again")
        _ = board.press(.character("u"))
        let said7 = board.show(Self.state(steps: [2, 1, 2, 1], failure: failure))
        #expect(said7, "an undo replays into a fresh run")

        var fix = LevelBoard(description: Self.description, source: Self.source, fixed: true)
        let said8 = fix.show(Self.state(steps: [1, 2], failure: failure))
        #expect(!said8, "a failure of the fix is no win of the level")
    }

    @Test func theLanesMarkEachStepWithItsGateAndWorkOutsideTheGatesOnARowOfItsOwn() throws {
        var board = LevelBoard(description: Self.description, source: Self.source, fixed: false)
        var state = Self.state(steps: [])
        state.steps = [LevelStep(thread: 1, action: "lock L", kind: .lock), LevelStep(thread: 2, action: "load count → 0", kind: .load),
                       LevelStep(thread: 1, action: "store count = 1", kind: .store), LevelStep(thread: 1, action: "unlock L", kind: .unlock)]
        state.ungated = [UngatedWork(thread: nil, afterStep: 0, what: "passed store count"),
                         UngatedWork(thread: 2, afterStep: 2, what: "printed 'hello'")]
        board.show(state)
        let lines = LevelBoardView.render(board, size: Size(width: 80, height: 24), glyphs: .ascii).lines
        #expect(lines.contains(" T1      [.s]"))
        #expect(lines.contains(" T2      .l.."))
        #expect(lines.contains(" ungated ?2"), "an escaped thread's work at the start, T2's during its step")
        #expect(lines.contains(" Ungated: T2 printed 'hello' after step 2"))
        #expect(lines.contains("         l load  s store  [ lock  ] unlock"))
    }

    @Test func aLongRunShowsItsLatestStepsInEveryLaneAlike() throws {
        var board = LevelBoard(description: Self.description, source: Self.source, fixed: false)
        var state = Self.state(steps: Array(repeating: [1, 2], count: 60).flatMap { $0 })
        state.ungated = [UngatedWork(thread: 1, afterStep: 120, what: "printed 'last'"), UngatedWork(thread: 1, afterStep: 3, what: "printed 'first'")]
        board.show(state)
        let lines = LevelBoardView.render(board, size: Size(width: 40, height: 24), glyphs: .ascii).lines
        let t1 = try #require(lines.first { $0.hasPrefix(" T1 ") })
        #expect(t1.count == 40 - 1, "the lane fills the row: \(t1)")
        #expect(t1.hasSuffix("#.#."), "the latest steps")
        let ungated = try #require(lines.first { $0.hasPrefix(" ungated") })
        #expect(ungated.hasSuffix("1") && ungated.count == 39, "work during the last step stands under it; work scrolled off is not drawn")
    }
}
