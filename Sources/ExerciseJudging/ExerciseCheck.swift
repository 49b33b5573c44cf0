import Foundation
import PageProtocol
import Synchronization
import TourCore

/// Checks a learner's code challenge: builds its program, runs it as the tutorial runs a page (its own process, the
/// trace on fd 3, the watchdog), and judges the run's record. Nothing of the learner's code runs in the host.
///
/// A challenge with `threadSanitizer` is built with Thread Sanitizer into `.build/tsan`, apart from the plain
/// build (as page 8 builds itself), and each report the sanitizer writes on the run's standard error becomes a failing
/// finding that names the racing lines (`ThreadSanitizerReport`).
public struct ExerciseCheck: Sendable {
    /// The package whose `Exercises/` folder holds the learner's file.
    public var packageRoot: URL
    /// The folder of the plain build's programs; the learner's program is rebuilt into it.
    public var productsDirectory: URL
    /// A build that takes longer than this is stopped and the check fails with a finding that says so.
    public var buildTimeout: Double
    /// The environment `swift` is found in.
    public var environment: [String: String]

    /// A check of the package at `packageRoot`, whose plain programs are in `productsDirectory`.
    public init(packageRoot: URL, productsDirectory: URL = BuildProducts.directory, buildTimeout: Double = 600,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.packageRoot = packageRoot
        self.productsDirectory = productsDirectory
        self.buildTimeout = buildTimeout
        self.environment = environment
    }

    /// What one check did: the build, the run when there was one, and the verdict.
    public struct Outcome: Sendable {
        /// How the build ended; its diagnostics hold every compiler message.
        public let build: BuildOutcome
        /// The record of the run, or nil when the program was not built and so never ran.
        public let record: RunRecord?
        /// What holds and what is still wrong, the build's failure or the run's ending first.
        public let verdict: CheckVerdict
        /// Whether the program ran under Thread Sanitizer.
        public let threadSanitizer: Bool
    }

    /// Where a check is; `progress` gets each stage as it begins, on the check's own threads.
    public enum Stage: Sendable, Equatable {
        /// Building the program; `sanitized` for a Thread Sanitizer build, which takes longer.
        case building(product: String, sanitized: Bool)
        /// Running it, with the challenge's knobs and speed.
        case running(product: String)
    }

    /// What a learner waiting for a Thread Sanitizer build is told, by `tour check` and in the tutorial: the first one
    /// compiles LessonKit and PageProtocol again, with the sanitizer, into `.build/tsan` (38 s on two cores at a load
    /// average of 4.8, 171 s at 10; `docs/benchmarks.md`), and later ones only the exercise (9 s at 12).
    public static let threadSanitizerBuildNote = "with Thread Sanitizer: the first such build takes about a minute"

    /// The folder the Thread Sanitizer build goes into, `.build/tsan` under the package: apart from the plain build,
    /// so switching between them never rebuilds either from scratch.
    public var threadSanitizerScratch: URL { packageRoot.appendingPathComponent(".build/tsan", isDirectory: true) }

    /// `TSAN_OPTIONS` of a sanitized run: short frames (function and `file:line:column`), paths relative to the
    /// package, and exit status 0 for a run that only raced, so the ending says what the program did and the races are
    /// findings of their own.
    public var threadSanitizerOptions: String {
        "stack_trace_format=\"    #%n %f %S\" strip_path_prefix=\(packageRoot.path)/ exitcode=0"
    }

    /// The builder for `challenge`'s program: the plain one (which takes the direct route when it can), or the Thread
    /// Sanitizer one, through `swift build --sanitize=thread --scratch-path .build/tsan`.
    public func builder(for challenge: Challenge) -> PageBuilder {
        var builder = PageBuilder(packageRoot: packageRoot, productsDirectory: productsDirectory, timeout: buildTimeout,
                                  environment: environment)
        if challenge.threadSanitizer {
            builder.scratchPath = threadSanitizerScratch
            builder.configuration = "debug"
            builder.sanitizer = "thread"
        }
        return builder
    }

