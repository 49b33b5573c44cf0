@preconcurrency import Glibc
import Foundation
import MQTT
@testable import RoomLink
import RoomProtocol
import Testing
import TourCore
import TourTestSupport

/// The links over the real mosquitto, started as `tour room` starts it (`TestBroker`).
@Suite(.bodiesBelowTheRunner) struct RoomLinkTests {
    @Test func thirtyParticipantsPublishAndTheLeaderSeesEveryState() async throws {
        let room = try await TestRoom(participants: 30)
        defer { room.leave() }
        let (heard, ids, participants) = (room.heard, room.ids, room.participants)
        for (number, participant) in participants.enumerated() {
            participant.publish(progress("p\(number)", page: "0\(number % 9 + 1)-Page"))
        }
        let everyone = await heard.wait { updates in
            let room = RoomView(updates)
            return ids.allSatisfy { room.states[$0] != nil && room.presence[$0] == .online }
        }
        #expect(everyone)
        let view = room.view
        for (number, id) in ids.enumerated() {
            #expect(view.states[id]?.participant == "p\(number)")
            #expect(view.page(of: id) == "0\(number % 9 + 1)-Page")
        }
        #expect(view.unreadable.isEmpty)
    }

    /// A leader who joins a room already going (a dashboard restarted, `tour room --json`) is told when it has heard
    /// every state the broker kept: by then, every participant's latest is there.
    @Test func aLeaderJoiningLateIsCaughtUpWithEveryRetainedState() async throws {
        let room = try await TestRoom(participants: 5)
        defer { room.leave() }
        let (heard, ids) = (room.heard, room.ids)
        for (number, participant) in room.participants.enumerated() { participant.publish(progress("p\(number)", page: "05-InPractice")) }
        #expect(await heard.wait { updates in ids.allSatisfy { RoomView(updates).page(of: $0) == "05-InPractice" } })

        let lateHeard = HeardEvents<RoomLinkUpdate>()
        let late = leaderLink(room.broker, heard: lateHeard)
        defer { late.leave() }
        #expect(await lateHeard.wait { $0.contains(.caughtUp) })
        let beforeCaughtUp = lateHeard.all.prefix { $0 != .caughtUp }
        let view = RoomView(Array(beforeCaughtUp))
        #expect(ids.allSatisfy { view.page(of: $0) == "05-InPractice" && view.presence[$0] == .online })
    }

    /// `tour room`'s broker killed from outside (not by the tour): it is started again on its port by itself, says so,
    /// and the leader hears every participant's state and presence again; one moved on while it was down.
    @Test func aBrokerThatEndsByItselfIsStartedAgainAndTheRoomRecovers() async throws {
        let room = try await TestRoom(participants: 3)
        defer { room.leave() }
        let (heard, ids) = (room.heard, room.ids)
        for participant in room.participants { participant.publish(progress("before", page: "02-Queue")) }
        #expect(await heard.wait { updates in ids.allSatisfy { RoomView(updates).page(of: $0) == "02-Queue" } })

        let notices = HeardEvents<String>()
        room.broker.restartWhenItEnds { notices.record($0) }
        let first = try #require(room.broker.pid)
        let heardBefore = heard.all.count
        #expect(Glibc.kill(-first, SIGKILL) == 0)
        #expect(await notices.wait { $0.contains { $0.contains("started again on port \(room.broker.port)") } })
        #expect(try #require(room.broker.pid) != first)

        room.participants[0].publish(progress("moved", page: "03-Async"))
        let recovered = await heard.wait { updates in
            let since = RoomView(Array(updates.dropFirst(heardBefore)))
            return since.page(of: ids[0]) == "03-Async" && ids.allSatisfy { since.states[$0] != nil && since.presence[$0] == .online }
        }
        #expect(recovered)
    }

    /// Mid-workshop the broker is killed (SIGKILL) and started again on its port. States published while it was
    /// down are not lost: each participant keeps its latest and sends it again on reconnecting, and the leader, once
    /// back, hears every participant's latest state and presence.
    @Test func theBrokerKilledAndRestartedLosesNothing() async throws {
        let room = try await TestRoom(participants: 10)
        defer { room.leave() }
        let (heard, ids, participants, participantHeard) = (room.heard, room.ids, room.participants, room.participantHeard)
        for participant in participants { participant.publish(progress("before", page: "02-Queue")) }
        #expect(await heard.wait { updates in ids.allSatisfy { RoomView(updates).page(of: $0) == "02-Queue" } })

        await room.broker.killed()
        for participant in participantHeard {
            #expect(await participant.wait { $0.contains { if case .status(.reconnecting) = $0 { true } else { false } } })
        }
        // While the broker is down each participant moves on twice; only the latest is kept to send.
        for participant in participants {
            participant.publish(progress("during", page: "03-Async"))
            participant.publish(progress("after", page: "04-Dependencies"))
        }
        let heardBeforeRestart = heard.all.count
        try await room.broker.restarted()

        let recovered = await heard.wait { updates in
            let since = RoomView(Array(updates.dropFirst(heardBeforeRestart)))
            return ids.allSatisfy { since.page(of: $0) == "04-Dependencies" && since.presence[$0] == .online }
        }
        #expect(recovered)
        let statuses = RoomView(heard.all).statuses
        #expect(statuses.first == .connecting)
        #expect(statuses.contains { if case .reconnecting = $0 { true } else { false } })
        #expect(statuses.last == .connected)
    }

