import Testing
import PageProtocol
@testable import LessonKit
import TourTestSupport

/// What a page reads of its arguments and environment, with PageProtocol's parsers.
@Suite("Launch settings of a page", .bodiesBelowTheRunner)
struct LaunchSettingsTests {
    @Test func argumentsComeAfterTheEnvironmentSoTheLastSettingOfAKnobWins() async throws {
        let settings = try LaunchSettings(arguments: ["--set", "photo=rocket", "--speed", "4", "--set", "blocks=5"],
                                          environment: ["TOUR_SET": "photo=coffee,width=2", "TOUR_SPEED": "2"])
        #expect(settings.knobSettings == [KnobSetting(name: "photo", value: "coffee"), KnobSetting(name: "width", value: "2"),
                                          KnobSetting(name: "photo", value: "rocket"), KnobSetting(name: "blocks", value: "5")])
        #expect(settings.value(ofKnob: "photo") == "rocket")
        #expect(settings.value(ofKnob: "width") == "2")
        #expect(settings.value(ofKnob: "missing") == nil)
        #expect(settings.speed == 4)
    }

    @Test func anEmptyValueReachesTheKnobWhichRefusesIt() async throws {
        let settings = try LaunchSettings(arguments: ["--set", "photo="], environment: [:])
        #expect(settings.value(ofKnob: "photo") == "")
    }

    @Test(arguments: [
        (["--set"], [:], "--set needs name=value, for example --set maxConcurrentOperationCount=1"),
        (["--set", "photo"], [:], "'photo' is not a knob setting: it has no '='; write --set name=value, for example --set maxConcurrentOperationCount=1"),
        (["--speed", "0"], [:], "--speed needs a number from 0.1 to 100, for example --speed 4 (4 times faster; 1 is real time), but got '0'"),
        (["--frobnicate"], [:], "unknown argument '--frobnicate'; a page takes --set name=value, --speed N and --seed N"),
        ([], ["TOUR_SPEED": "fast"], "in TOUR_SPEED: --speed needs a number from 0.1 to 100, for example --speed 4 (4 times faster; 1 is real time), but got 'fast'"),
        ([], ["TOUR_SET": "a=1,=2"], "in TOUR_SET: '=2' is not a knob setting: no knob name before '='; write --set name=value, for example --set maxConcurrentOperationCount=1"),
    ] as [([String], [String: String], String)])
    func aWrongSettingIsRefusedWithTheSharedMessage(arguments: [String], environment: [String: String], message: String) async throws {
        #expect(throws: LaunchProblem(message)) { try LaunchSettings(arguments: arguments, environment: environment) }
    }
}
