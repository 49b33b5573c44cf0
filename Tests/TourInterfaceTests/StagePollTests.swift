import Foundation
import Presenting
import RoomProtocol
import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// `tour present --room`: on a page with a prediction the first `r` asks the room, the answers are counted live (the
/// latest per participant, this poll's only), the second `r` runs the page and its end publishes the outcome.
@Suite("Polls on stage", .bodiesBelowTheRunner)
struct StagePollTests {
    static let ana = ParticipantID("tour-000000000000000a")!
    static let bob = ParticipantID("tour-000000000000000b")!
    static let cem = ParticipantID("tour-000000000000000c")!

    /// The presenter on the fixture pages (the queue page has a prediction, the dispatch page none), with a room.
    static func model(width: Int = 120, height: Int = 40) throws -> TourModel {
        var model = try FixtureExercises.model(width: width, height: height)
        model.startPresenting()
        model.stageRoom = StageRoom(session: "4242-1")
        _ = model.update(.room(.status(.connected)))
        _ = model.update(.tick(now: PresenterFixtures.start))
        return model
    }

    /// Presses r on stage and returns the poll it asked.
    static func ask(_ model: inout TourModel) throws -> RoomPoll {
        let effects = model.update(.key(.character("r")))
        let asked = effects.compactMap { effect -> RoomPoll? in if case .askRoom(let poll) = effect { poll } else { nil } }
        #expect(effects.allSatisfy { $0.runOrder == nil }, "the first r runs nothing")
        return try #require(asked.first)
    }

    static func answer(_ model: inout TourModel, _ participant: ParticipantID, _ choice: String, poll: String) {
        _ = model.update(.room(.heard(.answer(participant, PollAnswer(pollID: poll, choice: choice)))))
    }

    /// Ana answers a, Bob and Cem b.
    static func answerAB(_ model: inout TourModel, poll: String) {
        answer(&model, ana, "a", poll: poll)
        answer(&model, bob, "b", poll: poll)
        answer(&model, cem, "b", poll: poll)
    }

