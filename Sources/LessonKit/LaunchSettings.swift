import PageProtocol

/// What the host (or a learner at the shell) asked of this run: knob values and the speed factor.
///
/// Arguments win over the environment: `--set name=value` (repeatable) and `--speed N`,
/// or `TOUR_SET="name=value,name=value"` and `TOUR_SPEED=N`.
struct LaunchSettings: Sendable {
    var knobValues: [String: String] = [:]
    var speed: Double = 1

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: [String], environment: [String: String]) throws {
        if let list = environment[PageEnvironment.knobSettings], !list.isEmpty {
            for assignment in list.split(separator: ",") {
                try record(String(assignment))
            }
        }
        if let speedText = environment[PageEnvironment.speed] {
            speed = try Self.parseSpeed(speedText)
        }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--set":
                guard let assignment = remaining.popFirst() else {
                    throw Problem(description: "--set needs a value like --set name=value")
                }
                try record(assignment)
            case "--speed":
                guard let value = remaining.popFirst() else {
                    throw Problem(description: "--speed needs a number, for example --speed 4")
                }
                speed = try Self.parseSpeed(value)
            default:
                throw Problem(description: "unknown argument '\(argument)'; a page takes --set name=value and --speed N")
            }
        }
    }

    private mutating func record(_ assignment: String) throws {
        let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw Problem(description: "'\(assignment)' is not a knob setting; write name=value, for example maxConcurrentOperationCount=1")
        }
        knobValues[String(parts[0])] = String(parts[1])
    }

    static func parseSpeed(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite, value >= 0.1, value <= 100 else {
            throw Problem(description: "speed '\(text)' is not a number from 0.1 to 100 (1 is real time, 4 runs simulated waits four times faster)")
        }
        return value
    }
}
