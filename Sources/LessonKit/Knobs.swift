import Foundation
import Synchronization
import PageProtocol

/// An integer experiment the learner can change from outside, for example
/// `let width = knob("maxConcurrentOperationCount", default: 2, in: 1...8)`.
public func knob(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>, _ help: String = "") -> Int {
    let value = KnobRegistry.resolve(name) { text in
        guard let number = Int(text), range.contains(number) else {
            return "knob \(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
        }
        return number
    } ?? defaultValue
    KnobRegistry.announce(KnobAnnouncement(name: name, type: .int, value: String(value), defaultValue: String(defaultValue),
                                           minimum: range.lowerBound, maximum: range.upperBound, help: help))
    return value
}

/// A yes-or-no experiment, for example `knob("reAddFinishedOperation", default: false)`.
public func knob(_ name: String, default defaultValue: Bool, _ help: String = "") -> Bool {
    let value = KnobRegistry.resolve(name) { text in
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: return "knob \(name) is true or false, not '\(text)'"
        }
    } ?? defaultValue
    KnobRegistry.announce(KnobAnnouncement(name: name, type: .bool, value: String(value), defaultValue: String(defaultValue), help: help))
    return value
}

/// One of a few named choices, taken from a `String` enumeration of the page's own.
public func knob<Choice>(_ name: String, default defaultValue: Choice, _ help: String = "") -> Choice
where Choice: CaseIterable & RawRepresentable, Choice.RawValue == String {
    let names = Choice.allCases.map(\.rawValue)
    let value = KnobRegistry.resolve(name) { text in
        guard let choice = Choice(rawValue: text) else {
            return "knob \(name) is one of \(names.joined(separator: ", ")), not '\(text)'"
        }
        return choice
    } ?? defaultValue
    KnobRegistry.announce(KnobAnnouncement(name: name, type: .choice, value: value.rawValue, defaultValue: defaultValue.rawValue,
                                           choices: names, help: help))
    return value
}

/// Keeps which knobs the page declared, so a setting for a knob that never appeared is reported when the page ends.
enum KnobRegistry {
    private static let declared = Mutex<Set<String>>([])
    private static let exitCheck: Void = { atexit { KnobRegistry.reportUnusedSettings() } }()

    /// The value set from outside, parsed by `parse`, which returns either the value or the reason it is wrong.
    static func resolve<Value>(_ name: String, parse: (String) -> Any) -> Value? {
        let session = LessonSession.shared
        _ = exitCheck
        declared.withLock { _ = $0.insert(name) }
        guard let text = session.settings.knobValues[name] else { return nil }
        switch parse(text) {
        case let value as Value: return value
        case let problem as String: LessonSession.refuse(problem)
        default: preconditionFailure("a knob parser returns a value or a message")
        }
    }

    static func announce(_ knob: KnobAnnouncement) {
        let session = LessonSession.shared
        session.emit(.knob(knob))
        session.narrate("knob \(knob.name) = \(knob.value)\(knob.value == knob.defaultValue ? "" : " (default \(knob.defaultValue))")")
    }

    private static func reportUnusedSettings() {
        let names = declared.withLock { $0 }
        let unknown = LessonSession.shared.settings.knobValues.keys.filter { !names.contains($0) }.sorted()
        guard !unknown.isEmpty else { return }
        let known = names.isEmpty ? "this page has no knobs" : "its knobs are " + names.sorted().joined(separator: ", ")
        FileHandle.standardError.write(Data("\(LessonSession.pageName): no knob named \(unknown.joined(separator: ", ")); \(known)\n".utf8))
    }
}
