import Foundation
import Testing
import TourCore
import TourTestSupport

/// `tour` as a learner types it without a terminal: its output and its exit statuses.
@Suite("tour in plain mode", .bodiesBelowTheRunner)
struct PlainModeTests {
    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the built `tour` with `arguments`, its output on pipes (so never a terminal), and waits for it.
    /// It takes a page-run slot (`PageRunSlots`), as most of these commands run a page. `environment` goes over the
    /// test's own (`TOUR_ROOT` for pages of the test's, say).
    static func tour(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> Outcome {
        try await PageRunSlots.shared.withSlot {
            try await awaitBlocking("tour-plain") { try runTour(arguments, environment: extra) }
        }
    }

    /// `tour`, blocking the calling thread while the process runs.
    private static func runTour(_ arguments: [String], environment extra: [String: String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: "tour"))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        // The runs it records go to a folder of the test's, never the learner's progress.
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("plain-mode-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        environment["XDG_STATE_HOME"] = state.path
        process.environment = environment.merging(extra) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both to their end before waiting, so a full pipe can never stall the child.
        let errorData = ErrorsRead()
        Thread { errorData.finish(errors.fileHandleForReading.readDataToEndOfFile()) }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                       errors: String(decoding: errorData.wait(), as: UTF8.self))
    }

    @Test func listShowsThePagesInOrderUnderTheirPartsThenTheLevels() async throws {
        let outcome = try await Self.tour(["list"])
        #expect(outcome.status == 0)
        let lines = outcome.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let pages = try PageCatalog.load().pages
        // Part one's eight pages keep their numbers and order; part two follows from page 9.
        let partOne = ["operation", "queue", "async", "dependencies", "in-practice", "gcd", "groups", "barrier"]
        #expect(Array(pages.prefix(8).map(\.slug)) == partOne)
        #expect(pages.map(\.number) == Array(1...pages.count))
        let numberWidth = String(pages.count).count
        func start(_ page: Page) -> String {
            String(page.number).padding(toLength: numberWidth, withPad: " ", startingAt: 0) + "  \(page.slug) "
        }
        var expected = ["Part one: Operations and Dispatch"] + pages.prefix(8).map(start)
        if pages.count > 8 {
            expected += ["", "Part two: Swift Concurrency"] + pages.dropFirst(8).map(start)
        }
        // Then the levels, each line beginning with the name the commands take (built or not, the folder gives it).
        let levels = LevelCatalog.load().levels
        #expect(levels.count >= 8)
        expected += ["", "Be the scheduler (tour play <level> --plain, tour explore <level>)"] + levels.map { $0.folderName + " " }
        expected.append("")
        #expect(lines.count == expected.count, "\(lines)")
        for (line, start) in zip(lines, expected) {
            #expect(start.isEmpty ? line.isEmpty : line.hasPrefix(start), "'\(line)' does not start with '\(start)'")
        }
    }

