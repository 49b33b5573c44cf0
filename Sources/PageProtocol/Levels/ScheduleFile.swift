/// A schedule saved to a file (`tour explore --save`) and replayed (`tour play --schedule`): the level and version it was
/// made for, whether it drives the level's fix, and one thread number a step.
///
/// ```
/// # tour schedule
/// level lost-update 1
/// fixed no
/// 1  # load count → 0
/// 2  # load count → 0
/// 1  # store count = 1
/// 2  # store count = 1
/// ```
///
/// Blank lines and what follows `#` are ignored. The header lines come first, in that order.
public struct ScheduleFile: Sendable, Equatable {
    public var level: String
    public var version: Int
    public var fixed: Bool
    public var threads: [Int]
    /// Where a parsed file said each thing, for a refusal to name the line: not part of the schedule itself, so two
    /// schedules are equal whatever their files' comments and blank lines.
    public var lines = Lines()

    /// The 1-based line numbers of a parsed file's `level` line, its `fixed` line and each step; 0 and none for a
    /// schedule made otherwise.
    public struct Lines: Sendable, Equatable {
        public var level = 0
        public var fixed = 0
        public var steps: [Int] = []

        public init(level: Int = 0, fixed: Int = 0, steps: [Int] = []) {
            self.level = level
            self.fixed = fixed
            self.steps = steps
        }
    }

    public init(level: String, version: Int, fixed: Bool, threads: [Int]) {
        self.level = level
        self.version = version
        self.fixed = fixed
        self.threads = threads
    }

    public static func == (left: ScheduleFile, right: ScheduleFile) -> Bool {
        (left.level, left.version, left.fixed, left.threads) == (right.level, right.version, right.fixed, right.threads)
    }

    /// A line of a schedule file that is not what it should be: its number (1-based), the line, and what was expected.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var text: String
        public var expected: String

        public init(line: Int, text: String, expected: String) {
            self.line = line
            self.text = text
            self.expected = expected
        }

        public var description: String {
            text.isEmpty ? "line \(line): \(expected)" : "line \(line), '\(TerminalText.sanitized(text))': \(expected)"
        }
    }

    /// The schedule in `text`, or the first line that is wrong. A step's thread must be from 1 to `threadLimit`.
    public static func parse(_ text: String, threadLimit: Int = 9) throws(Problem) -> ScheduleFile {
        var level: (name: String, version: Int)?
        var fixed: Bool?
        var threads: [Int] = []
        var lines = Lines()
        var lastLine = 0
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            lastLine = number
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty { continue }
            let line = String(rawLine)
            if level == nil {
                guard words.count == 3, words[0] == "level", let version = Int(words[2]), version > 0 else {
                    throw Problem(line: number, text: line, expected: "the first line names the level and its version: level NAME VERSION")
                }
                level = (words[1], version)
                lines.level = number
            } else if fixed == nil {
                guard words.count == 2, words[0] == "fixed", ["yes", "no"].contains(words[1]) else {
                    throw Problem(line: number, text: line, expected: "the second line says whether it plays the fix: fixed yes or fixed no")
                }
                fixed = words[1] == "yes"
                lines.fixed = number
            } else {
                guard words.count == 1, let thread = Int(words[0]), (1...threadLimit).contains(thread) else {
                    throw Problem(line: number, text: line, expected: "a step is one thread number from 1 to \(threadLimit)")
                }
                threads.append(thread)
                lines.steps.append(number)
            }
        }
        guard let level else { throw Problem(line: max(lastLine, 1), text: "", expected: "the file is empty: a schedule starts with level NAME VERSION") }
        guard let fixed else { throw Problem(line: lastLine, text: "", expected: "the file ends before fixed yes or fixed no") }
        var schedule = ScheduleFile(level: level.name, version: level.version, fixed: fixed, threads: threads)
        schedule.lines = lines
        return schedule
    }

    /// The file's text, each step commented with its action where `steps` gives one.
    public func text(steps: [LevelStep] = []) -> String {
        var lines = ["# tour schedule: replay with tour play \(level) --schedule FILE", "level \(level) \(version)", "fixed \(fixed ? "yes" : "no")"]
        for (index, thread) in threads.enumerated() {
            let action = index < steps.count && steps[index].thread == thread ? "  # \(steps[index].action)" : ""
            lines.append("\(thread)\(action)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
