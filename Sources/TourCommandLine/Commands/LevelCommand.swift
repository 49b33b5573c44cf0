import Foundation
import PageProtocol
import TourCore

/// `tour levels`, `tour explore <level>` and `tour play <level> --plain`: the host's side of the levels. Each level is
/// its own program (`Levels/NN-Name/`), built like a page when missing or stale, and run in the protocol's modes
/// (`LevelMessages.swift`) through `LevelPrograms`; everything it sends is said here in words.
public enum LevelCommand {
    /// Where a command's lines go: `emit` for what it reports (standard output), `complain` for mistakes and problems
    /// (standard error).
    public struct Output: Sendable {
        let emit: @Sendable (String) -> Void
        let complain: @Sendable (String) -> Void

        public init(emit: @escaping @Sendable (String) -> Void, complain: @escaping @Sendable (String) -> Void) {
            self.emit = emit
            self.complain = complain
        }
    }

    /// Why a command stopped before it could finish, with its exit status.
    struct Stop: Error {
        let status: ExitStatus
        let message: String
    }

    // MARK: Listing

    /// `tour levels`: one level a line (see `listing`); a level that cannot be built or described is said on `complain`.
    public static func levels(_ programs: LevelPrograms, pages: [Page], output: Output) -> ExitStatus {
        let (lines, problems) = listing(programs, pages: pages, building: output.complain)
        for problem in problems { output.complain("tour: \(problem)") }
        if lines.isEmpty && problems.isEmpty { output.emit("No levels yet: there is no Levels/NN-Name/ folder in \(programs.catalog.root.path).") }
        lines.forEach(output.emit)
        return problems.isEmpty ? .endedAsExpected : .couldNotStart
    }

    /// A line a level: the name the commands take, its title, and the page it comes from; a level whose program cannot
    /// be built or described is listed by its folder's name, and its problem returned. With `building`, stale programs
    /// are built first, their builds said through it; without (`tour list`, which answers at once and builds nothing), a
    /// stale level is listed by its folder's name, saying that `tour levels` builds it.
    public static func listing(_ programs: LevelPrograms, pages: [Page], building: (@Sendable (String) -> Void)?)
        -> (lines: [String], problems: [String]) {
        var problems = building.map { buildStale(programs.staleLevels, programs: programs, output: $0) } ?? []
        let rows = programs.catalog.levels.map { level -> (name: String, text: String) in
            if building == nil && level.programIsStale(in: programs.productsDirectory) {
                return (level.folderName, "(not built yet: tour levels builds it)")
            }
            do throws(LevelProblem) {
                let description = try programs.describe(level)
                let page = description.page.map { number in
                    " (from page \(number)" + (pages.first { $0.number == number }.map { ", \($0.slug)" } ?? "") + ")"
                } ?? ""
                return (description.name, TerminalText.sanitized(description.title) + page)
            } catch {
                if !problems.contains(where: { $0.contains(level.folder) }) { problems.append(error.description) }
                return (level.folderName, "(not available: its program did not describe itself)")
            }
        }
        let width = (rows.map(\.name.count).max() ?? 0) + 2
        return (rows.map { $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.text }, problems)
    }

    /// Builds each of `levels`, saying so through `output`; the problems of those that did not build.
    private static func buildStale(_ levels: [Level], programs: LevelPrograms, output: @escaping @Sendable (String) -> Void) -> [String] {
        levels.compactMap { level in
            PlainRun.buildFirst(product: level.product, sources: level.listSourceFiles(), named: "level \(level.folder)",
                                root: programs.catalog.root, remedy: "fix Levels/\(level.folder).", emit: output)
                ? nil : "level \(level.folder) was not built (above)"
        }
    }

    /// The level `query` names, built if it has to be, and its description.
    static func find(_ query: String, programs: LevelPrograms, output: Output) throws(Stop) -> (Level, LevelDescription) {
        // By its folder, only it is built; by its described name, every level must describe itself.
        let candidates = programs.catalog.level(namedByFolder: query).map { [$0] } ?? programs.catalog.levels
        let unbuilt = buildStale(candidates.filter { $0.programIsStale(in: programs.productsDirectory) }, programs: programs,
                                 output: output.complain)
        let found: Level?
        do throws(LevelProblem) { found = try programs.level(named: query) } catch { throw Stop(status: .couldNotStart, message: error.description) }
        if let level = found {
            if !unbuilt.isEmpty && level.programIsStale(in: programs.productsDirectory) {
                throw Stop(status: .couldNotStart, message: "level \(level.folder) does not build, so it cannot run")
            }
            do throws(LevelProblem) { return (level, try programs.describe(level)) } catch { throw Stop(status: .couldNotStart, message: error.description) }
        }
        let names = programs.catalog.levels.map { (try? programs.describe($0).name) ?? $0.folderName }
        throw Stop(status: .usage, message: names.isEmpty ? "there is no level \(EchoedInput.quoted(query)): there are no levels yet"
                   : "there is no level \(EchoedInput.quoted(query)); the levels are \(names.joined(separator: ", ")) (see tour levels)")
    }

    // MARK: Explore

