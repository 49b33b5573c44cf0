import Foundation
import Testing
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
