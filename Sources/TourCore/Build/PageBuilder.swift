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
    /// How the build went about it.
    public var route: BuildRoute = .swiftBuild(reason: nil)
}

/// A line of `swift build` output as it arrives.
public struct BuildOutputLine: Sendable, Equatable {
    public enum Stream: Sendable { case stdout, stderr }
    public var stream: Stream
    public var text: String
}

/// Rebuilds one page's program, off the calling thread, into the build folder the running `tour` takes its page
/// programs from, so the next run picks up the new binary: directly, with only the jobs the program needs, when
/// SwiftPM's last plan for the page still holds, else with `swift build --product`.
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
    /// A sanitizer to build with (`thread`, as `swift build --sanitize=thread`), or nil. A sanitized build always goes
    /// through `swift build`, into a scratch folder of its own (`scratchPath`), so it never replaces the plain programs.
    public var sanitizer: String?

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
        if let sanitizer { arguments += ["--sanitize=\(sanitizer)"] }
        return arguments
    }

    /// The `swift` that `PATH` finds, as a shell would.
    public var swiftExecutable: String? {
        searchPath.find("swift")
    }

    /// Starts rebuilding `product` and returns at once; `onRoute` gets the way the build goes as soon as it is known,
    /// then `onLine` each output line, both on the build's own threads (a trailing closure is `onLine`).
    ///
    /// With `sources` (the page's `.swift` files) the build takes the direct route when SwiftPM's last plan for the
    /// page still holds (see `directStages`), else, and without `sources`, it goes through `swift build`.
    public func build(product: String, sources: [URL]? = nil,
                      onLine: @escaping @Sendable (BuildOutputLine) -> Void = { _ in },
                      onRoute: @escaping @Sendable (BuildRoute) -> Void = { _ in }) -> PageBuild {
        PageBuild(builder: self, product: product, onRoute: onRoute, onLine: onLine) {
            self.plan(product: product, sources: sources)
        }
    }

    /// Lists the jobs of `product`'s direct route now, if it has one, so the first rebuild after a change need not:
    /// asking the drivers takes a few tenths of a second. They are kept beside the plan for later launches too.
    public func prepareDirectBuild(product: String, sources: [URL]) {
        _ = try? directStages(product: product, sources: sources)
    }

    /// One stage of a build: its commands run side by side, and the next stage starts once all of them succeeded.
    struct Stage: Equatable, Sendable {
        var commands: [[String]]
        /// Runs when a command of the stage failed, and its result stands instead (SwiftPM's own link, if `ld.lld` failed).
        var ifFailed: [String]? = nil
    }

    /// Why a page cannot take the direct route, in words for the status line.
    struct NoDirectRoute: Error, Equatable {
        var reason: String
    }

    /// The route and its stages; nil stages for `swift build`, whose command is found on PATH when it runs.
    func plan(product: String, sources: [URL]?) -> (route: BuildRoute, stages: [Stage]?) {
        guard let sources, sanitizer == nil else { return (.swiftBuild(reason: nil), nil) }
        do {
            return (.direct, try directStages(product: product, sources: sources))
        } catch let refusal as NoDirectRoute {
            return (.swiftBuild(reason: refusal.reason), nil)
        } catch {
            return (.swiftBuild(reason: "\(error)"), nil)
        }
    }

    /// `<scratch>/<configuration>.yaml`, the llbuild plan SwiftPM wrote on its last build.
    var planFile: URL {
        (scratchPath ?? packageRoot.appendingPathComponent(".build")).appendingPathComponent("\(configuration).yaml")
    }

    /// The direct route's stages for `product`: its compile jobs, `swift-autolink-extract` and `ld.lld`.
    ///
    /// Taken only while SwiftPM's last plan still describes the page: it compiles exactly `sources` (a helper file
    /// added or removed changes the plan), every module the page imports is up to date with its sources (a changed
    /// LessonKit must be rebuilt first), every object the link takes from other targets is there, and neither
    /// `Package.swift` nor the toolchain is newer than the plan. Every file of the page is compiled each time, from
    /// the text on disk, so a change to any of them is safe. What the direct route skips (the page's module for others
    /// to import, the index, SwiftPM's records) nothing in a run reads, and SwiftPM's next build redoes it: it sees
    /// the page's sources changed since its own last build.
    func directStages(product: String, sources: [URL]) throws -> [Stage] {
        guard let plan = BuildPlan.load(file: planFile) else { throw NoDirectRoute(reason: "no build plan yet") }
        guard let module = plan.command(product: product, configuration: configuration, kind: "module"),
              let link = plan.command(product: product, configuration: configuration, kind: "exe"),
              !module.args.isEmpty, !link.args.isEmpty else {
            throw NoDirectRoute(reason: "the build plan has no \(product)")
        }
        let planned = Set(module.inputs.filter { $0.hasSuffix(".swift") })
        let current = Set(sources.map { $0.standardizedFileURL.path })
        if let added = current.subtracting(planned).sorted().first {
            throw NoDirectRoute(reason: "\((added as NSString).lastPathComponent) is new")
        }
        if let removed = planned.subtracting(current).sorted().first {
            throw NoDirectRoute(reason: "\((removed as NSString).lastPathComponent) was removed")
        }
        let planTime = modificationTime(planFile.path) ?? 0
        if (modificationTime(packageRoot.appendingPathComponent("Package.swift").path) ?? 0) > planTime {
            throw NoDirectRoute(reason: "Package.swift changed")
        }
        let frontend = URL(fileURLWithPath: module.args[0]).deletingLastPathComponent().appendingPathComponent("swift-frontend").path
        if (modificationTime(frontend) ?? 0) > planTime { throw NoDirectRoute(reason: "the Swift toolchain changed") }
        if let reason = plan.staleDependency(of: module) { throw NoDirectRoute(reason: reason) }
        if link.inputs.contains(where: { modificationTime($0) == nil }) {
            throw NoDirectRoute(reason: "\(product) has not been built in full yet")
        }
        let kept = planFile.deletingLastPathComponent().appendingPathComponent("tour-direct/\(product).json")
        let jobs: DirectJobs
        do {
            jobs = try DirectJobs.load(from: kept, compile: module.args, link: link.args, packageRoot: packageRoot)
        } catch {
            throw NoDirectRoute(reason: "its jobs could not be listed (\(error))")
        }
        guard let autolink = jobs.autolink, let linker = jobs.link else {
            return [Stage(commands: jobs.compile), Stage(commands: [link.args])]
        }
        return [Stage(commands: jobs.compile), Stage(commands: [autolink]), Stage(commands: [linker], ifFailed: link.args)]
    }
}

