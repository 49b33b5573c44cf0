import Foundation
import Testing
import TourCore
import TourTestSupport

/// The room's options on the real `tour`, as a learner mistypes them: each refused before anything starts, on standard
/// error, with exit status 2 and what would be right. Standard input is never a terminal here, so nothing is asked.
@Suite("Room options end to end", .bodiesBelowTheRunner)
struct RoomOptionsTests {
    /// `tour` with `arguments`, standard input from /dev/null, its output and errors together, in a state folder of
    /// its own and with no room in the environment but `environment`'s.
    static func tour(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TOUR_ROOM") }
        environment["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("room-options-\(UUID().uuidString)").path
        environment.merge(extra) { $1 }
        return try await runToEnd("/bin/sh", ["-c", "exec \"$0\" \"$@\" </dev/null", BuildProducts.executable(named: "tour")] + arguments,
                                  environment: environment, label: "tour-room-options")
    }

    @Test("A bad --room, a bad TOUR_ROOM, --name alone, and a room with no password and no terminal to ask on",
          arguments: [
            (["--room", "nowhere"], [:], "tour: --room 'nowhere' is not a room address: it has no port"),
            (["present", "--room", "stage:0"], [:], "tour: --room 'stage:0' is not a room address: the port '0' is not a number from 1 to 65535"),
            ([], ["TOUR_ROOM": "bad host:1883"], "tour: TOUR_ROOM 'bad host:1883' is not a room address: 'bad host' is not a host name or address"),
            (["--name", "ana"], [:], "tour: --name names you in a room; give the room too"),
            (["--room", "127.0.0.1:1883"], [:], "needs its password, and standard input is not a terminal to ask on: set TOUR_ROOM_PASSWORD"),
          ] as [([String], [String: String], String)])
    func refused(arguments: [String], environment: [String: String], message: String) async throws {
        let outcome = try await Self.tour(arguments, environment: environment)
        #expect(outcome.status == 2)
        #expect(outcome.output.contains(message), "tour said: \(outcome.output)")
    }
}
