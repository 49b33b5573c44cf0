import Testing
import PageProtocol
import TourTestSupport

/// The problem `body` throws, or nil when it throws none.
private func problem<Value>(_ body: () throws(LaunchProblem) -> Value) -> LaunchProblem? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

@Suite("Knob settings: the shape of --set name=value", .bodiesBelowTheRunner)
struct KnobSettingParsingTests {
    @Test func theNameIsBeforeTheFirstEqualsSignAndTheValueIsEverythingAfterIt() async throws {
        #expect(try KnobSetting(parsing: "executionBlocks=5") == KnobSetting(name: "executionBlocks", value: "5"))
        #expect(try KnobSetting(parsing: "label=a=b") == KnobSetting(name: "label", value: "a=b"))
        #expect(try KnobSetting(parsing: "label= spaced ") == KnobSetting(name: "label", value: " spaced "))
    }

    @Test func anEmptyValueIsASettingThatTheKnobsOwnCheckRefusesByName() async throws {
        let setting = try KnobSetting(parsing: "photo=")
        #expect(setting == KnobSetting(name: "photo", value: ""))
        let spec = KnobSpec(name: "photo", kind: .choice(default: "coffee", choices: ["coffee", "rocket"]))
        #expect(problem { () throws(LaunchProblem) in try spec.value(from: setting.value) }?.description
                == "knob photo is one of coffee, rocket, but 'photo=' gives it no value; write for example --set photo=coffee")
    }

    @Test func aMissingArgumentSaysWhatToWrite() async throws {
        #expect(problem { () throws(LaunchProblem) in try KnobSetting(parsing: nil) }?.description
                == "--set needs name=value, for example --set maxConcurrentOperationCount=1")
    }

    @Test func textWithoutAnEqualsSignIsNotASetting() async throws {
        #expect(problem { () throws(LaunchProblem) in try KnobSetting(parsing: "executionBlocks") }?.description
                == "'executionBlocks' is not a knob setting: it has no '='; write --set name=value, for example --set maxConcurrentOperationCount=1")
    }

    @Test func aSettingMustNameItsKnob() async throws {
        #expect(problem { () throws(LaunchProblem) in try KnobSetting(parsing: "=3") }?.description
                == "'=3' is not a knob setting: no knob name before '='; write --set name=value, for example --set maxConcurrentOperationCount=1")
    }

    @Test func theAssignmentIsWhatParsesBackToTheSetting() async throws {
        let setting = KnobSetting(name: "label", value: "a=b")
        #expect(setting.assignment == "label=a=b")
        #expect(try KnobSetting(parsing: setting.assignment) == setting)
    }

    @Test func theEnvironmentFormSeparatesSettingsWithCommasAndSkipsEmptyItems() async throws {
        #expect(try KnobSetting.list(parsing: "a=1,b=true,,c=") == [
            KnobSetting(name: "a", value: "1"), KnobSetting(name: "b", value: "true"), KnobSetting(name: "c", value: ""),
        ])
        #expect(try KnobSetting.list(parsing: "") == [])
        #expect(problem { () throws(LaunchProblem) in try KnobSetting.list(parsing: "a=1,oops") }?.description.hasPrefix("'oops' is not a knob setting") == true)
    }
}

@Suite("Knob specs: the one check of a value asked for a knob", .bodiesBelowTheRunner)
struct KnobSpecTests {
    static let blocks = KnobSpec(name: "executionBlocks", kind: .integer(default: 3, range: 1...6))
    static let offset = KnobSpec(name: "offset", kind: .integer(default: -3, range: -10...(-1)))
    static let crash = KnobSpec(name: "reAddFinishedOperation", kind: .boolean(default: false))
    static let photo = KnobSpec(name: "photo", kind: .choice(default: "coffee", choices: ["coffee", "chelsea", "rocket"]))
    static let elsewhere = KnobSpec(name: "script", kind: .choice(default: "flick", choices: nil))

    private func refusal(_ spec: KnobSpec, _ text: String) -> String? {
        problem { () throws(LaunchProblem) in try spec.value(from: text) }?.description
    }

    @Test func anIntegerKnobTakesAWholeNumberInItsRange() async throws {
        #expect(try Self.blocks.value(from: "1") == .integer(1))
        #expect(try Self.blocks.value(from: "6") == .integer(6))
        #expect(try Self.blocks.value(from: "+4") == .integer(4))
        #expect(try Self.offset.value(from: "-10") == .integer(-10))
        for text in ["0", "7", "99", "2.5", "three", " 3", "3 ", "99999999999999999999999"] {
            #expect(refusal(Self.blocks, text) == "knob executionBlocks takes a whole number from 1 to 6, not '\(text)'", "\(text)")
        }
        #expect(refusal(Self.offset, "0") == "knob offset takes a whole number from -10 to -1, not '0'")
        #expect(refusal(Self.blocks, "") == "knob executionBlocks takes a whole number from 1 to 6, but 'executionBlocks=' gives it no value; write for example --set executionBlocks=3")
    }

