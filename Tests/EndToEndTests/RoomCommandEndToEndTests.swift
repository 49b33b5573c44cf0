import Foundation
import RoomLink
import RoomProtocol
import Testing
import TourCore
import TourTestSupport

/// `tour room` as a leader types it, off a terminal: its help, and bad input refused before any broker starts, each
/// saying what is wrong and what would be right.
@Suite("tour room end to end", .bodiesBelowTheRunner)
struct RoomCommandEndToEndTests {
    @Test("tour room --help prints the room's usage: its forms and its options")
    func helpPrintsTheUsage() async throws {
        let help = try await PlainModeTests.tour(["room", "--help"])
        #expect(help.status == 0 && help.errors.isEmpty, "\(help.errors)")
        for text in ["tour room [--port N]", "tour room --broker HOST:PORT", "tour room --plain", "tour room --json", "--broker HOST:PORT ", "--port N "] {
            #expect(help.output.contains(text), "\(text) in \(help.output)")
        }
        let top = try await PlainModeTests.tour(["--help"])
        #expect(top.output.contains("For workshop leaders"), "\(top.output)")
    }

    @Test("A bad broker address, a port out of range, or options that do not go together are refused with exit 2",
          arguments: [
              (["room", "--broker", "nonsense"], "tour: --broker: 'nonsense' is not a room address: it has no port; give it as HOST:PORT, for example 192.168.1.20:1883"),
              (["room", "--broker", "10.0.0.5:99999"], "the port '99999' is not a number from 1 to 65535"),
              (["room", "--broker"], "--broker needs the broker's address, for example --broker 192.168.1.20:1883"),
              (["room", "--port", "70000"], "--port needs a whole number from 1 to 65535 for the broker tour room starts, for example --port 41883"),
              (["room", "--port", "0"], "--port needs a whole number from 1 to 65535"),
              (["room", "--port", "41883", "--broker", "10.0.0.5:1883"], "give one or the other"),
              (["room", "--plain", "--json"], "not both"),
              (["room", "lobby"], "unknown argument 'lobby' for room"),
          ])
    func badInputIsRefused(arguments: [String], message: String) async throws {
        let outcome = try await PlainModeTests.tour(arguments)
        #expect(outcome.status == 2, "\(arguments): \(outcome.errors)")
        #expect(outcome.errors.contains(message), "\(outcome.errors)")
        #expect(outcome.output.isEmpty)
    }
}

/// `tour room` on a real broker: the leader's `--json` snapshot of a room already going, read by the program a leader
/// runs, through the MQTT links, after every retained state has arrived.
@Suite("tour room on a real broker", .bodiesBelowTheRunner)
struct RoomOnARealBrokerTests {
    @Test("tour room --broker … --json: every participant's state, who needs help, and who left")
    func jsonSnapshotOfARoomGoing() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let heard = HeardEvents<RoomLinkUpdate>()
        let ana = ParticipantLink(address: broker.localAddress, password: broker.passwords.room, participant: ParticipantID("tour-e2e-ana")!) { _ in }
        let bob = ParticipantLink(address: broker.localAddress, password: broker.passwords.room, participant: ParticipantID("tour-e2e-bob")!) { _ in }
        defer { ana.leave() }
        var stuck = ProgressRecord()
        let at = Date()
        stuck.apply(.opened(page: "operation"), at: at)
        stuck.apply(.checked(page: "operation", exercise: "stop-within-one-band", passed: false, firstFailure: "it ran past one band"), at: at)
        stuck.apply(.checked(page: "operation", exercise: "stop-within-one-band", passed: false, firstFailure: "still past one band"), at: at)
        ana.publish(ParticipantProgress(participant: "ana", tourVersion: "test", writtenAt: at, progress: stuck))
        var started = ProgressRecord()
        started.apply(.opened(page: "queue"), at: at)
        bob.publish(ParticipantProgress(participant: "bob", tourVersion: "test", writtenAt: at, progress: started))
        // A leader of the test's own hears both states and bob leaving, so the broker holds them before tour asks.
        let watcher = LeaderLink(address: broker.localAddress, password: broker.passwords.leader) { heard.record($0) }
        defer { watcher.leave() }
        let bobID = ParticipantID("tour-e2e-bob")!
        #expect(await heard.wait { updates in updates.contains { if case .event(.state(let id, _)) = $0 { id.value == "tour-e2e-ana" } else { false } }
            && updates.contains(.event(.presence(bobID, .online))) })
        bob.leave()
        #expect(await heard.wait { $0.contains(.event(.presence(bobID, .offline))) })

        let outcome = try await PlainModeTests.tour(["room", "--broker", broker.localAddress.description, "--json"],
                                                    environment: ["TOUR_ROOM_PASSWORD": broker.passwords.leader])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let snapshot = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any], "\(outcome.output)")
        let participants = try #require(snapshot["participants"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: participants.compactMap { entry in (entry["name"] as? String).map { ($0, entry) } })
        let anaEntry = try #require(byName["ana"], "\(participants)")
        let help = try #require(anaEntry["needsHelp"] as? [[String: Any]])
        #expect(help.first?["exercise"] as? String == "operation/stop-within-one-band")
        #expect(help.first?["failedChecks"] as? Int == 2)
        #expect(help.first?["lastFinding"] as? String == "still past one band")
        #expect(byName["bob"]?["presence"] as? String == "offline")
        #expect(byName["bob"]?["page"] as? String == "queue")
    }
}
