import Foundation
import PageProtocol
import TourCore

/// `tour play <level> --plain`: the learner is the scheduler, one thread number a line on standard input, and every
/// state the level sends is said in words a screen reader reads in order. A saved schedule (`--schedule FILE`) is
/// checked against the level before the game and played first, printing what the same steps typed would print.
extension LevelCommand {
    /// A win of the level as written (not of its fix) is passed to `recordWin`, with its level's name and steps.
    public static func play(_ options: TourCommand.PlayOptions, programs: LevelPrograms, input: () -> String?, output: Output,
                            recordWin: (_ level: String, _ steps: Int) -> Void = { _, _ in }) -> ExitStatus {
        do throws(Stop) {
            let (level, description) = try find(options.level, programs: programs, output: output)
            let schedule = try options.scheduleFile.map { file throws(Stop) in try checkedSchedule(file, description: description, fixed: options.fixed) }
            introduction(description, fixed: options.fixed).forEach(output.emit)
            let game: LevelGame
            do throws(LevelProblem) {
                game = try programs.play(level, fixed: options.fixed)
            } catch {
                throw Stop(status: .couldNotStart, message: error.description)
            }
            defer { game.stop() }
            var state = game.state
            stateLines(state, threads: description.threads).forEach(output.emit)
            var replayed = 0
            while !state.ended {
                let thread: Int
                /// The schedule's line the step comes from; nil for a step typed.
                var scheduleLine: Int?
                if let schedule, replayed < schedule.threads.count {
                    thread = schedule.threads[replayed]
                    scheduleLine = schedule.lines.steps[replayed]
                    replayed += 1
                } else {
                    guard let line = input() else {
                        output.emit("The input ended before the run did: no failure reached this time.")
                        return .endedOtherwise
                    }
                    let typed = line.trimmingCharacters(in: .whitespaces)
                    if typed.isEmpty { continue }
                    guard let number = Int(typed) else {
                        output.emit("Type a thread's number, 1 to \(description.threads.count), and Enter; \(EchoedInput.quoted(typed)) is not one.")
                        continue
                    }
                    thread = number
                }
                let before = state
                do throws(LevelProblem) {
                    state = try game.step(thread)
                } catch {
                    throw Stop(status: .couldNotStart, message: error.description)
                }
                if let refusal = state.refusal {
                    output.emit("Refused: \(TerminalText.sanitized(refusal)).")
                    if let line = scheduleLine, let file = options.scheduleFile {
                        throw Stop(status: .usage, message: problem(file, line: line, "the level refused this step, so the schedule does not fit this level"))
                    }
                    continue
                }
                stateLines(state, threads: description.threads, after: before).forEach(output.emit)
            }
            if let schedule, let file = options.scheduleFile, replayed < schedule.threads.count {
                throw Stop(status: .usage, message: problem(file, line: schedule.lines.steps[replayed],
                                                            "the run ended after step \(replayed); this schedule is longer than the level's run"))
            }
            ending(state, description: description, fixed: options.fixed).forEach(output.emit)
            if state.failure != nil && !options.fixed { recordWin(description.name, state.steps.count) }
            return state.failure == nil ? .endedOtherwise : .endedAsExpected
        } catch {
            output.complain("tour: \(error.message)")
            return error.status
        }
    }

