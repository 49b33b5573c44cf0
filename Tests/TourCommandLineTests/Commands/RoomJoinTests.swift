import Foundation
import RoomProtocol
import Testing
@testable import TourCommandLine

/// `tour --room HOST:PORT --name ana` and `tour present --room HOST:PORT`: the options, the environment
/// (`TOUR_ROOM`, `TOUR_ROOM_NAME`, `TOUR_ROOM_PASSWORD`) and the password asked on a terminal, each mistake said with
/// what would be right.
@Suite("Joining a room from the command line", .bodiesBelowTheRunner)
struct RoomJoinTests {
    static let room = RoomAddress(host: "192.168.1.20", port: 1883)

    /// Asks nothing: a test that expects no question fails if one is asked.
    static func noQuestion(_ prompt: String) -> String? {
        Issue.record("asked \(prompt) though it should not ask")
        return nil
    }

    @Test("--room and --name are parsed for the tutorial, --room for present; a bad address says what is wrong")
    func options() throws {
        var tutorial = TourCommand.InteractiveOptions()
        tutorial.room = Self.room
        tutorial.name = "ana"
        #expect(try TourCommand.parse(["--room", "192.168.1.20:1883", "--name", "ana"]) == .interactive(tutorial))
        var present = TourCommand.PresentOptions()
        present.room = RoomAddress(host: "stage.local", port: 1883)
        #expect(try TourCommand.parse(["present", "--room", "stage.local:1883"]) == .present(present))
        #expect(throws: TourCommand.UsageError(description: "--room 'nowhere' is not a room address: it has no port; give it as HOST:PORT, for example 192.168.1.20:1883")) {
            try TourCommand.parse(["--room", "nowhere"])
        }
        #expect(throws: TourCommand.UsageError(description: "--room needs the room's address, for example --room 192.168.1.20:1883 (tour room prints it)")) {
            try TourCommand.parse(["--room"])
        }
        #expect(throws: TourCommand.UsageError(description: "--room asks the room on stage, so it goes with the presenter, not with --check or --export")) {
            try TourCommand.parse(["present", "--check", "--room", "stage.local:1883", "assets/talks/part-one.talk"])
        }
        #expect(UsageTests.help.contains("--room HOST:PORT the workshop's room (also TOUR_ROOM=HOST:PORT"))
    }

    @Test("No room gives today's tutorial, asking nothing; --name without a room is refused with how to give one")
    func noRoom() throws {
        #expect(try RoomJoin.participant(TourCommand.InteractiveOptions(), environment: ["USER": "ana"], onTerminal: true, ask: Self.noQuestion) == nil)
        var named = TourCommand.InteractiveOptions()
        named.name = "ana"
        #expect(throws: TourCommand.UsageError(description: "--name names you in a room; give the room too: tour --room HOST:PORT --name NAME (or set TOUR_ROOM=HOST:PORT)")) {
            try RoomJoin.participant(named, environment: [:], onTerminal: true, ask: Self.noQuestion)
        }
    }

    @Test("TOUR_ROOM, TOUR_ROOM_NAME and TOUR_ROOM_PASSWORD stand in for the options; the options win; a bad TOUR_ROOM is named")
    func environment() throws {
        let environment = ["TOUR_ROOM": "10.0.0.1:1884", "TOUR_ROOM_NAME": "bob", "TOUR_ROOM_PASSWORD": "s3cret", "USER": "login"]
        let fromEnvironment = try #require(try RoomJoin.participant(TourCommand.InteractiveOptions(), environment: environment,
                                                                    onTerminal: false, ask: Self.noQuestion))
        #expect(fromEnvironment == RoomJoin.Participant(address: RoomAddress(host: "10.0.0.1", port: 1884), name: "bob",
                                                        credentials: RoomCredentials(username: "participant", password: "s3cret")))
        var options = TourCommand.InteractiveOptions()
        options.room = Self.room
        options.name = "ana"
        let given = try #require(try RoomJoin.participant(options, environment: environment, onTerminal: false, ask: Self.noQuestion))
        #expect(given.address == Self.room)
        #expect(given.name == "ana")
        // With no name anywhere, the login's; a name with escape sequences is shown without them.
        var bare = TourCommand.InteractiveOptions()
        bare.room = Self.room
        #expect(try RoomJoin.participant(bare, environment: ["USER": "login", "TOUR_ROOM_PASSWORD": "x"], onTerminal: false, ask: Self.noQuestion)?.name == "login")
        bare.name = "\u{1B}[2Jana\u{1B}]0;pwned\u{07}"
        #expect(try RoomJoin.participant(bare, environment: ["TOUR_ROOM_PASSWORD": "x"], onTerminal: false, ask: Self.noQuestion)?.name == "ana")
        #expect(throws: TourCommand.UsageError(description: "TOUR_ROOM '10.0.0.1:99999' is not a room address: the port '99999' is not a number from 1 to 65535; give it as HOST:PORT, for example 192.168.1.20:1883")) {
            try RoomJoin.participant(TourCommand.InteractiveOptions(), environment: ["TOUR_ROOM": "10.0.0.1:99999"], onTerminal: true, ask: Self.noQuestion)
        }
    }

    @Test("Without TOUR_ROOM_PASSWORD the password is asked on a terminal, refused elsewhere naming the variable, and nothing typed is refused")
    func password() throws {
        var options = TourCommand.InteractiveOptions()
        options.room = Self.room
        var asked: [String] = []
        let joined = try RoomJoin.participant(options, environment: ["USER": "ana"], onTerminal: true) { prompt in
            asked.append(prompt)
            return "typed"
        }
        #expect(asked == ["Password for the room 192.168.1.20:1883 (the leader's tour room prints it): "])
        #expect(joined?.credentials == RoomCredentials(username: "participant", password: "typed"))
        #expect(throws: TourCommand.UsageError(description: "the room 192.168.1.20:1883 needs its password, and standard input is not a terminal to ask on: set TOUR_ROOM_PASSWORD (the leader's tour room prints it)")) {
            try RoomJoin.participant(options, environment: [:], onTerminal: false, ask: Self.noQuestion)
        }
        #expect(throws: TourCommand.UsageError(description: "no password given for the room 192.168.1.20:1883; type it when asked, or set TOUR_ROOM_PASSWORD")) {
            try RoomJoin.participant(options, environment: [:], onTerminal: true) { _ in nil }
        }
    }

    @Test("The presenter takes the leader's password from TOUR_ROOM_PASSWORD, else the one tour room saved, else says how to get one")
    func leader() throws {
        let fromEnvironment = try RoomJoin.leader(Self.room, environment: ["TOUR_ROOM_PASSWORD": "lead"]) { _ in "saved" }
        #expect(fromEnvironment.credentials == RoomCredentials(username: "leader", password: "lead"))
        var looked: [RoomAddress] = []
        let saved = try RoomJoin.leader(Self.room, environment: [:]) { address in
            looked.append(address)
            return "saved"
        }
        #expect(saved.credentials == RoomCredentials(username: "leader", password: "saved"))
        #expect(looked == [Self.room])
        #expect(throws: TourCommand.UsageError(description: "asking the room 192.168.1.20:1883 takes the leader's password: set TOUR_ROOM_PASSWORD to it, or run tour room on this machine, which saves it for tour present")) {
            try RoomJoin.leader(Self.room, environment: [:]) { _ in nil }
        }
    }
}
