import Foundation
import PageProtocol

/// A level program's entry point: `LevelMain.run(level)` reads the mode from the command line and never returns.
///
/// The modes are the protocol's (`LevelMessages.swift`):
/// - `--describe`: prints one `LevelDescription`.
/// - `--explore [--fixed] (--preemptions K | --random N --seed S)`: searches the schedules in this process and prints
///   one `ExploreReport`; exits 1 when a schedule failed, 0 when none did. Without a strategy, `--preemptions 2`.
/// - `--play [--fixed]`: prints a `PlayState`, then reads one thread number a line and prints the state after each step.
/// - no mode: runs the level once, uncontrolled, as a page: its gates are marks on its lanes.
///
/// Bad arguments print what is wrong and what is right on standard error, and exit 2.
public enum LevelMain {
    public enum Mode: Equatable {
        case describe
        case explore(fixed: Bool, strategy: Strategy)
        case play(fixed: Bool)
        case page
    }

    /// A search as the command line asks for it.
    public enum Strategy: Equatable {
        case preemptions(Int)
        case random(count: Int, seed: UInt64)
    }

    public static let usage = """
        usage: LEVEL --describe
               LEVEL --explore [--fixed] (--preemptions K | --random N --seed S)
               LEVEL --play [--fixed]
               LEVEL            (runs the level once, uncontrolled, as a page)
        """

    /// PCT's depth: bugs needing up to two priority changes (three threads' worth of ordering) are in reach.
    static let pctDepth = 3

    /// The mode `arguments` ask for, or what is wrong with them.
    public static func mode(_ arguments: [String]) throws(ArgumentProblem) -> Mode {
        guard let first = arguments.first else { return .page }
        var rest = Array(arguments.dropFirst())
        let fixed = rest.contains("--fixed")
        rest.removeAll { $0 == "--fixed" }
        switch first {
        case "--describe":
            guard arguments.count == 1 else { throw ArgumentProblem("--describe takes nothing after it, not '\(arguments[1])'") }
            return .describe
        case "--play":
            guard rest.isEmpty else { throw ArgumentProblem("--play takes only --fixed, not '\(rest[0])'") }
            return .play(fixed: fixed)
        case "--explore":
            var preemptions: Int?
            var count: Int?
            var seed: UInt64?
            while !rest.isEmpty {
                let option = rest.removeFirst()
                guard let value = rest.first else { throw ArgumentProblem("\(option) needs a value after it") }
                rest.removeFirst()
                switch option {
                case "--preemptions":
                    guard let number = Int(value), number >= 0 else { throw ArgumentProblem("--preemptions takes a whole number from 0, not '\(value)'") }
                    preemptions = number
                case "--random":
                    guard let number = Int(value), number >= 1 else { throw ArgumentProblem("--random takes a number of schedules from 1, not '\(value)'") }
                    count = number
                case "--seed":
                    guard let number = UInt64(value) else { throw ArgumentProblem("--seed takes a whole number from 0, not '\(value)'") }
                    seed = number
                default:
                    throw ArgumentProblem("--explore takes --fixed, --preemptions K, or --random N --seed S, not '\(option)'")
                }
            }
            switch (preemptions, count, seed) {
            case (let bound?, nil, nil): return .explore(fixed: fixed, strategy: .preemptions(bound))
            case (nil, let count?, let seed?): return .explore(fixed: fixed, strategy: .random(count: count, seed: seed))
            case (nil, nil, nil): return .explore(fixed: fixed, strategy: .preemptions(2))
            case (nil, _?, nil): throw ArgumentProblem("--random N needs --seed S, so its schedules can be drawn again")
            case (nil, nil, _?): throw ArgumentProblem("--seed S goes with --random N")
            default: throw ArgumentProblem("--preemptions and --random are two searches: give one")
            }
        default:
            throw ArgumentProblem("unknown mode '\(first)': give --describe, --explore or --play")
        }
    }

    public struct ArgumentProblem: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public static func run(_ level: Level) -> Never {
        let mode: Mode
        do {
            mode = try Self.mode(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("\(level.description.name): \(error)\n\(usage)\n".utf8))
            exit(2)
        }
        switch mode {
        case .describe:
            printLine(level.description)
            exit(0)
        case .explore(let fixed, let strategy):
            let exploration = Exploration(level: level, fixed: fixed)
            let report = switch strategy {
            case .preemptions(let bound): exploration.explore(.boundedPreemptions(bound))
            case .random(let count, let seed): exploration.explore(.random(count: count, seed: seed, depth: pctDepth))
            }
            printLine(report)
            exit(report.failing > 0 ? 1 : 0)
        case .play(let fixed):
            play(level, fixed: fixed)
        case .page:
            runAsPage(level)
        }
    }

    /// Play: a state after the start, then one a line of input.
    static func play(_ level: Level, fixed: Bool) -> Never {
        let driver = LevelDriver(level, fixed: fixed) { driver, crash in printLine(driver.state(crash: crash)) }
        printLine(driver.state())
        while let line = readLine() {
            printLine(playStep(driver, input: line, threads: level.description.threads.count))
            // A thread that escaped the watchdog cannot be joined: the process ends rather than wait for it.
            if driver.runaway != nil { exit(0) }
        }
        if !driver.ended { driver.drain() }
        exit(0)
    }

    /// The state after one line of play's input: the step taken, or the same state with why it was refused.
    static func playStep(_ driver: LevelDriver, input: String, threads: Int) -> PlayState {
        let text = input.trimmingCharacters(in: .whitespaces)
        if driver.ended {
            return driver.state(refusal: "the run has ended; nothing more can step (restart to play again)")
        }
        guard let thread = Int(text), (1...threads).contains(thread) else {
            return driver.state(refusal: "'\(TerminalText.sanitized(text))' is not a thread: type a thread number from 1 to \(threads)")
        }
        let state = driver.state()
        let column = state.threads[thread - 1]
        switch column.status {
        case .finished:
            return driver.state(refusal: "T\(thread) has finished")
        case .blocked:
            return driver.state(refusal: "T\(thread) is blocked on \(column.blockedOn ?? "a step it cannot take"): pick another thread")
        case .enabled:
            driver.step(thread)
            return driver.state(refusal: driver.runaway)
        }
    }

    /// The level as a page: one uncontrolled run, its gates marks on the lanes, its check printed.
    static func runAsPage(_ level: Level) -> Never {
        let run = LevelRun(uncontrolledWith: level.description.threads)
        let check = level.body(run)
        let deadline = Date(timeIntervalSinceNow: 10)
        run.condition.lock()
        while !run.threads.allSatisfy({ $0.state == .finished }) {
            if !run.condition.wait(until: deadline) {
                run.condition.unlock()
                print("\(level.description.title): the threads have not ended in 10 s (a deadlock, as this run met it)")
                exit(1)
            }
        }
        run.condition.unlock()
        if let failure = check() {
            print("\(level.description.title): this run failed: \(failure.message)")
        } else {
            print("\(level.description.title): this run held; `tour explore \(level.description.name)` searches every schedule")
        }
        exit(0)
    }

    static func printLine(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