    @Test func runningPageOneShowsOutputResultsLanesAndAnEndingInWords() async throws {
        let outcome = try await Self.tour(["run", "operation", "--plain", "--speed", "10"])
        #expect(outcome.status == 0)
        let text = outcome.output
        #expect(text.contains("main  [com.apple.main-thread]  Loaded coffee: 400x300 pixels"), "output lines carry the thread and the queue that printed them, in ASCII")
        #expect(text.contains("Results by line"))
        #expect(text.contains("main.swift:"))
        #expect(text.contains("Timeline"))
        let lanes = text.split(separator: "\n").filter { $0.contains(" |") && $0.hasSuffix("|") }
        #expect(lanes.count >= 2, "one lane per thread that did something: \(lanes)")
        #expect(text.contains("Ended: ended normally - as the page said it would"))
        #expect(lanes.allSatisfy { lane in lane.split(separator: "|").dropFirst().joined().allSatisfy(\.isASCII) },
                "--plain draws the timeline in ASCII")
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "--plain prints ASCII only: the header's dot, the ending's dash, the page's ×")
    }

    /// Part two's last three pages, as a learner or a speaker runs them line by line, in real time and four times faster.
    @Test("Pages 12 to 14 run to the ending they announce in plain mode, at 1× and 4×",
          arguments: ["12", "13", "14"], ["1", "4"])
    func partTwosNewPagesEndAsAnnounced(page: String, speed: String) async throws {
        let outcome = try await Self.tour(["run", page, "--plain", "--speed", speed])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("Ended: ended normally - as the page said it would"), "\(outcome.output.suffix(400))")
        #expect(outcome.output.contains("Done: "))
    }

    @Test func theCrashKnobEndsExplainedAndAsExpected() async throws {
        let outcome = try await Self.tour(["run", "1", "--plain", "--speed", "10", "--set", "reAddFinishedOperation=true"])
        #expect(outcome.status == 0, "the page announced the crash, so it ended as expected")
        #expect(outcome.output.contains("crashed: Fatal error: operations finished, executing or already in a queue cannot be enqueued"))
        #expect(outcome.output.contains("an Operation instance runs once"))
    }

    @Test(arguments: [
        (["run", "nosuch"], "there is no page 'nosuch'; the pages are 1 operation, 2 queue"),
        (["run", "1", "--set", "bogus=1"], "no knob named 'bogus'; the knobs of page 1 (operation) are"),
        (["run", "1", "--set", "executionBlocks=99"], "knob executionBlocks takes a whole number from 1 to 6, not '99'"),
        (["run", "3", "--set", "requestedPhoto=hubble"], "knob requestedPhoto is one of rocket, coffee, retina, unicorn, not 'hubble'"),
        (["run", "1", "--set", "executionBlocks"], "'executionBlocks' is not a knob setting: it has no '='; write --set name=value"),
        (["run", "1", "--set", "executionBlocks="], "knob executionBlocks takes a whole number from 1 to 6, but 'executionBlocks=' gives it no value; write for example --set executionBlocks=3"),
        (["run", "1", "--speed", "0"], "--speed needs a number from 0.1 to 100"),
        (["run"], "run needs a page"),
        (["frobnicate"], "unknown command 'frobnicate'"),
    ])
    func badInputNamesWhatIsWrongAndExitsTwo(arguments: [String], message: String) async throws {
        let outcome = try await Self.tour(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains(message), "stderr was: \(outcome.errors)")
        #expect(outcome.output.isEmpty, "nothing ran")
    }

    @Test func helpAndVersion() async throws {
        let help = try await Self.tour(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("tour run <page> [options]"))
        #expect(help.output.contains("Exit status of run"))
        let version = try await Self.tour(["--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("tour \(TourVersion.current) "))
    }

    /// Every command the top-level help lists prints its own usage for `--help` and `-h`, on standard output, and
    /// exits 0; the commands are read from the help, so one added there is tried here too.
    @Test func everyCommandsHelpExitsZero() async throws {
        let help = try await Self.tour(["--help"])
        let commands = Set(help.output.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard line.hasPrefix("  tour "), words.count > 1, let first = words[1].first, first.isLetter else { return nil }
            return String(words[1])
        })
        #expect(commands == ["notes", "list", "run", "watch", "reset", "progress", "predict", "check", "hint", "solution", "levels", "explore",
                             "play", "present", "room"])
        for command in commands.sorted() {
            for flag in ["--help", "-h"] {
                let usage = try await Self.tour([command, flag])
                #expect(usage.status == 0, "tour \(command) \(flag): \(usage.errors)")
                #expect(usage.output.hasPrefix("Usage:\n  tour \(command)"), "tour \(command) \(flag): \(usage.output)")
                #expect(usage.errors.isEmpty, "tour \(command) \(flag)")
            }
        }
    }

    @Test func traceExportIsChromeTraceJSONWithOneThreadNamePerThreadSeen() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tour-trace-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try await Self.tour(["run", "operation", "--plain", "--speed", "10", "--trace", file.path])
        #expect(outcome.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        let named = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }.compactMap { $0["tid"] as? Int }
        let seen = Set(events.filter { ["X", "i"].contains($0["ph"] as? String) }.compactMap { $0["tid"] as? Int })
        #expect(named.count == Set(named).count, "one thread_name per thread")
        #expect(seen.isSubset(of: Set(named)), "every thread with events is named")
        #expect(seen.count >= 2)
        // Lanes are named as plain mode names them: main, then T1, T2… in the order the threads appeared.
        let allNames = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        // Each lane's sampled states have a track of their own beside it, "main state", "T1 state"…
        let names = allNames.filter { !$0.hasSuffix(" state") }
        #expect(names == ["main"] + (1..<names.count).map { "T\($0)" })
        #expect(Set(allNames.filter { $0.hasSuffix(" state") }).isSubset(of: Set(names.map { "\($0) state" })))
        #expect(names.allSatisfy { name in outcome.output.contains("  \(name) ") }, "each lane name appears in the plain output")
        let spans = events.filter { $0["ph"] as? String == "X" }
        #expect(spans.contains { $0["name"] as? String == "tilt-shift in a block operation" })
        #expect(spans.allSatisfy { ($0["dur"] as? Double ?? -1) >= 0 && $0["ts"] is Double })
    }
}

/// Standard error, read to its end on a thread of its own and handed over once complete.
final class ErrorsRead: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    func finish(_ read: Data) {
        data = read
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
