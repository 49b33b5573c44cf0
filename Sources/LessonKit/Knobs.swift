import Foundation
import PageProtocol

/// An integer experiment the learner can change from outside, for example
/// `let width = knob("maxConcurrentOperationCount", default: 2, in: 1...8)`.
public func knob(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>, _ help: String = "") -> Int {
    guard case .integer(let value) = KnobRegistry.value(of: KnobSpec(name: name, kind: .integer(default: defaultValue, range: range)), help: help) else {
        preconditionFailure("an integer knob's value is an integer")
    }
    return value
}

/// A yes-or-no experiment, for example `knob("reAddFinishedOperation", default: false)`.
public func knob(_ name: String, default defaultValue: Bool, _ help: String = "") -> Bool {
    guard case .boolean(let value) = KnobRegistry.value(of: KnobSpec(name: name, kind: .boolean(default: defaultValue)), help: help) else {
        preconditionFailure("a boolean knob's value is a boolean")
    }
    return value
}

/// One of a few named choices, taken from a `String` enumeration of the page's own.
public func knob<Choice>(_ name: String, default defaultValue: Choice, _ help: String = "") -> Choice
where Choice: CaseIterable & RawRepresentable, Choice.RawValue == String {
    let spec = KnobSpec(name: name, kind: .choice(default: defaultValue.rawValue, choices: Choice.allCases.map(\.rawValue)))
    guard case .choice(let rawValue) = KnobRegistry.value(of: spec, help: help), let value = Choice(rawValue: rawValue) else {
        preconditionFailure("a choice knob's value is one of its choices")
    }
    return value
}

/// Keeps which knobs the page declared, so a setting for a knob that never appeared is reported when the page ends.
enum KnobRegistry {
    private static let declared = SanitizerVisibleLock<Set<String>>([])
    private static let exitCheck: Void = { atexit { KnobRegistry.reportUnusedSettings() } }()

    /// The value this run uses for `spec`: the one set from outside, checked by the spec (a wrong one stops the page
    /// with the spec's message), or else the default; announced to the host and narrated.
    static func value(of spec: KnobSpec, help: String) -> KnobSpec.Value {
        let session = LessonSession.shared
        _ = exitCheck
        declared.withLock { _ = $0.insert(spec.name) }
        var value = spec.defaultValue
        if let text = session.settings.value(ofKnob: spec.name) {
            do {
                value = try spec.value(from: text)
            } catch {
                LessonSession.refuse(error.description)
            }
        }
        let knob = KnobAnnouncement(spec, value: value, help: help)
        session.emit(.knob(knob))
        session.narrate("knob \(knob.name) = \(knob.value)\(knob.value == knob.defaultValue ? "" : " (default \(knob.defaultValue))")")
        return value
    }

    private static func reportUnusedSettings() {
        let names = declared.withLock { $0 }.sorted()
        for unknown in Set(LessonSession.shared.settings.knobSettings.map(\.name)).sorted() where !names.contains(unknown) {
            let problem = KnobSpec.unknownKnob(unknown, among: names, of: "this page")
            FileHandle.standardError.write(Data("\(LessonSession.pageName): \(problem)\n".utf8))
        }
    }
}
