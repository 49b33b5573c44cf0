import Foundation
import LessonKit
import Synchronization

/// Rebuilds a page with Thread Sanitizer in a build folder of its own, and runs the instrumented program,
/// streaming the build's progress and the sanitizer's report (demangled) into the page's output.
struct ThreadSanitizerRun {
    let product: String

    /// The package this page belongs to: `TOUR_ROOT` when set, as for the rest of the tutorial,
    /// otherwise the checkout this file was compiled from (`Lessons/08-Barrier/` is two folders below it).
    var packageRoot: URL {
        if let root = ProcessInfo.processInfo.environment["TOUR_ROOT"], !root.isEmpty {
            return URL(fileURLWithPath: root, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Apart from the normal build, so switching the sanitizer on and off never rebuilds either from scratch.
    var scratchPath: URL { packageRoot.appendingPathComponent(".build/tsan", isDirectory: true) }

    var executable: URL { scratchPath.appendingPathComponent("debug").appendingPathComponent(product) }

    /// What one instrumented run found.
    struct Findings: CustomStringConvertible {
        var warnings: Int
        var exitStatus: Int32

        var description: String { "\(warnings) warning\(warnings == 1 ? "" : "s"), exit status \(exitStatus)" }
    }

    /// Builds the instrumented program and says whether that worked; the compiler's lines appear as they come.
    func build() -> Bool {
        let arguments = ["build", "--sanitize=thread", "--scratch-path", scratchPath.path, "--product", product]
        print("$ cd \(packageRoot.path) && swift \(arguments.joined(separator: " "))")
        // Marks rather than a span around it: a compile can be silent for longer than the watchdog allows an open span.
        mark("Thread Sanitizer build started")
        let quiet = QuietnessReporter(message: "still building", after: 10)
        let status = quiet.during {
            runSwift(arguments, in: packageRoot) { line in
                quiet.noteLine()
                print("  " + line)
            }
        }
        mark("Thread Sanitizer build ended")
        if status != 0 {
            print("The Thread Sanitizer build failed (status \(status)); its messages are above.")
        }
        return status == 0
    }

    /// Runs the instrumented page with `knobs` (never the sanitizer knob itself, so it cannot start a build of its own)
    /// and shows its output, then the first warning in full and the summary line of every other.
    @discardableResult
    func run(knobs: [String], title: String) -> Findings {
        let arguments = knobs.flatMap { ["--set", $0] } + ["--speed", "\(Simulated.speed)"]
        // Short frames (function and source line, no addresses or build ids) and paths relative to the package.
        let options = "stack_trace_format=\"    #%n %f %S\" strip_path_prefix=\(packageRoot.path)/"
        print("$ TSAN_OPTIONS='\(options)' \(executable.path) \(arguments.joined(separator: " ")) 2>&1 | swift demangle --simplified")
        var environment = ProcessInfo.processInfo.environment
        environment["TSAN_OPTIONS"] = options

        let programOutput = Pipe(), report = Pipe(), demangled = Pipe()
        let program = Process()
        program.executableURL = executable
        program.arguments = arguments
        program.environment = environment
        program.standardOutput = programOutput
        program.standardError = report
        let demangler = swiftProcess(["demangle", "--simplified"])
        demangler.standardInput = report
        demangler.standardOutput = demangled
        demangler.standardError = demangled

        do {
            try demangler.run()
            try program.run()
        } catch {
            print("Could not start \(executable.path): \(error)")
            // The demangler may already be waiting for a report that will never come.
            if demangler.isRunning { demangler.terminate() }
            return Findings(warnings: 0, exitStatus: -1)
        }
        // Foundation has closed the parent's ends of `report`: it now joins the program to the demangler alone,
        // so the demangler sees the end of the report when the program exits.
        mark("instrumented run started: \(title)")
        let quiet = QuietnessReporter(message: "still running", after: 10)
        let digest = quiet.during {
            let programDone = DispatchGroup()
            DispatchQueue.global().async(group: programDone) {
                forEachLine(of: programOutput.fileHandleForReading) { line in
                    quiet.noteLine()
                    print("  │ " + line)
                }
            }
            var digest = ReportDigest()
            forEachLine(of: demangled.fileHandleForReading) { line in
                quiet.noteLine()
                if let shown = digest.take(line) { print("  " + shown) }
            }
            programDone.wait()
            return digest
        }
        program.waitUntilExit()
        demangler.waitUntilExit()
        mark("instrumented run ended: \(title)")
        let findings = Findings(warnings: digest.warnings, exitStatus: program.terminationStatus)
        print("Thread Sanitizer, \(title): \(findings)")
        return findings
    }
}

/// Keeps a long report readable: the first warning with all its stacks, then one summary line per further warning.
struct ReportDigest {
    private(set) var warnings = 0
    private var insideLaterWarning = false

    /// The line to show for `line` of the report, or nil to leave it out.
    mutating func take(_ line: String) -> String? {
        if line.hasPrefix("==================") { return nil }
        if line.hasPrefix("WARNING: ThreadSanitizer:") {
            warnings += 1
            insideLaterWarning = warnings > 1
        }
        if line.hasPrefix("SUMMARY: ThreadSanitizer:") {
            insideLaterWarning = false
            return line
        }
        return insideLaterWarning ? nil : line
    }
}

/// A `swift` subcommand, found on `PATH` as a shell would find it.
private func swiftProcess(_ arguments: [String], in directory: URL? = nil) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift"] + arguments
    if let directory { process.currentDirectoryURL = directory }
    return process
}

/// Runs `swift` with `arguments`, hands each line of its output (stdout and stderr together) to `line`, and returns its exit status.
private func runSwift(_ arguments: [String], in directory: URL, line: (String) -> Void) -> Int32 {
    let output = Pipe()
    let process = swiftProcess(arguments, in: directory)
    process.standardOutput = output
    process.standardError = output
    do {
        try process.run()
    } catch {
        line("could not start swift: \(error)")
        return -1
    }
    forEachLine(of: output.fileHandleForReading, line)
    process.waitUntilExit()
    return process.terminationStatus
}

/// Reads `handle` to its end, calling `body` with each line as soon as it is complete.
private func forEachLine(of handle: FileHandle, _ body: (String) -> Void) {
    var pending = Data()
    while case let chunk = handle.availableData, !chunk.isEmpty {
        pending.append(chunk)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            body(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending.removeSubrange(pending.startIndex...newline)
        }
    }
    if !pending.isEmpty { body(String(decoding: pending, as: UTF8.self)) }
}

/// Prints `message` with the time so far whenever a long task has shown no line for a while,
/// so a quiet compile is not mistaken for a hang, by a reader or by the tutorial's watchdog.
private final class QuietnessReporter: Sendable {
    private let message: String
    private let interval: Double
    private let started = DispatchTime.now().uptimeNanoseconds
    /// Written by the threads that read output and read by the timer: an `Atomic` makes each load and store whole,
    /// without a lock, and nothing else depends on its order, hence `.relaxed`.
    private let lastLine = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)

    init(message: String, after seconds: Double) {
        self.message = message
        interval = seconds
    }

    func noteLine() {
        lastLine.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }

    func during<T>(_ work: () -> T) -> T {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        // A look every second reports a quiet spell at most a second after it reaches `interval`. Looking every
        // `interval / 2` let 15 s pass between reports, as long as the tutorial's watchdog waits for a silent page.
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [self] in
            let now = DispatchTime.now().uptimeNanoseconds
            // A line noted on another thread since `now` was read makes the last line later than `now`: not quiet.
            let last = lastLine.load(ordering: .relaxed)
            guard now > last, Double(now - last) / 1e9 >= interval else { return }
            noteLine()
            print("  … \(message), \(Int((Double(now - started) / 1e9).rounded())) s so far")
        }
        timer.resume()
        defer { timer.cancel() }
        return work()
    }
}
