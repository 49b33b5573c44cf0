import Foundation
import Testing
import PageProtocol
import TourCommandLine
import TourCore
import TourTestSupport

/// The host checks `--set` before it starts a page, and the page checks it again as it declares the knob; both use
/// PageProtocol's one check, so a wrong value gets the same words from either.
@Suite("Knob settings: the host and the page refuse alike", .bodiesBelowTheRunner)
struct KnobSettingRefusalTests {
    /// Page 1's integer and boolean knobs, and page 3's choice.
    @Test(arguments: [("1", "executionBlocks", ""), ("1", "executionBlocks", "99"), ("3", "requestedPhoto", "hubble"), ("1", "startBeforeReady", "maybe")])
    func theHostAndThePageRefuseAWrongValueInTheSameWords(page: String, name: String, value: String) async throws {
        var options = TourCommand.RunOptions(page: page)
        options.knobs = [KnobSetting(name: name, value: value)]
        let catalog = try PageCatalog.load()
        let hostMessage = try #require(Self.problem { _ = try PlainRun.validate(options, catalog: catalog) })
        #expect(hostMessage.hasPrefix("knob \(name) "))

        // The page run as the host would run it, had the host not checked first.
        let product = page == "1" ? "Lesson01Operation" : "Lesson03Async"
        let run = await recordRun(product: product, knobs: [(name, value)], speed: 10)
        #expect(run.ending == .exited(code: 2))
        #expect(run.output.filter { $0.stream == .stderr }.map(\.text) == ["\(product): \(hostMessage)"])
    }

    @Test func anEmptyValueIsRefusedByTheKnobWithWhatItTakes() async throws {
        var options = TourCommand.RunOptions(page: "3")
        options.knobs = [try KnobSetting(parsing: "requestedPhoto=")]
        let message = try #require(Self.problem { _ = try PlainRun.validate(options, catalog: try PageCatalog.load()) })
        #expect(message == "knob requestedPhoto is one of rocket, coffee, retina, unicorn, but 'requestedPhoto=' gives it no value; "
                + "write for example --set requestedPhoto=rocket")
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
