@preconcurrency import Glibc
import Foundation
import Synchronization
import PageProtocol

/// How one rebuild of a page ended.
public struct BuildOutcome: Sendable {
    public enum Status: Sendable, Equatable {
        case succeeded
        /// The build ran and failed; `diagnostics` says why.
        case failed
        case cancelled
        /// The build ran longer than the builder's timeout and was stopped.
        case timedOut
        /// `swift` could not be started at all.
        case couldNotStart(String)
    }

    public var status: Status
    /// Errors, warnings and notes; warnings are kept on success too.
    public var diagnostics: BuildDiagnostics
    /// Everything the build printed, stdout and stderr, in the order it arrived, kept for the learner to read.
    public var output: [String]
    public var seconds: Double
}

/// A line of `swift build` output as it arrives.
public struct BuildOutputLine: Sendable, Equatable {
    public enum Stream: Sendable { case stdout, stderr }
    public var stream: Stream
    public var text: String
}

/// Rebuilds one page's product with `swift build --product`, off the calling thread, into the build folder
/// the running `tour` takes its page programs from, so the next run picks up the new binary.
public struct PageBuilder: Sendable {
    public var packageRoot: URL
    /// `--scratch-path`, or nil for SwiftPM's default `.build` under the package root.
    public var scratchPath: URL?
    /// `debug` or `release`.
    public var configuration: String
    /// A build that takes longer than this is stopped and reported as hung.
    public var timeout: Double
    /// The directories searched for `swift`; the first one holding an executable `swift` wins.
    public var searchPath: SearchPath

    /// A builder for the package at `packageRoot` that writes into the build folder `productsDirectory` belongs to.
    ///
    /// `productsDirectory` is `<scratch>/<triple>/<configuration>` when `tour` was built by SwiftPM (with
    /// `--scratch-path` or without); anything else (an installed copy) falls back to the default `.build`.
    public init(packageRoot: URL, productsDirectory: URL = BuildProducts.directory, timeout: Double = 120,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.packageRoot = packageRoot
        self.timeout = timeout
        self.searchPath = SearchPath(environment: environment)
        let configuration = productsDirectory.lastPathComponent
        let scratch = productsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        if ["debug", "release"].contains(configuration),
           FileManager.default.fileExists(atPath: scratch.appendingPathComponent("\(configuration).yaml").path) {
            self.configuration = configuration
            let defaultScratch = packageRoot.appendingPathComponent(".build").resolvingSymlinksInPath()
            self.scratchPath = scratch.resolvingSymlinksInPath() == defaultScratch ? nil : scratch
        } else {
            self.configuration = "debug"
            self.scratchPath = nil
        }
    }

    /// The arguments after `swift`.
    public func arguments(product: String) -> [String] {
        var arguments = ["build", "--package-path", packageRoot.path, "--product", product]
        if configuration != "debug" { arguments += ["-c", configuration] }
        if let scratchPath { arguments += ["--scratch-path", scratchPath.path] }
        return arguments
    }

    /// The `swift` that `PATH` finds, as a shell would.
    public var swiftExecutable: String? {
        searchPath.find("swift")
    }

    /// Starts rebuilding `product` and returns at once; `onLine` gets each output line on a reader thread.
    ///
    /// With `sources` (the page's `.swift` files), the compile and link commands SwiftPM planned last time are run
    /// directly when they still cover exactly those files: that skips SwiftPM's planning, most of a one-page rebuild.
    /// Anything else (no plan yet, a helper file added or removed) goes through `swift build`.
    public func build(product: String, sources: [URL]? = nil,
                      onLine: @escaping @Sendable (BuildOutputLine) -> Void = { _ in }) -> PageBuild {
        let steps = sources.flatMap { plannedCommands(product: product, sources: $0) }
        return PageBuild(builder: self, product: product, steps: steps, onLine: onLine)
    }

    /// `<scratch>/<configuration>.yaml`, the llbuild plan SwiftPM wrote on its last build.
    var planFile: URL {
        (scratchPath ?? packageRoot.appendingPathComponent(".build")).appendingPathComponent("\(configuration).yaml")
    }

    /// The compile and link commands of `product` from the plan, if the plan compiles exactly `sources`.
    func plannedCommands(product: String, sources: [URL]) -> [[String]]? {
        guard let plan = try? String(contentsOf: planFile, encoding: .utf8) else { return nil }
        let lines = plan.split(separator: "\n", omittingEmptySubsequences: false)
        func field(_ name: String, of command: String) -> [String]? {
            guard let start = lines.firstIndex(where: { $0.hasPrefix("  \"C.\(product)-") && $0.hasSuffix("-\(configuration).\(command)\":") }) else { return nil }
            for line in lines[(start + 1)...].prefix(8) {
                let trimmed = line.drop { $0 == " " }
                guard trimmed.hasPrefix("\(name): ") else { continue }
                let json = Data(trimmed.dropFirst(name.count + 2).utf8)
                return try? JSONDecoder().decode([String].self, from: json)
            }
            return nil
        }
        guard let compile = field("args", of: "module"), let link = field("args", of: "exe"),
              let inputs = field("inputs", of: "module") else { return nil }
        let planned = Set(inputs.filter { $0.hasSuffix(".swift") })
        guard planned == Set(sources.map { $0.standardizedFileURL.path }) else { return nil }
        // SwiftPM asks for JSON messages to draw its progress; the learner and the parser want the plain text.
        return [compile.filter { $0 != "-parseable-output" }, link]
    }
}