    /// The broker keeps retained messages in its folder: stopped (SIGTERM) and started again, it still has the state
    /// and `offline` of a participant who left before, for a leader who connects only afterwards.
    @Test func aRestartedBrokerKeepsTheRetainedStatesItSaved() async throws {
        let room = try await TestRoom(participants: 1)
        defer { room.leave() }
        let id = room.ids[0]
        room.participants[0].publish(progress("kept", page: "07-Groups"))
        #expect(await room.heard.wait { RoomView($0).page(of: id) == "07-Groups" })
        room.participants[0].leave()
        #expect(await room.heard.wait { RoomView($0).presence[id] == .offline })

        await room.broker.killed(with: SIGTERM)
        #expect(!room.broker.isRunning)
        try await room.broker.restarted()
        #expect(room.broker.isRunning)
        let heard = HeardEvents<RoomLinkUpdate>()
        let latecomer = leaderLink(room.broker, heard: heard)
        defer { latecomer.leave() }
        #expect(await heard.wait { RoomView($0).page(of: id) == "07-Groups" && RoomView($0).presence[id] == .offline })
        #expect(RoomView(heard.all).states[id]?.participant == "kept")
    }

    @Test func aPollIsAnsweredByTenParticipantsAndCountedAtTheLeader() async throws {
        let room = try await TestRoom(participants: 10)
        defer { room.leave() }
        let (heard, participants, participantHeard) = (room.heard, room.participants, room.participantHeard)

        let poll = RoomPoll(id: "poll-1", page: "06-GCD", pageNumber: 6, question: "Which thread runs the block?",
                            choices: [RoomPoll.Choice(key: "a", text: "the main thread"), RoomPoll.Choice(key: "b", text: "a pool thread")])
        room.leader.ask(poll)
        for (number, participant) in participants.enumerated() {
            #expect(await participantHeard[number].wait { $0.contains(.event(.poll(poll))) })
            participant.answer(PollAnswer(pollID: poll.id, choice: number < 7 ? "b" : "a"))
        }
        let counted = await heard.wait { updates in RoomView(updates).answers.count == 10 }
        #expect(counted)
        let answers = RoomView(heard.all).answers.values.filter { $0.pollID == poll.id }
        #expect(Dictionary(grouping: answers, by: \.choice).mapValues(\.count) == ["a": 3, "b": 7])

        room.leader.closePoll()
        for participant in participantHeard {
            #expect(await participant.wait { $0.contains(.event(.pollClosed)) })
        }
    }

    @Test func aWrongPasswordIsRefused() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let heard = HeardEvents<RoomLinkUpdate>()
        let participant = participantLink(broker, participantID(1), password: "wrong", heard: heard)
        defer { participant.leave() }
        #expect(await heard.wait { $0.count >= 2 })
        #expect(heard.all == [.status(.connecting), .status(.refused(problem: "wrong room password: check it and join again"))])
    }

    /// Leaving publishes `offline`; a participant who vanishes without leaving is marked `offline` by its will.
    @Test func whoLeftIsMarkedOfflineByLeavingOrByTheWill() async throws {
        let room = try await TestRoom(participants: 2)
        defer { room.leave() }
        let heard = room.heard
        #expect(await heard.wait { RoomView($0).presence.values.filter { $0 == .online }.count == 2 })
        room.participants[0].leave()
        #expect(await heard.wait { RoomView($0).presence[participantID(0)] == .offline })

        // Another connection with the vanishing participant's id takes its place: the broker ends the first
        // connection as lost, and publishes its will.
        let impostorHeard = HeardEvents<MQTTClient.Event>()
        let impostor = rawClient(room.broker, id: participantID(1).value, heard: impostorHeard)
        defer { impostor.disconnect() }
        impostor.start()
        #expect(await heard.wait { $0.contains(.event(.presence(participantID(1), .offline))) })
    }
}
