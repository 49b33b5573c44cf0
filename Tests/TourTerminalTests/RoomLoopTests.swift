import Foundation
import RoomProtocol
import Testing
import TourCore
@testable import TourInterface
import TourTestSupport
@testable import TourTerminal

/// The loop in a room, with fake links: the progress file is published at start and after each write, as written;
/// the link's reports reach the screen; an answer and the presenter's poll reach the links; quitting leaves the room.
@Suite("The effect loop in a room", .bodiesBelowTheRunner, .timeLimit(.minutes(1)))
struct RoomLoopTests {
    @Test("A participant's progress is published at start as the file has it, and again after each write, as ana")
    func progressPublished() async throws {
        let folder = try ProgressFolders.scratchFolder()
        let store = try ProgressFolders.store(in: folder)
        let before = try store.record(.opened(page: "queue")).record
        let link = FakeParticipantLink()
        var publications = link.publications.makeAsyncIterator()
        let harness = try LoopHarness(room: link.seat, progress: store) { $0.room = ParticipantRoom(name: "ana") }
        await harness.start()
        let first = try await link.nextPublication(&publications)
        #expect(first.participant == "ana")
        #expect(first.progress == before)
        #expect(first.writtenAt == ProgressFolders.morning)

        // r, and r again past the page's prediction, runs page 1: the run is recorded, and the record as written goes
        // to the room (after the page's opening, recorded at launch).
        await harness.type(.key(.character("r")), .key(.character("r")))
        var published = try await link.nextPublication(&publications)
        while (published.progress.pages["operation"]?.runs ?? 0) == 0 { published = try await link.nextPublication(&publications) }
        #expect(published.progress == (try store.read().record))
        #expect(published.progress.pages["operation"]?.runs == 1)
    }

    @Test("Progress another command writes (tour check in another terminal) reaches the room at the next look at the file")
    func progressWrittenElsewherePublished() async throws {
        let folder = try ProgressFolders.scratchFolder()
        let store = try ProgressFolders.store(in: folder)
        _ = try store.record(.opened(page: "queue"))
        let link = FakeParticipantLink()
        var publications = link.publications.makeAsyncIterator()
        let harness = try LoopHarness(room: link.seat, progress: store) { $0.room = ParticipantRoom(name: "ana") }
        await harness.start()
        // At start: the file as it is, then the page opened at launch, written here.
        var published = try await link.nextPublication(&publications)
        while published.progress.pages["operation"]?.opens != 1 { published = try await link.nextPublication(&publications) }

        let elsewhere = ProgressStore(file: store.file)
        _ = try elsewhere.record(.checked(page: "queue", exercise: "preview-first", passed: false, firstFailure: "not yet"))
        await harness.clock.advance(by: TourLoop.progressLookInterval)
        published = try await link.nextPublication(&publications)
        #expect(published.progress == (try store.read().record))
        #expect(published.progress.pages["queue"]?.attempts["preview-first"]?.failedChecks == 1)
        // Nothing new: the next look publishes nothing.
        let count = link.noted.withLock { $0.published.count }
        await harness.clock.advance(by: TourLoop.progressLookInterval)
        await harness.loop.settled()
        #expect(link.noted.withLock { $0.published.count } == count)
    }

    @Test("The link's state reaches the status line; a poll heard shows, its answer goes to the link; q leaves the room")
    func statusPollAndLeave() async throws {
        let link = FakeParticipantLink()
        let harness = try LoopHarness(room: link.seat) { $0.room = ParticipantRoom(name: "ana") }
        await harness.start()
        #expect(harness.screen.lines.last?.contains("room: connecting") == true)
        link.report(.connected)
        // What a link reports is drawn at the next frame's turn, as a run's events are: a room that floods is paced.
        await harness.loop.settled()
        await harness.clock.advance(by: TourLoop.frameInterval)
        #expect(harness.screenText.contains("room: connected as ana"))

        let poll = RoomPoll(id: "stage-1", page: "operation", pageNumber: 1, question: "Where does the block run?",
                            choices: [RoomPoll.Choice(key: "a", text: "on the main thread"), RoomPoll.Choice(key: "b", text: "elsewhere")])
        link.hear(.poll(poll))
        await harness.loop.settled()
        await harness.clock.advance(by: TourLoop.frameInterval)
        await harness.type(.key(.character("b")))
        #expect(link.noted.withLock { $0.answers } == [PollAnswer(pollID: "stage-1", choice: "b")])
        #expect(harness.screenText.contains("Answer sent: (b)."))

        await harness.type(.key(.escape), .key(.character("q")))
        #expect(harness.leaveCount == 1)
        #expect(link.noted.withLock { $0.leaves } == 1)
    }

    @Test("On stage the first r asks the room through the leader's link; answers heard are counted; q takes the poll down")
    func presenterAsks() async throws {
        let link = FakeLeaderLink()
        let harness = try LoopHarness(room: link.seat) { model in
            model.startPresenting()
            model.stageRoom = StageRoom(session: "4242-1")
        }
        await harness.start()
        await harness.type(.key(.character("r")))
        #expect(harness.runs.isEmpty, "the first r asks; it runs nothing")
        let asked = try #require(link.calls.withLock { $0 }.first)
        guard case .ask(let poll) = asked else { Issue.record("the first call was \(asked), not a poll"); return }
        #expect(poll.id == "4242-1-1")
        #expect(poll.page == "operation")
        link.hear(.answer(try #require(ParticipantID("tour-000000000000000a")), PollAnswer(pollID: poll.id, choice: poll.choices[0].key)))
        await harness.loop.settled()
        await harness.clock.advance(by: TourLoop.frameInterval)
        #expect(harness.screenText.contains("1 answered"))
        await harness.type(.key(.character("q")))
        #expect(link.calls.withLock { Array($0.suffix(2)) } == [.closePoll, .leave])
    }
}
