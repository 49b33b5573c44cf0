@preconcurrency import Glibc
import CLinuxSystem
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

    /// Removes the objects SwiftPM's last plan compiles `product`'s own sources into, before `swift build`.
    ///
    /// SwiftPM's incremental compile can take a source saved in the same second as the text it last compiled for
    /// unchanged, and link the old object: here a second save of `main.swift`, of the same size, within the second of
    /// the first, ran the first text. Without its objects the page's files are compiled from the text on disk, as the
    /// direct route always does; they are a page's few files, and compiled anyway whenever they changed.
    func removeObjects(of product: String) {
        guard let module = BuildPlan.load(file: planFile)?.command(product: product, configuration: configuration, kind: "module") else {
            return
        }
        for object in module.outputs where object.hasSuffix(".o") { unlink(object) }
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

/// One running rebuild: cancel it, or be told its outcome.
///
/// Everything runs on the build's one thread: it starts a stage's commands, waits for their ends and reads their
/// output in one `poll`, and starts the next stage the moment the last command of one has ended. No other thread
/// has to wake for a job to follow the one before.
public final class PageBuild: Sendable {
    private struct State {
        var outcome: BuildOutcome?
        /// The process groups of the commands running now (a stage's compile jobs run side by side).
        var groups: Set<pid_t> = []
        var stopReason: BuildOutcome.Status?
        /// Handed the outcome when it comes (`whenDone`).
        var waiting: [@Sendable (BuildOutcome) -> Void] = []
    }

    private let state = Mutex(State())

    /// `plan` decides the route on the build's thread: reading SwiftPM's plan and, once, asking the drivers for
    /// their jobs is file and process work the caller's queue should not wait for.
    init(builder: PageBuilder, product: String, onRoute: @escaping @Sendable (BuildRoute) -> Void = { _ in },
         onLine: @escaping @Sendable (BuildOutputLine) -> Void,
         plan: @escaping @Sendable () -> (route: BuildRoute, stages: [PageBuilder.Stage]?)) {
        let thread = Thread { [self] in
            let outcome = self.run(builder: builder, product: product, plan: plan, onRoute: onRoute, onLine: onLine)
            let waiting = self.state.withLock { state in
                state.outcome = outcome
                defer { state.waiting = [] }
                return state.waiting
            }
            for handler in waiting { handler(outcome) }
        }
        thread.name = "tour-build-\(product)"
        thread.start()
    }

    /// Stops the build and everything it started (the compiler jobs are in its process group).
    public func cancel() {
        stop(because: .cancelled)
    }

    /// Hands the outcome to `handler` on the build's thread the moment the build ends, or at once on the caller's
    /// thread if it has ended already: no thread sits blocked waiting for it, and none has to be woken to pass it on.
    public func whenDone(_ handler: @escaping @Sendable (BuildOutcome) -> Void) {
        let outcome = state.withLock { state -> BuildOutcome? in
            if state.outcome == nil { state.waiting.append(handler) }
            return state.outcome
        }
        if let outcome { handler(outcome) }
    }

    /// The outcome, once the build has ended; the caller is suspended, not blocked, meanwhile.
    public func finished() async -> BuildOutcome {
        await withCheckedContinuation { continuation in
            whenDone { continuation.resume(returning: $0) }
        }
    }

    /// The outcome, once the build has ended.
    public var outcome: BuildOutcome? { state.withLock { $0.outcome } }

    /// Blocks the calling thread until the build has ended and returns its outcome: for a command-line caller with
    /// nothing else to do meanwhile (`tour run` building its page first, `tour present --check`), never a queue's thread.
    public func waitUntilDone() -> BuildOutcome {
        let ended = DispatchSemaphore(value: 0)
        whenDone { _ in ended.signal() }
        ended.wait()
        // Set before the handlers ran, and never cleared.
        return outcome!
    }

    private func stop(because reason: BuildOutcome.Status) {
        let groups: Set<pid_t> = state.withLock { state in
            guard state.outcome == nil, state.stopReason == nil else { return [] }
            state.stopReason = reason
            return state.groups
        }
        // A stop requested before a spawn is applied by `start` as soon as the process exists.
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
        var lines: [BuildOutputLine] = []
        let collect: (BuildOutputLine) -> Void = { line in
            lines.append(line)
            onLine(line)
        }
        func outcome(_ status: BuildOutcome.Status) -> BuildOutcome {
            let stdout = BuildDiagnostics.parse(lines.filter { $0.stream == .stdout }.map(\.text).joined(separator: "\n"))
            let stderr = BuildDiagnostics.parse(lines.filter { $0.stream == .stderr }.map(\.text).joined(separator: "\n"))
            var merged = stdout
            for diagnostic in stderr.diagnostics where !merged.diagnostics.contains(diagnostic) { merged.diagnostics.append(diagnostic) }
            merged.unlocatedErrors += stderr.unlocatedErrors.filter { !merged.unlocatedErrors.contains($0) }
            return BuildOutcome(status: status, diagnostics: merged, output: lines.map(\.text),
                                seconds: Double(monotonicNanoseconds() - started) / 1e9, route: route)
        }
        if let stages {
            for stage in stages {
                if stage.commands.count == 1 && AutolinkEntries.write(for: stage.commands[0]) { continue }
                var status = runTogether(stage.commands, onLine: collect)
                if status == .failed, let fallback = stage.ifFailed {
                    status = runTogether([fallback], onLine: collect)
                }
                if status != .succeeded { return outcome(status) }
            }
            return outcome(.succeeded)
        }
        guard let swift = builder.swiftExecutable else {
            return outcome(.couldNotStart("no swift on PATH (\(builder.searchPath)); install the Swift toolchain"))
        }
        builder.removeObjects(of: product)
        return outcome(runTogether([[swift] + builder.arguments(product: product)], onLine: collect))
    }

    /// One command of a stage while it runs: its process, its two pipes, and whether it has ended.
    private struct Job {
        var pid: pid_t
        /// Readable once the process has ended; -1 when the kernel gave none, and the end is then waited for after the pipes'.
        var pidfd: Int32
        var pipes: [(lines: PipeLines, stream: BuildOutputLine.Stream, open: Bool)]
        /// When the process was seen to end.
        var ended: UInt64?

        /// Nothing more to wait for: the process ended, or cannot be watched, and both pipes reached their end.
        var isOver: Bool { (ended != nil || pidfd < 0) && !pipes.contains { $0.open } }
    }

    /// Runs `commands` side by side, each in a process group of its own, streaming their lines, until all of them
    /// ended or were stopped. The first failure in this order wins: a stop (cancelled, timed out), a command that could
    /// not start, one that failed.
    private func runTogether(_ commands: [[String]], onLine: (BuildOutputLine) -> Void) -> BuildOutcome.Status {
        var statuses: [BuildOutcome.Status] = []
        var jobs: [Job] = []
        for command in commands {
            switch start(command[0], Array(command.dropFirst())) {
            case .success(let job): jobs.append(job)
            case .failure(let problem): statuses.append(.couldNotStart(problem.description))
            }
        }
        follow(&jobs, onLine: onLine)
        statuses += jobs.map(finish)
        return statuses.first { $0 == .cancelled || $0 == .timedOut }
            ?? statuses.first { if case .couldNotStart = $0 { true } else { false } }
            ?? (statuses.contains(.failed) ? .failed : .succeeded)
    }

    private struct LaunchProblem: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts one command in a session of its own (and so a process group, which `stop` kills), from this thread.
    private func start(_ executable: String, _ arguments: [String]) -> Result<Job, LaunchProblem> {
        // No colour codes in the output the parser and the learner read.
        let environment = ChildProcess.inheritedEnvironment(changing: ["NO_COLOR": "1"])
        let child: ChildProcess
        do {
            child = try ChildProcess.launch(executable: executable, arguments: arguments, environment: environment, withInput: false,
                                            terminal: .none, traceChannel: false, onCallingThread: true)
        } catch {
            return .failure(LaunchProblem(description: "\(error)"))
        }
        let earlyStop = state.withLock { state -> Bool in
            state.groups.insert(child.pid)
            return state.stopReason != nil
        }
        if earlyStop { kill(-child.pid, SIGKILL) }
        return .success(Job(pid: child.pid, pidfd: pidfd_open(child.pid, 0),
                            pipes: [(PipeLines(fd: child.stdout), .stdout, true), (PipeLines(fd: child.stderr), .stderr, true)]))
    }

    /// Reads the jobs' lines and notices their ends in one `poll`, until every job is over. Compiler jobs killed with
    /// their group may hold the pipes for a moment after the end of the process; a pipe still open 5 s after its
    /// process ended is given up.
    private func follow(_ jobs: inout [Job], onLine: (BuildOutputLine) -> Void) {
        let patience: UInt64 = 5_000_000_000
        while jobs.contains(where: { !$0.isOver }) {
            var descriptors: [pollfd] = []
            /// For each descriptor: its job, and its pipe (nil for the job's pidfd).
            var owners: [(job: Int, pipe: Int?)] = []
            var timeout: Int32 = -1
            let now = monotonicNanoseconds()
            for (index, job) in jobs.enumerated() {
                if job.ended == nil && job.pidfd >= 0 {
                    descriptors.append(pollfd(fd: job.pidfd, events: Int16(POLLIN), revents: 0))
                    owners.append((index, nil))
                }
                for (pipe, entry) in job.pipes.enumerated() where entry.open {
                    if let ended = job.ended, now >= ended + patience {
                        close(entry.lines.fd)
                        jobs[index].pipes[pipe].open = false
                        continue
                    }
                    descriptors.append(pollfd(fd: entry.lines.fd, events: Int16(POLLIN), revents: 0))
                    owners.append((index, pipe))
                    if let ended = job.ended {
                        let left = Int32(min((ended + patience - now) / 1_000_000 + 1, UInt64(Int32.max)))
                        timeout = timeout < 0 ? left : min(timeout, left)
                    }
                }
            }
            guard !descriptors.isEmpty else { continue }
            if poll(&descriptors, nfds_t(descriptors.count), timeout) < 0 {
                guard errno == EINTR else { break }
                continue
            }
            for (descriptor, owner) in zip(descriptors, owners) where descriptor.revents != 0 {
                guard let pipe = owner.pipe else {
                    jobs[owner.job].ended = monotonicNanoseconds()
                    continue
                }
                let stream = jobs[owner.job].pipes[pipe].stream
                let more = jobs[owner.job].pipes[pipe].lines.readOnce { bytes, _ in
                    onLine(BuildOutputLine(stream: stream, text: String(decoding: bytes, as: UTF8.self)))
                }
                if !more {
                    close(descriptor.fd)
                    jobs[owner.job].pipes[pipe].open = false
                }
            }
        }
        // Only after a failed poll: the pipes are let go, the processes are still waited for.
        for index in jobs.indices {
            for pipe in jobs[index].pipes.indices where jobs[index].pipes[pipe].open {
                close(jobs[index].pipes[pipe].lines.fd)
                jobs[index].pipes[pipe].open = false
            }
        }
    }

    /// Reaps a job that `follow` saw through, and says how it went.
    private func finish(_ job: Job) -> BuildOutcome.Status {
        if job.ended == nil {
            // Waits without reaping, so the group id cannot be reused while `stop` may still signal it.
            var info = siginfo_t()
            while waitid(P_PID, id_t(job.pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        }
        if job.pidfd >= 0 { close(job.pidfd) }
        let reason = state.withLock { state -> BuildOutcome.Status? in
            state.groups.remove(job.pid)
            return state.stopReason
        }
        let exit = ProcessExit.reap(job.pid)
        LiveProcessGroups.shared.remove(job.pid)
        if let reason { return reason }
        return exit.succeeded ? .succeeded : .failed
    }
}