    /// The program a build of `product` for `challenge` makes.
    public func executable(of product: String, for challenge: Challenge) -> String {
        challenge.threadSanitizer
            ? threadSanitizerScratch.appendingPathComponent("debug").appendingPathComponent(product).path
            : productsDirectory.appendingPathComponent(product).path
    }

    /// Builds and runs `product` (by default the learner's, `challenge.product`) and judges its run.
    ///
    /// `onBuildLine` gets the build's output lines and `onEvent` each event of the run with the record so far, both
    /// on the check's threads. Cancelling the calling task cancels the build or stops the run; the outcome then says
    /// the check was cancelled.
    public func run(_ challenge: Challenge, product: String? = nil,
                    progress: @escaping @Sendable (Stage) -> Void = { _ in },
                    onBuildLine: @escaping @Sendable (BuildOutputLine) -> Void = { _ in },
                    onEvent: (@Sendable (HostEvent, borrowing RunRecord) -> Void)? = nil) async -> Outcome {
        let product = product ?? challenge.product
        progress(.building(product: product, sanitized: challenge.threadSanitizer))
        // The exercise's one folder: with its files named, the plain build can take the direct route.
        let folder = packageRoot.appendingPathComponent(challenge.file).deletingLastPathComponent()
        let sources = product == challenge.product ? Page.sourceFiles(main: folder.appendingPathComponent("main.swift")) : nil
        let build = builder(for: challenge).build(product: product, sources: sources, onLine: onBuildLine)
        let outcome = await withTaskCancellationHandler {
            await build.finished()
        } onCancel: {
            build.cancel()
        }
        guard outcome.status == .succeeded else {
            return Outcome(build: outcome, record: nil, verdict: CheckVerdict(buildFailure: outcome, of: challenge, packageRoot: packageRoot),
                           threadSanitizer: challenge.threadSanitizer)
        }
        guard !Task.isCancelled else {
            return Outcome(build: outcome, record: nil, verdict: CheckVerdict(findings: [CheckFinding(holds: false, "the check was cancelled before the program ran")]),
                           threadSanitizer: challenge.threadSanitizer)
        }
        progress(.running(product: product))
        var environment: [String: String] = ["TOUR_ROOT": packageRoot.path]
        if challenge.threadSanitizer { environment["TSAN_OPTIONS"] = threadSanitizerOptions }
        let request = RunRequest(executable: executable(of: product, for: challenge), knobSettings: challenge.knobs,
                                 speed: challenge.speed, stuckAfter: challenge.stuckAfter, extraEnvironment: environment)
        let record = await Self.record(request, onEvent: onEvent)
        let reports = challenge.threadSanitizer ? ThreadSanitizerReport.all(in: record) : nil
        return Outcome(build: outcome, record: record, verdict: CheckVerdict(of: record, for: challenge, threadSanitizerReports: reports),
                       threadSanitizer: challenge.threadSanitizer)
    }

    /// Runs `request` to its end (or the watchdog's verdict) and returns the record, suspended, not blocked, meanwhile.
    /// Cancelling the calling task stops the run.
    static func record(_ request: RunRequest, onEvent: (@Sendable (HostEvent, borrowing RunRecord) -> Void)?) async -> RunRecord {
        let recorder = RunRecorder(observer: onEvent)
        let started = StartedRun()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let run = PageRun.start(request) { event in
                    recorder.apply(event)
                    // The run's last event, delivered once, after every other.
                    if case .ended = event { continuation.resume(returning: recorder.record) }
                }
                started.set(run)
            }
        } onCancel: {
            started.stop()
        }
    }
}

/// The run a check started, so that a cancellation arriving from another thread can stop it, even before it exists.
private final class StartedRun: Sendable {
    private let state = Mutex<(run: PageRun?, stopped: Bool)>((nil, false))

    func set(_ run: PageRun) {
        let stopNow = state.withLock { state -> Bool in
            state.run = run
            return state.stopped
        }
        if stopNow { run.stop() }
    }

    func stop() {
        let run = state.withLock { state -> PageRun? in
            state.stopped = true
            return state.run
        }
        run?.stop()
    }
}
