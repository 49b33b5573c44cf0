import Foundation
import Testing
import PageProtocol
import TourCore
import TourTestSupport

/// The host checks `--set` before it starts a page, and the page checks it again as it declares the knob; both use
/// PageProtocol's one check, so a wrong value gets the same words from either.
@Suite("Knob settings: the host and the page refuse alike", .bodiesBelowTheRunner)
struct KnobSettingRefusalTests {
    @Test(arguments: [("executionBlocks", ""), ("executionBlocks", "99"), ("photo", "unicorn"), ("startBeforeReady", "maybe")])
    func theHostAndThePageRefuseAWrongValueInTheSameWords(name: String, value: String) async throws {
        var options = TourCommand.RunOptions(page: "1")
        options.knobs = [KnobSetting(name: name, value: value)]
        let catalog = try PageCatalog.load()
        let hostMessage = try #require(Self.problem { _ = try PlainRun.validate(options, catalog: catalog) })
        #expect(hostMessage.hasPrefix("knob \(name) "))

        // The page run as the host would run it, had the host not checked first.
        let run = await recordRun(product: "Lesson01Operation", knobs: [(name, value)], speed: 10)
        #expect(run.ending == .exited(code: 2))
        #expect(run.output.filter { $0.stream == .stderr }.map(\.text) == ["Lesson01Operation: \(hostMessage)"])
    }

    @Test func anEmptyValueIsRefusedByTheKnobWithWhatItTakes() async throws {
        var options = TourCommand.RunOptions(page: "1")
        options.knobs = [try KnobSetting(parsing: "photo=")]
        let message = try #require(Self.problem { _ = try PlainRun.validate(options, catalog: try PageCatalog.load()) })
        #expect(message == "knob photo is one of coffee, chelsea, astronaut, rocket, but 'photo=' gives it no value; write for example --set photo=coffee")
    }

    /// The description of what `body` throws, or nil when it throws nothing.
    private static func problem(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