    /// `tour explore <level>`: runs the level's search and reports it, in words or as one JSON document; `chooseSeed`
    /// gives the seed of a random search given none.
    public static func explore(_ options: TourCommand.ExploreOptions, programs: LevelPrograms, output: Output,
                               chooseSeed: () -> UInt64 = { UInt64.random(in: 0...999_999) }) -> ExitStatus {
        do throws(Stop) {
            if let file = options.saveFile, let problem = saveProblem(file) { throw Stop(status: .usage, message: problem) }
            let (level, description) = try find(options.level, programs: programs, output: output)
            let search: LevelSearch
            if let count = options.random {
                let seed = options.seed ?? chooseSeed()
                if options.seed == nil && !options.json {
                    output.emit("Seed \(seed), chosen for this search: give --seed \(seed) to draw the same schedules again.")
                }
                search = .random(count: count, seed: seed)
            } else {
                search = .preemptions(options.preemptions ?? TourCommand.ExploreOptions.defaultPreemptions)
            }
            let report: ExploreReport
            do throws(LevelProblem) {
                report = try programs.explore(level, fixed: options.fixed, search: search).next(ExploreReport.self)
            } catch {
                throw Stop(status: .couldNotStart, message: error.description)
            }
            if options.json {
                output.emit(json(report))
            } else {
                exploreReport(report, search: search, description: description).forEach(output.emit)
            }
            if let file = options.saveFile {
                let said = options.json ? output.complain : output.emit
                guard let shortest = report.shortest else {
                    said("Nothing was saved to \(file): no schedule failed.")
                    return .endedAsExpected
                }
                let schedule = ScheduleFile(level: report.level, version: report.version, fixed: report.fixed,
                                            threads: shortest.steps.map(\.thread))
                do throws(ExportTarget.WriteFailure) {
                    try ExportTarget.write(Data(schedule.text(steps: shortest.steps).utf8), to: file, option: "--save",
                                           example: "race.schedule", noun: "schedule")
                } catch {
                    output.complain("tour: the schedule was not saved: \(error)")
                    return .traceNotWritten
                }
                said("Saved to \(file); replay it with tour play \(report.level) --plain\(report.fixed ? " --fixed" : "") --schedule \(file)")
            }
            return report.failing > 0 ? .endedOtherwise : .endedAsExpected
        } catch {
            output.complain("tour: \(error.message)")
            return error.status
        }
    }

    /// What is wrong with `file` as `--save`'s target, checked before the search as `--trace`'s is before a run.
    static func saveProblem(_ file: String) -> String? {
        ExportTarget.problem(withTarget: file, option: "--save", example: "race.schedule", noun: "schedule")
    }

    /// The report as one JSON document, `shortest` present (null) when no schedule failed.
    static func json(_ report: ExploreReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // The encoder leaves a nil out; a reader of the document finds `shortest` either way.
        guard let data = try? encoder.encode(report), var document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return "{}"
        }
        if document["shortest"] == nil { document["shortest"] = NSNull() }
        let full = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? data
        return String(decoding: full, as: UTF8.self)
    }

    /// The report in words: what ran, what failed and how, the shortest failing schedule step by step, or the bounded
    /// statement a search without failures makes.
    static func exploreReport(_ report: ExploreReport, search: LevelSearch, description: LevelDescription) -> [String] {
        let which = report.fixed ? "its fix (\(TerminalText.sanitized(description.fix)))" : "the level as written"
        var lines = ["Level \(report.level), version \(report.version): \(which).",
                     "Searched \(TerminalText.sanitized(report.strategy)): \(count(report.schedules, "schedule")) ran, "
                     + "\(CountText.grouped(report.failing)) failed."]
        let (scope, untried) = switch search {
        case .preemptions(let bound): ("schedules with at most \(count(bound, "preemption"))", "a schedule with more preemptions was not tried")
        case .random(_, let seed): ("random schedules drawn from seed \(seed)", "the schedules not drawn were not tried")
        }
        guard report.failing > 0 else {
            lines.append("\(CountText.grouped(report.failing)) of \(CountText.grouped(report.schedules)) \(scope) fail"
                         + (report.exhaustive ? "" : " (not every such schedule was run)") + ".")
            lines.append("That is what this search shows, and no more: \(untried).")
            return lines
        }
        for (kind, number) in report.failures.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(kindWords(LevelFailureKind(rawValue: kind)) ?? TerminalText.sanitized(kind)): \(CountText.grouped(number))")
        }
        if let shortest = report.shortest {
            lines.append("The shortest failing schedule, \(count(shortest.steps.count, "step")):")
            lines += steps(shortest.steps, threads: description.threads).map { "  " + $0 }
            lines += failureLines(shortest.failure, threads: description.threads)
            lines.append("Keep it with --save FILE; tour play \(report.level) --plain\(report.fixed ? " --fixed" : "") --schedule FILE replays it.")
        }
        return lines
    }

    // MARK: Words

    /// "1,284 schedules", "1 step".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(CountText.grouped(number)) \(noun)\(number == 1 ? "" : "s")"
    }

    /// "T1", the thread's name, or its number's when the level gave no name for it.
    static func threadName(_ id: Int, threads: [String]) -> String {
        threads.indices.contains(id - 1) ? TerminalText.sanitized(threads[id - 1]) : "thread \(id)"
    }

    /// "1. T1 load count → 0", a line a step.
    static func steps(_ steps: [LevelStep], threads: [String], from first: Int = 1) -> [String] {
        steps.enumerated().map { index, step in "\(first + index). \(threadName(step.thread, threads: threads)) \(TerminalText.sanitized(step.action))" }
    }

    static func kindWords(_ kind: LevelFailureKind?) -> String? {
        switch kind {
        case .mutualExclusion?: "two threads in the critical section"
        case .lostUpdate?: "a lost update"
        case .deadlock?: "a deadlock"
        case .crash?: "a crash"
        case .assertion?: "a failed assertion"
        case nil: nil
        }
    }

    /// The failure named, and for a deadlock its wait-for graph, an edge a line.
    static func failureLines(_ failure: LevelFailure, threads: [String]) -> [String] {
        ["Failure: \(kindWords(failure.kind) ?? failure.kind.rawValue): \(TerminalText.sanitized(failure.message))"]
            + failure.waitFor.map { "  " + $0.sentence(threads: threads) }
    }
}
