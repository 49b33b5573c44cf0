import PageProtocol
import TourCore

/// A learner's answer to a prediction, graded from the record of one run: right, wrong, or not knowable from it.
public struct PredictionGrade: Sendable, Equatable {
    public enum Outcome: String, Sendable, Equatable {
        case right, wrong
        /// The run cannot tell (it crashed before the moment in question, or a knob took it away).
        case unknown
    }

    public let outcome: Outcome
    /// The choice the learner picked.
    public let answer: Prediction.Choice
    /// What the run showed, with the choice it bore out, if any.
    public let observation: Prediction.Observation
    /// The whole message: "You said (a) the completion block runs on the main thread; it ran on T3, a pool thread."
    public let message: String

    /// Whether the grade is one progress records: a run that cannot tell records nothing.
    public var isKnown: Bool { outcome != .unknown }
}

/// An answer key that is not one of a prediction's choices.
public struct UnknownAnswerKey: Error, Equatable, CustomStringConvertible {
    public let key: String
    public let validKeys: [String]
    public let predictionID: String

    public var description: String {
        "\(EchoedInput.quoted(key)) is not an answer to the prediction \(EchoedInput.quoted(predictionID)); "
            + "the answers are \(validKeys.joined(separator: ", ")) (see tour predict <page>)"
    }
}

extension Prediction {
    /// The choice whose key is `key` (case and surrounding spaces ignored), or the error that lists the valid keys.
    public func choice(forKey key: String) throws(UnknownAnswerKey) -> Choice {
        let wanted = key.trimmingCharacters(in: .whitespaces).lowercased()
        guard let choice = choices.first(where: { $0.key.lowercased() == wanted }) else {
            throw UnknownAnswerKey(key: key, validKeys: choices.map(\.key), predictionID: id)
        }
        return choice
    }

    /// Grades the answer `key` from `record`, a run of the prediction's page.
    public func grade(answer key: String, from record: RunRecord) throws(UnknownAnswerKey) -> PredictionGrade {
        let answer = try choice(forKey: key)
        let observation = observe(record)
        let said = "You said (\(answer.key)) \(answer.text)"
        let outcome: PredictionGrade.Outcome
        let message: String
        switch observation.rightChoice {
        case nil:
            outcome = .unknown
            message = "\(said); this run cannot tell: \(observation.happened)."
        case let right? where right.lowercased() == answer.key.lowercased():
            outcome = .right
            message = "Right. \(said); \(observation.happened)."
        case let right?:
            outcome = .wrong
            let rightText = choices.first { $0.key.lowercased() == right.lowercased() }.map { " The answer was (\($0.key)) \($0.text)." } ?? ""
            message = "\(said); \(observation.happened).\(rightText)"
        }
        return PredictionGrade(outcome: outcome, answer: answer, observation: observation, message: message)
    }

    /// The question and its choices, one line each, as `tour predict` prints them.
    public var questionLines: [String] {
        [question] + choices.map { "  (\($0.key)) \($0.text)" }
    }
}