/// One running rebuild: cancel it, or wait for its outcome.
public final class PageBuild: Sendable {
    private struct State {
        var outcome: BuildOutcome?
        /// The process groups of the commands running now (a stage's compile jobs run side by side).
        var groups: Set<pid_t> = []
        var stopReason: BuildOutcome.Status?
    }

    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    /// `plan` decides the route on the build's thread: reading SwiftPM's plan and, once, asking the drivers for
    /// their jobs is file and process work the caller's queue should not wait for.
    init(builder: PageBuilder, product: String, onRoute: @escaping @Sendable (BuildRoute) -> Void = { _ in },
         onLine: @escaping @Sendable (BuildOutputLine) -> Void,
         plan: @escaping @Sendable () -> (route: BuildRoute, stages: [PageBuilder.Stage]?)) {
        let thread = Thread { [self] in
            let outcome = self.run(builder: builder, product: product, plan: plan, onRoute: onRoute, onLine: onLine)
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
        let groups: Set<pid_t> = state.withLock { state in
            guard state.outcome == nil, state.stopReason == nil else { return [] }
            state.stopReason = reason
            return state.groups
        }
        // A stop requested before a spawn is applied by `spawn` as soon as the process exists.
        for group in groups { kill(-group, SIGKILL) }
    }

    private func run(builder: PageBuilder, product: String,
                     plan: () -> (route: BuildRoute, stages: [PageBuilder.Stage]?),
                     onRoute: (BuildRoute) -> Void,
                     onLine: @escaping @Sendable (BuildOutputLine) -> Void) -> BuildOutcome {
        let started = monotonicNanoseconds()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + builder.timeout)
        timer.setEventHandler { [self] in self.stop(because: .timedOut) }
        timer.resume()
        defer { timer.cancel() }
        let (route, stages) = plan()
        onRoute(route)
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
                                seconds: Double(monotonicNanoseconds() - started) / 1e9, route: route)
        }
        if let stages {
            for stage in stages {
                if stage.commands.count == 1 && AutolinkEntries.write(for: stage.commands[0]) { continue }
                var status = runTogether(stage.commands, onLine: collect)
                if status == .failed, let fallback = stage.ifFailed {
                    status = spawn(fallback[0], Array(fallback.dropFirst()), onLine: collect)
                }
                if status != .succeeded { return outcome(status) }
            }
            return outcome(.succeeded)
        }
        guard let swift = builder.swiftExecutable else {
            return outcome(.couldNotStart("no swift on PATH (\(builder.searchPath)); install the Swift toolchain"))
        }
        return outcome(spawn(swift, builder.arguments(product: product), onLine: collect))
    }

    /// Runs `commands` side by side, each on a thread of its own but the first, and waits for all of them. The first
    /// failure in this order wins: a stop (cancelled, timed out), a command that could not start, one that failed.
    private func runTogether(_ commands: [[String]], onLine: @escaping @Sendable (BuildOutputLine) -> Void) -> BuildOutcome.Status {
        let statuses = Mutex<[BuildOutcome.Status]>([])
        let others = DispatchGroup()
        for command in commands.dropFirst() {
            others.enter()
            Thread { [self] in
                let status = spawn(command[0], Array(command.dropFirst()), onLine: onLine)
                statuses.withLock { $0.append(status) }
                others.leave()
            }.start()
        }
        if let first = commands.first {
            let status = spawn(first[0], Array(first.dropFirst()), onLine: onLine)
            statuses.withLock { $0.append(status) }
        }
        others.wait()
        let all = statuses.withLock { $0 }
        return all.first { $0 == .cancelled || $0 == .timedOut }
            ?? all.first { if case .couldNotStart = $0 { true } else { false } }
            ?? (all.contains(.failed) ? .failed : .succeeded)
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
            state.groups.insert(child.pid)
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
            state.groups.remove(child.pid)
            return state.stopReason
        }
        let exit = ProcessExit.reap(child.pid)
        LiveProcessGroups.shared.remove(child.pid)
        if let reason { return reason }
        return exit.succeeded ? .succeeded : .failed
    }
}
