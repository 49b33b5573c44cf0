import Foundation
import RoomLink
import RoomProtocol
import Testing
import TourCore
import TourTestSupport

/// A participant as one joins a workshop: the real `tour --room HOST:PORT --name ana` in tmux, on a broker started as
/// `tour room` starts one, heard by a leader's link of the test's own: the progress published at start, the status
/// line, a poll on stage answered by its key, and the participant leaving.
@Suite("A participant in a room, in tmux", .bodiesBelowTheRunner)
struct RoomParticipantInTmuxTests {
    @Test("tour --room publishes ana's progress, shows the room connected, answers a poll by its key, and leaves on q",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func aParticipantJoinsAnswersAndLeaves() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let heard = HeardEvents<RoomLinkUpdate>()
        let leader = LeaderLink(address: broker.localAddress, password: broker.passwords.leader) { heard.record($0) }
        defer { leader.leave() }

        let tmux = Tmux()
        defer { tmux.stop() }
        let tour = BuildProducts.executable(named: "tour")
        try await tmux.start("\(tour) --room \(broker.localAddress) --name ana; sleep 30", width: 80, height: 24,
                             environment: ["TOUR_ROOM_PASSWORD": broker.passwords.room])
        try await tmux.waitFor("room: connected as ana") { $0.contains("room: connected as ana") }

        // The page opened at launch is recorded, and the record as written published.
        func anaOnPageOne(_ updates: [RoomLinkUpdate]) -> ParticipantID? {
            updates.lazy.compactMap { update -> ParticipantID? in
                guard case .event(.state(let id, let progress)) = update, progress.participant == "ana",
                      (progress.progress.pages["operation"]?.opens ?? 0) >= 1 else { return nil }
                return id
            }.first
        }
        #expect(await heard.wait { anaOnPageOne($0) != nil })
        let ana = try #require(anaOnPageOne(heard.all))
        #expect(heard.all.contains(.event(.presence(ana, .online))))

        let poll = RoomPoll(id: "e2e-1", page: "async", pageNumber: 3, question: "Which comes first in the e2e poll?",
                            choices: [RoomPoll.Choice(key: "a", text: "the queue's finish"), RoomPoll.Choice(key: "b", text: "the download")])
        leader.ask(poll)
        try await tmux.waitFor("the poll over the page") { $0.contains("Which comes first in the e2e poll?") }
        try await tmux.send("b")
        #expect(await heard.wait { $0.contains(.event(.answer(ana, PollAnswer(pollID: "e2e-1", choice: "b")))) })
        try await tmux.waitFor("the answer said sent") { $0.contains("Answer sent: (b).") }

        try await tmux.send("Escape")
        try await tmux.send("q")
        #expect(await heard.wait { $0.contains(.event(.presence(ana, .offline))) })
    }
}
