@preconcurrency import Glibc
import Foundation
@testable import RoomLink
import RoomProtocol
import Testing
import TourCore
import TourTestSupport

@Suite(.bodiesBelowTheRunner) struct MosquittoBrokerTests {
    /// Started with a connection file: the file holds the address and both passwords, readable by its owner alone;
    /// stopped, the broker is gone, and so are its folder and the file.
    @Test func writesTheLeadersConnectionAndLeavesNothingWhenStopped() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = RoomConnection.file(beside: folder.appendingPathComponent("progress.json"))
        let broker = try await awaitBlocking { try MosquittoBroker.start(listenHost: "127.0.0.1", connectionFile: file) }
        let pid = try #require(broker.pid)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let (address, passwords) = try RoomConnection.load(from: file).get()
        #expect(address == broker.localAddress)
        #expect(passwords == broker.passwords)
        #expect(passwords.room != passwords.leader)
        #expect(((try FileManager.default.attributesOfItem(atPath: broker.folder.path))[.posixPermissions] as? Int) == 0o700)

        await broker.stopped()
        #expect(kill(pid, 0) != 0)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(!FileManager.default.fileExists(atPath: broker.folder.path))
        #expect(RoomConnection.load(from: file).failure?.description.contains("start one with tour room") == true)
    }

    /// A crashed tour's broker was killed by the kernel, but its folder stayed: the next start removes it, and only
    /// it (not a live process's, nor one whose owner is not written yet).
    @Test func foldersOfEndedProcessesAreRemoved() async throws {
        let base = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        let ended = try await endedProcess()
        let owners: [String: String?] = ["tour-room-ended": "\(ended)", "tour-room-live": "\(getpid())",
                                         "tour-room-starting": nil, "other-ended": "\(ended)"]
        for (name, owner) in owners {
            let folder = base.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if let owner { try Data(owner.utf8).write(to: folder.appendingPathComponent("owner")) }
        }
        MosquittoBroker.removeFoldersOfEndedProcesses(in: base.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).sorted() == ["other-ended", "tour-room-live", "tour-room-starting"])
    }

    /// A `room.json` left by a `tour room` that crashed names a process that is gone: it is refused as over.
    @Test func aConnectionFileOfAnEndedTourRoomIsRefused() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ended = try await endedProcess()
        let file = folder.appendingPathComponent("room.json")
        let passwords = RoomPasswords.generated()
        try RoomConnection(address: RoomAddress(host: "127.0.0.1", port: 1883), passwords: passwords,
                           ownerPID: ended).save(to: file)
        let error = try #require(RoomConnection.load(from: file).failure)
        #expect(error.description == "the room started on this laptop is over (its tour room, pid \(ended), has ended): start one with tour room, or give --room HOST:PORT")

        try RoomConnection(address: RoomAddress(host: "127.0.0.1", port: 1883), passwords: passwords).save(to: file)
        #expect(try RoomConnection.load(from: file).get().1 == passwords)
        try Data("{}".utf8).write(to: file)
        #expect(RoomConnection.load(from: file).failure?.description.contains("is not a room's connection") == true)
    }

    @Test func aMissingMosquittoSaysToInstallDebiansPackage() throws {
        let error = try #require(throws: RoomInputError.self) {
            _ = try MosquittoBroker.program("mosquitto", fallback: "/nonexistent/mosquitto", environment: ["PATH": "/nonexistent"])
        }
        #expect(error.description.contains("install Debian's mosquitto package"))
        #expect(error.description.contains("--broker HOST:PORT"))
    }

    @Test func aPortInUseIsNamedInTheMessage() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let port = broker.port
        let error = await awaitBlocking { () -> RoomInputError? in
            do throws(RoomInputError) {
                _ = try MosquittoBroker.start(port: port, listenHost: "127.0.0.1")
                return nil
            } catch {
                return error
            }
        }
        #expect(error?.description.contains("Address already in use") == true, "\(String(describing: error))")
    }

    @Test func passwordsAreTenCharactersThatReadAloudOneWay() {
        let passwords = (0..<200).map { _ in RoomPasswords.readableAloud() }
        for password in passwords {
            #expect(password.count == 10)
            #expect(password.allSatisfy { RoomPasswords.readableCharacters.contains($0) })
        }
        #expect(Set(passwords).count == passwords.count)
        #expect(!RoomPasswords.readableCharacters.contains { "0o1li".contains($0) })
    }
}