    @Test("The first r publishes the page's prediction as a poll with a fresh id; a later one on another visit gets another")
    func firstRAsks() throws {
        var model = try Self.model()
        let poll = try Self.ask(&model)
        #expect(poll == RoomPoll(id: "4242-1-1", page: "queue", pageNumber: 1, question: FixtureExercises.prediction.question,
                                 choices: [RoomPoll.Choice(key: "a", text: "the main thread"), RoomPoll.Choice(key: "b", text: "a worker thread")]))
        #expect(model.stageRoom?.poll?.page == 0)
        // Another page takes the poll down; back on this one, r asks afresh.
        #expect(model.update(.key(.character("n"))).contains(.closeRoomPoll))
        #expect(model.stageRoom?.poll == nil)
        _ = model.update(.key(.character("p")))
        #expect(try Self.ask(&model).id == "4242-1-2")
    }

    @Test("A talk's run step asks the room first, as r does, and waits for a key; the key runs the page")
    func aScriptsRunStepAsksFirst() throws {
        var model = try FixtureExercises.model()
        let catalog = try FixturePages.catalog()
        let playback = try #require(TalkPlayback(try TalkScript.parse("page 1\nrun\nwait\n")) { name in
            catalog.page(named: name).flatMap { catalog.pages.firstIndex(of: $0) }
        })
        model.startPresenting(playback: playback)
        model.stageRoom = StageRoom(session: "4242-1")
        _ = model.update(.room(.status(.connected)))
        let started = model.update(.tick(now: PresenterFixtures.start))
        let asked = started.compactMap { effect -> RoomPoll? in if case .askRoom(let poll) = effect { poll } else { nil } }
        #expect(asked.map(\.question) == [FixtureExercises.prediction.question])
        #expect(started.allSatisfy { $0.runOrder == nil }, "asking runs nothing")
        #expect(model.presenter?.playback?.waiting == .key)

        Self.answerAB(&model, poll: try #require(asked.first).id)
        let ran = model.update(.key(.character(" ")))
        #expect(ran.contains { $0.runOrder != nil }, "the key runs the page: \(ran)")
        #expect(!ran.contains { if case .askRoom = $0 { true } else { false } })
        #expect(model.stageRoom?.poll?.counts == ["a": 1, "b": 2])
    }

    @Test("Answers are counted live: the latest per participant, only this poll's, only its choices")
    func answersCounted() throws {
        var model = try Self.model()
        let poll = try Self.ask(&model)
        Self.answerAB(&model, poll: poll.id)
        Self.answer(&model, Self.ana, "b", poll: poll.id)
        Self.answer(&model, Self.bob, "b", poll: "an-earlier-poll")
        Self.answer(&model, Self.cem, "z", poll: poll.id)
        #expect(model.stageRoom?.poll?.counts == ["a": 0, "b": 3])
        let screen = TourRenderer.render(model)
        #expect(screen.find("3 answered") != nil)
        #expect(screen.find("Asked the room") != nil)
        #expect(screen.find(poll.question) != nil)
        #expect(model.presenterSnapshot?.poll == PollTally(question: poll.question, choices: [
            PollTally.Choice(key: "a", text: "the main thread", count: 0), PollTally.Choice(key: "b", text: "a worker thread", count: 3)]))
    }

    @Test("A room that invents participants by the thousand is counted up to the limit, and no further")
    func countIsBounded() throws {
        var model = try Self.model()
        let poll = try Self.ask(&model)
        for index in 0..<(StagePoll.maximumAnswers + 50) {
            let id = try #require(ParticipantID("flood-\(index)"))
            Self.answer(&model, id, "a", poll: poll.id)
        }
        #expect(model.stageRoom?.poll?.answers.count == StagePoll.maximumAnswers)
        // One already counted may still change their answer.
        Self.answer(&model, try #require(ParticipantID("flood-0")), "b", poll: poll.id)
        #expect(model.stageRoom?.poll?.counts == ["a": StagePoll.maximumAnswers - 1, "b": 1])
    }

    @Test("The second r runs the page; its end publishes the outcome with the counts, and the screen says how many were right")
    func secondRRunsAndAnswers() throws {
        var model = try Self.model()
        let poll = try Self.ask(&model)
        Self.answerAB(&model, poll: poll.id)
        let order = try #require(model.update(.key(.character("r"))).lazy.compactMap(\.runOrder).first)
        var published: [TourEffect] = []
        for event in RunScript.finishedQueueRun.events { published += model.update(.host(runID: order.runID, event)) }
        var answered = poll
        answered.outcome = RoomPoll.Outcome(rightChoice: "b", happened: "it ran on T1, a worker", counts: ["a": 1, "b": 2])
        #expect(published.contains(.askRoom(answered)))
        #expect(model.stageRoom?.poll?.poll.outcome == answered.outcome)
        #expect(TourRenderer.render(model).find("2 of 3 right: it ran on T1, a worker") != nil)
        #expect(model.presenterSnapshot?.poll?.summary == "2 of 3 right")
        // Answers after the outcome are not counted, and r runs the page again without asking.
        Self.answer(&model, Self.ana, "b", poll: poll.id)
        #expect(model.stageRoom?.poll?.counts == ["a": 1, "b": 2])
        #expect(model.update(.key(.character("r"))).lazy.compactMap(\.runOrder).first != nil)
    }

    @Test("A run that cannot tell leaves the poll open and says so; the next run answers it")
    func runThatCannotTell() throws {
        var model = try Self.model()
        let poll = try Self.ask(&model)
        let stopped = try #require(model.update(.key(.character("r"))).lazy.compactMap(\.runOrder).first)
        var crashed = RunScript()
        crashed.end(.exited(code: 1), at: 10)
        var published: [TourEffect] = []
        for event in crashed.events { published += model.update(.host(runID: stopped.runID, event)) }
        #expect(!published.contains { if case .askRoom = $0 { true } else { false } })
        #expect(model.notice?.hasPrefix("This run cannot tell") == true)
        #expect(model.stageRoom?.poll?.poll.outcome == nil)
        let order = try #require(model.update(.key(.character("r"))).lazy.compactMap(\.runOrder).first)
        published = []
        for event in RunScript.finishedQueueRun.events { published += model.update(.host(runID: order.runID, event)) }
        #expect(published.contains { if case .askRoom(let asked) = $0 { asked.id == poll.id && asked.outcome != nil } else { false } })
    }

    @Test("A page without a prediction runs at the first r, room or not; without a room r runs as it always did")
    func noPredictionOrNoRoom() throws {
        var model = try Self.model()
        _ = model.update(.key(.character("n")))
        #expect(model.current == 1)
        #expect(model.update(.key(.character("r"))).contains { $0.runOrder != nil })
        #expect(model.stageRoom?.poll == nil)

        var alone = try FixtureExercises.model()
        alone.startPresenting()
        #expect(alone.update(.key(.character("r"))).contains { $0.runOrder != nil })
    }

    @Test("Leaving the stage takes the poll down")
    func leavingTheStage() throws {
        var model = try Self.model()
        _ = try Self.ask(&model)
        #expect(model.update(.key(.escape)).contains(.closeRoomPoll))
        #expect(model.presenter == nil)
        #expect(model.stageRoom?.poll == nil)
    }

    @Test("The answers on the presenter's screen, by snapshot at 120×40 and 80×24: counted, then answered", arguments: [(120, 40), (80, 24)])
    func snapshots(width: Int, height: Int) throws {
        var model = try Self.model(width: width, height: height)
        let poll = try Self.ask(&model)
        Self.answerAB(&model, poll: poll.id)
        Snapshot.expect(TourRenderer.render(model).lines, matches: "stage-poll-counting-\(width)")
        let order = try #require(model.update(.key(.character("r"))).lazy.compactMap(\.runOrder).first)
        for event in RunScript.finishedQueueRun.events { _ = model.update(.host(runID: order.runID, event)) }
        Snapshot.expect(TourRenderer.render(model).lines, matches: "stage-poll-answered-\(width)")
    }

    @Test("tour notes shows the poll's question and counts, then how many were right")
    func notesShowTheCount() throws {
        var model = try Self.model()
        let poll = try Self.ask(&model)
        Self.answer(&model, Self.ana, "a", poll: poll.id)
        Self.answer(&model, Self.bob, "b", poll: poll.id)
        let snapshot = try #require(model.presenterSnapshot)
        let lines = NotesView.render(NotesScreenState(session: "4242", snapshot: snapshot), size: Size(width: 80, height: 24), glyphs: .unicode)
            .lines(in: Rect(x: 0, y: 0, width: 80, height: 24))
        #expect(lines.contains("ROOM POLL · 2 answered"))
        #expect(lines.contains("    a  1  the main thread"))
        #expect(lines.contains("    b  1  a worker thread"))
        // The snapshot travels as JSON to tour notes, the poll with it.
        let decoded = try JSONDecoder().decode(PresenterSnapshot.self, from: try JSONEncoder().encode(snapshot))
        #expect(decoded.poll == snapshot.poll)
        var answered = try #require(snapshot.poll)
        answered.rightChoice = "b"
        var withOutcome = snapshot
        withOutcome.poll = answered
        let after = NotesView.render(NotesScreenState(session: "4242", snapshot: withOutcome), size: Size(width: 80, height: 24), glyphs: .unicode)
            .lines(in: Rect(x: 0, y: 0, width: 80, height: 24))
        #expect(after.contains("ROOM POLL · 1 of 2 right"))
        #expect(after.contains("  ✓ b  1  a worker thread"))
    }
}