/// One running rebuild: cancel it, or wait for its outcome.
public final class PageBuild: Sendable {
    private struct State {
        var outcome: BuildOutcome?
        var pid: pid_t?
        var stopReason: BuildOutcome.Status?
    }

    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    init(builder: PageBuilder, product: String, steps: [[String]]?, onLine: @escaping @Sendable (BuildOutputLine) -> Void) {
        let thread = Thread { [self] in
            let outcome = self.run(builder: builder, product: product, steps: steps, onLine: onLine)
            self.state.withLock { $0.outcome = outcome }
            self.done.signal()
        }
        thread.name = "tour-build-\(product)"
        thread.start()
    }

    /// Stops the build and everything it started (the compiler jobs are in its process group).
    public func cancel() {
        stop(because: .cancelled)
    }

    /// Blocks until the build ended.
    public func wait() -> BuildOutcome {
        done.wait()
        done.signal()   // so a second waiter returns too
        return state.withLock { $0.outcome! }
    }

    /// The outcome, once the build has ended.
    public var outcome: BuildOutcome? { state.withLock { $0.outcome } }

    private func stop(because reason: BuildOutcome.Status) {
        let pid: pid_t? = state.withLock { state in
            guard state.outcome == nil, state.stopReason == nil else { return nil }
            state.stopReason = reason
            return state.pid
        }
        // A stop requested before the spawn is applied by `run` as soon as the process exists.
        if let pid { kill(-pid, SIGKILL) }
    }

    private func run(builder: PageBuilder, product: String, steps: [[String]]?,
                     onLine: @escaping @Sendable (BuildOutputLine) -> Void) -> BuildOutcome {
        let started = monotonicNanoseconds()
        let lines = Mutex<[BuildOutputLine]>([])
        let collect: @Sendable (BuildOutputLine) -> Void = { line in
            lines.withLock { $0.append(line) }
            onLine(line)
        }
        func outcome(_ status: BuildOutcome.Status) -> BuildOutcome {
            let all = lines.withLock { $0 }
            let stdout = BuildDiagnostics.parse(all.filter { $0.stream == .stdout }.map(\.text).joined(separator: "\n"))
            let stderr = BuildDiagnostics.parse(all.filter { $0.stream == .stderr }.map(\.text).joined(separator: "\n"))
            var merged = stdout
            for diagnostic in stderr.diagnostics where !merged.diagnostics.contains(diagnostic) { merged.diagnostics.append(diagnostic) }
            merged.unlocatedErrors += stderr.unlocatedErrors.filter { !merged.unlocatedErrors.contains($0) }
            return BuildOutcome(status: status, diagnostics: merged, output: all.map(\.text),
                                seconds: Double(monotonicNanoseconds() - started) / 1e9)
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + builder.timeout)
        timer.setEventHandler { [self] in self.stop(because: .timedOut) }
        timer.resume()
        defer { timer.cancel() }
        if let steps {
            for step in steps {
                let status = spawn(step[0], Array(step.dropFirst()), onLine: collect)
                if status != .succeeded { return outcome(status) }
            }
            return outcome(.succeeded)
        }
        guard let swift = builder.swiftExecutable else {
            return outcome(.couldNotStart("no swift on PATH (\(builder.searchPath)); install the Swift toolchain"))
        }
        return outcome(spawn(swift, builder.arguments(product: product), onLine: collect))
    }

    /// Runs one command in a process group of its own, streaming its lines, until it ends or is stopped.
    private func spawn(_ executable: String, _ arguments: [String], onLine: @escaping @Sendable (BuildOutputLine) -> Void) -> BuildOutcome.Status {
        var environment = ProcessInfo.processInfo.environment
        // No colour codes in the output the parser and the learner read.
        environment["NO_COLOR"] = "1"
        let child: ChildProcess
        do {
            child = try ChildProcess.launch(executable: executable, arguments: arguments, environment: environment, withInput: false,
                                         terminal: .none)
        } catch {
            return .couldNotStart("\(error)")
        }
        close(child.trace)
        let earlyStop = state.withLock { state -> Bool in
            state.pid = child.pid
            return state.stopReason != nil
        }
        if earlyStop { kill(-child.pid, SIGKILL) }

        let readers = [(child.stdout, BuildOutputLine.Stream.stdout), (child.stderr, .stderr)].map { fd, stream in
            PipeLineReader(fd: fd, name: "build-\(stream)") { bytes, _ in
                onLine(BuildOutputLine(stream: stream, text: String(decoding: bytes, as: UTF8.self)))
            }
        }
        // Waits without reaping, so the group id cannot be reused while `stop` may still signal it.
        var info = siginfo_t()
        while waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        // Compiler jobs killed with the group may still hold the pipes for a moment; they end with it.
        for reader in readers { _ = reader.waitUntilDone(timeout: 5) }
        let reason = state.withLock { state -> BuildOutcome.Status? in
            state.pid = nil
            return state.stopReason
        }
        let exit = ProcessExit.reap(child.pid)
        LiveProcessGroups.shared.remove(child.pid)
        if let reason { return reason }
        return exit.succeeded ? .succeeded : .failed
    }
}