@Suite(.bodiesBelowTheRunner) struct ParticipantIdentityTests {
    @Test func theIDIsMadeOnceAndKept() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = ParticipantIdentity.file(beside: folder.appendingPathComponent("state/tour/progress.json"))
        #expect(file.path.hasSuffix("state/tour/participant-id"))
        let made = try ParticipantIdentity.load(from: file)
        #expect(made.value.count == 21)
        #expect(made.value.hasPrefix("tour-"))
        #expect(made.value.dropFirst(5).allSatisfy { $0.isHexDigit })
        #expect(try ParticipantIdentity.load(from: file) == made)
        #expect(try String(contentsOf: file, encoding: .utf8) == made.value + "\n")
    }

    @Test func aDamagedFileIsReplacedByAFreshID() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("participant-id")
        try Data("tour-../../etc\u{1B}[2J".utf8).write(to: file)
        let fresh = try ParticipantIdentity.load(from: file)
        #expect(fresh.value.hasPrefix("tour-"))
        #expect(try ParticipantIdentity.load(from: file) == fresh)
    }
}

@Suite(.bodiesBelowTheRunner) struct RoomFormatDocumentTests {
    /// The topics `docs/room-format.md` lists are exactly `RoomTopic`'s, with `<id>` for the participant's id.
    @Test func theDocumentedTopicsAreTheRoomsTopics() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/room-format.md"), encoding: .utf8)
        let start = try #require(document.range(of: "<!-- topics: read by RoomLinkTests against RoomTopic -->"))
        let end = try #require(document.range(of: "<!-- end of topics -->"))
        let table = document[start.upperBound..<end.lowerBound]
        let documented = table.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return String(line.dropFirst(3).prefix { $0 != "`" })
        }
        let id = try #require(ParticipantID("PARTICIPANT"))
        let topics = [RoomTopic.state(id), .presence(id), .answer(id), .poll].map { $0.name.replacingOccurrences(of: "PARTICIPANT", with: "<id>") }
        #expect(documented == topics)
    }
}

/// `tour room` after a `tour room` on this laptop ended without being quit (a crash, a reboot): the room opens again on
/// its port with its passwords, so the participants' tours, which keep trying, get back in by themselves.
@Suite(.bodiesBelowTheRunner) struct RoomResumeTests {
    /// The environment of a `tour` whose state folder is `state`.
    static func environment(_ state: URL) -> [String: String] {
        ["XDG_STATE_HOME": state.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    }

    /// A port nothing listens on now: one a broker had and gave back.
    static func freedPort() async throws -> UInt16 {
        let broker = try await TestBroker.start()
        let port = broker.port
        await broker.stopped()
        return port
    }

    @Test func aRoomWhoseTourRoomEndedOpensAgainWithItsPortAndPasswords() async throws {
        let state = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = try #require(ProgressStore(environment: Self.environment(state)))
        let port = try await Self.freedPort()
        let passwords = RoomPasswords(room: "abcdefghjk", leader: "mnpqrstuvw")
        try RoomConnection(address: RoomAddress(host: "127.0.0.1", port: port), passwords: passwords, ownerPID: try await endedProcess())
            .save(to: RoomConnection.file(beside: store.file))

        let feed = HeardEvents<RoomFeed>()
        let rooms = MQTTRooms(environment: Self.environment(state))
        let opened = try await awaitBlocking("room-resume") { try rooms.open(.start(port: nil)) { feed.record($0) } }
        defer { opened.close() }
        #expect(opened.address.port == port)
        #expect(opened.password == passwords.room)
        #expect(feed.all.contains { if case .notice(let text) = $0 { text.contains("open again") } else { false } })
        // A participant with the room's old password gets in.
        let heard = HeardEvents<RoomLinkUpdate>()
        let participant = ParticipantLink(address: RoomAddress(host: "127.0.0.1", port: port), password: passwords.room,
                                          participant: participantID(1)) { heard.record($0) }
        defer { participant.leave() }
        #expect(await heard.wait { $0.contains(.status(.connected)) })
    }

    @Test func aRoomWhoseTourRoomStillRunsIsNotTakenOver() async throws {
        let state = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = try #require(ProgressStore(environment: Self.environment(state)))
        let passwords = RoomPasswords(room: "abcdefghjk", leader: "mnpqrstuvw")
        try RoomConnection(address: RoomAddress(host: "127.0.0.1", port: try await Self.freedPort()), passwords: passwords, ownerPID: getpid())
            .save(to: RoomConnection.file(beside: store.file))
        let rooms = MQTTRooms(environment: Self.environment(state))
        let opened = try await awaitBlocking("room-fresh") { try rooms.open(.start(port: nil)) { _ in } }
        defer { opened.close() }
        #expect(opened.password != passwords.room)
    }
}