    @Test func aBooleanKnobTakesEightWordsInAnyCase() async throws {
        for text in ["true", "YES", "On", "1"] { #expect(try Self.crash.value(from: text) == .boolean(true), "\(text)") }
        for text in ["false", "No", "OFF", "0"] { #expect(try Self.crash.value(from: text) == .boolean(false), "\(text)") }
        for text in ["maybe", "2", "t", "truee"] {
            #expect(refusal(Self.crash, text) == "knob reAddFinishedOperation is true or false, not '\(text)'", "\(text)")
        }
        #expect(refusal(Self.crash, "") == "knob reAddFinishedOperation is true or false, but 'reAddFinishedOperation=' gives it no value; write for example --set reAddFinishedOperation=false")
        #expect(KnobKind.booleanValue(of: "Yes") == true && KnobKind.booleanValue(of: "off") == false && KnobKind.booleanValue(of: "y") == nil)
    }

    @Test func aChoiceKnobTakesOneOfItsRawValuesExactly() async throws {
        #expect(try Self.photo.value(from: "rocket") == .choice("rocket"))
        for text in ["Rocket", "unicorn", " rocket"] {
            #expect(refusal(Self.photo, text) == "knob photo is one of coffee, chelsea, rocket, not '\(text)'", "\(text)")
        }
        #expect(refusal(Self.photo, "") == "knob photo is one of coffee, chelsea, rocket, but 'photo=' gives it no value; write for example --set photo=coffee")
    }

    @Test func aChoiceWhoseChoicesAreUnknownTakesAnyTextAndLeavesTheCheckToThePage() async throws {
        #expect(try Self.elsewhere.value(from: "anything") == .choice("anything"))
        #expect(try Self.elsewhere.value(from: "") == .choice(""))
    }

    @Test func aLongOrControlFilledValueIsEchoedCutAndEscaped() async throws {
        let long = String(repeating: "9", count: 500)
        let message = try #require(refusal(Self.blocks, long))
        #expect(message == "knob executionBlocks takes a whole number from 1 to 6, not '\(String(repeating: "9", count: 80))...' (500 characters)")
        #expect(refusal(Self.crash, "\u{1B}[2Jyes\n") == #"knob reAddFinishedOperation is true or false, not '\u{1B}[2Jyes\n'"#)
    }

    @Test func theDefaultAndTheValueAreWrittenAsTheWireAndTheCommandLineWriteThem() async throws {
        #expect(Self.blocks.defaultValue == .integer(3) && Self.blocks.defaultValue.text == "3")
        #expect(Self.crash.defaultValue.text == "false")
        #expect(Self.photo.defaultValue.text == "coffee")
    }

    @Test func theAnnouncementCarriesTheSpecsRangeOrChoices() async throws {
        #expect(KnobAnnouncement(Self.blocks, value: .integer(5), help: "how many")
                == KnobAnnouncement(name: "executionBlocks", type: .int, value: "5", defaultValue: "3", minimum: 1, maximum: 6, help: "how many"))
        #expect(KnobAnnouncement(Self.crash, value: .boolean(true), help: "")
                == KnobAnnouncement(name: "reAddFinishedOperation", type: .bool, value: "true", defaultValue: "false"))
        #expect(KnobAnnouncement(Self.photo, value: .choice("rocket"), help: "which")
                == KnobAnnouncement(name: "photo", type: .choice, value: "rocket", defaultValue: "coffee",
                                    choices: ["coffee", "chelsea", "rocket"], help: "which"))
    }

    @Test func anUnknownKnobIsNamedWithTheKnobsThereAre() async throws {
        #expect(KnobSpec.unknownKnob("bogus", among: ["a", "b"], of: "page 1 (operation)").description
                == "no knob named 'bogus'; the knobs of page 1 (operation) are a, b")
        #expect(KnobSpec.unknownKnob("bogus", among: [], of: "this page").description == "no knob named 'bogus'; this page has no knobs")
    }
}

@Suite("Speed factor: the one parser of --speed", .bodiesBelowTheRunner)
struct SpeedFactorTests {
    @Test func aNumberFromATenthToAHundredIsASpeed() async throws {
        #expect(try SpeedFactor.parse("0.1") == 0.1)
        #expect(try SpeedFactor.parse("4") == 4)
        #expect(try SpeedFactor.parse("100") == 100)
        #expect(try SpeedFactor.parse("1e1") == 10)
    }

    @Test func anythingElseIsRefusedWithTheRangeAndAnExample() async throws {
        let expected = "--speed needs a number from 0.1 to 100, for example --speed 4 (4 times faster; 1 is real time), but got "
        for (text, given) in [("0", "'0'"), ("0.09", "'0.09'"), ("101", "'101'"), ("fast", "'fast'"), ("nan", "'nan'"),
                              ("inf", "'inf'"), ("-4", "'-4'"), (" 4", "' 4'")] {
            #expect(problem { () throws(LaunchProblem) in try SpeedFactor.parse(text) }?.description == expected + given, "\(text)")
        }
        #expect(problem { () throws(LaunchProblem) in try SpeedFactor.parse("") }?.description == expected + "an empty value")
        #expect(problem { () throws(LaunchProblem) in try SpeedFactor.parse(nil) }?.description == expected + "nothing")
    }
}