    /// The schedule in `file`, checked against the level before anything runs: garbled, for another level or version,
    /// or for the fix when the level is played (or the other way round), it is refused with its line.
    static func checkedSchedule(_ file: String, description: LevelDescription, fixed: Bool) throws(Stop) -> ScheduleFile {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw Stop(status: .usage, message: "--schedule \(file) cannot be read: \((error as NSError).localizedDescription)")
        }
        let schedule: ScheduleFile
        do throws(ScheduleFile.Problem) {
            schedule = try ScheduleFile.parse(text, threadLimit: max(description.threads.count, 1))
        } catch {
            throw Stop(status: .usage, message: "\(file): \(error)")
        }
        let this = "this is level \(description.name), version \(description.version)"
        if schedule.level != description.name || schedule.version != description.version {
            throw Stop(status: .usage, message: problem(file, line: schedule.lines.level, text: text,
                                                        "this schedule is for level \(schedule.level), version \(schedule.version); \(this)"))
        }
        if schedule.fixed != fixed {
            throw Stop(status: .usage, message: problem(file, line: schedule.lines.fixed, text: text, schedule.fixed
                                                        ? "this schedule plays the level's fix: add --fixed to replay it"
                                                        : "this schedule plays the level as written: replay it without --fixed"))
        }
        return schedule
    }

    /// "race.schedule: line 7: …", with the line's text when `text` gives it.
    static func problem(_ file: String, line: Int, text: String? = nil, _ what: String) -> String {
        let lines = (text ?? (try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        let problem = ScheduleFile.Problem(line: line, text: lines.indices.contains(line - 1) ? String(lines[line - 1]) : "", expected: what)
        return "\(file): \(problem)"
    }

    /// What the level is, what to make it do, and how to play.
    static func introduction(_ description: LevelDescription, fixed: Bool) -> [String] {
        let page = description.page.map { " (from page \($0))" } ?? ""
        let threads = description.threads.enumerated().map { "\($0.offset + 1) \(TerminalText.sanitized($0.element))" }
        return ["Level \(description.name): \(TerminalText.sanitized(description.title))\(page)\(fixed ? ", its fix: \(TerminalText.sanitized(description.fix))" : "")",
                TerminalText.sanitized(description.introduction),
                "Goal: \(TerminalText.sanitized(description.goal)).",
                "Threads: \(threads.joined(separator: ", ")). Type a thread's number and Enter to let it take its next step; end the input (Ctrl-D) to stop."]
    }

    /// The state in words: the step just taken (since the state `after`), the work done outside the gates since then,
    /// each thread (number, name, status, line, next step, what it holds and waits for), the shared values and the locks.
    static func stateLines(_ state: PlayState, threads names: [String], after previous: PlayState? = nil) -> [String] {
        var lines: [String] = []
        if let previous, state.steps.count > previous.steps.count, let step = state.steps.last {
            lines += steps([step], threads: names, from: state.steps.count).map { "Step \($0)" }
        }
        let seen = previous?.ungated ?? []
        lines += (state.ungated ?? []).filter { !seen.contains($0) }.map { "Ungated: \($0.sentence(threads: names))." }
        for thread in state.threads {
            var parts = ["Thread \(thread.id) \(TerminalText.sanitized(thread.name)): \(thread.status.rawValue)"]
            if let waits = thread.blockedOn { parts[0] += " on \(TerminalText.sanitized(waits))" }
            if let line = thread.line { parts.append("line \(line)") }
            if let next = thread.next { parts.append("next \(TerminalText.sanitized(next))") }
            parts.append(thread.holds.isEmpty ? "holds nothing" : "holds \(thread.holds.map(TerminalText.sanitized).joined(separator: " and "))")
            lines.append(parts.joined(separator: ", ") + ".")
        }
        if !state.shared.isEmpty {
            lines.append("Shared: " + state.shared.map { "\(TerminalText.sanitized($0.name)) = \(TerminalText.sanitized($0.value))" }.joined(separator: ", ") + ".")
        }
        let held = state.threads.flatMap { thread in thread.holds.map { "\(TerminalText.sanitized($0)) held by \(TerminalText.sanitized(thread.name))" } }
        lines.append("Locks: " + (held.isEmpty ? "none held" : held.joined(separator: ", ")) + ".")
        return lines
    }

    /// The end of the game: the win (the failure and the schedule that made it), or a run that ended without one.
    static func ending(_ state: PlayState, description: LevelDescription, fixed: Bool) -> [String] {
        guard let failure = state.failure else {
            return ["The run ended and the level's check held: no failure this time\(fixed ? " (the fix held in this schedule)" : ""). Try another order."]
        }
        let threads = state.steps.map { "\($0.thread)" }.joined(separator: " ")
        return ["You won: the run reached \(kindWords(failure.kind) ?? failure.kind.rawValue)."]
            + failureLines(failure, threads: description.threads)
            + ["The schedule that made it, \(count(state.steps.count, "step")): \(threads)"]
            + steps(state.steps, threads: description.threads).map { "  " + $0 }
            + ["To keep a failing schedule: tour explore \(description.name)\(fixed ? " --fixed" : "") --save FILE writes the shortest one, "
               + "and tour play \(description.name) --plain --schedule FILE replays it."]
    }
}
