@preconcurrency import Glibc
import CLinuxSystem
import Foundation
import Synchronization
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport
import PageProtocol

/// Fault pages (RunnerFixture) that try to outlive their run, escape the host, or reach the terminal behind its back.
/// Every process a test starts carries a `FaultMarker` in its environment; a test passes only if none is alive at the
/// end, whatever it is called. Hosts that a test puts on a terminal or kills are `HostFixture`, on a pty of their own.
/// Tests wait for events (a run's end, a line, a pidfd); the time limits only turn a hang into a failure.
@Suite("Fault pages: processes and terminals", .bodiesBelowTheRunner, .timeLimit(.minutes(3)))
struct PageContainmentTests {
    static let patience = 60.0

    /// The runner's events for one run, as a stream a test can await.
    private func start(_ scenario: String, marker: FaultMarker, extra: [String: String] = [:],
                       sendsCommands: Bool = false) -> (PageRun, AsyncStream<HostEvent>) {
        let (events, continuation) = AsyncStream.makeStream(of: HostEvent.self)
        let request = RunRequest(executable: BuildProducts.executable(named: "RunnerFixture"), stuckAfter: 300, silentLimit: 300,
                                 extraEnvironment: marker.environment.merging(extra) { $1 }.merging(["FIXTURE": scenario]) { $1 },
                                 sendsCommands: sendsCommands)
        let run = PageRun.start(request) { event in
            continuation.yield(event)
            if case .ended = event { continuation.finish() }
        }
        return (run, events)
    }

    /// Reads `events` until the mark `name`; false if the run ended first.
    private func mark(_ name: String, in events: inout AsyncStream<HostEvent>.Iterator) async -> Bool {
        while let event = await events.next() {
            if case .trace(let trace) = event, trace.kind == .mark(name: name) { return true }
        }
        return false
    }

    /// Reads `events` to the run's end.
    private func ending(of events: inout AsyncStream<HostEvent>.Iterator) async -> RunEnding? {
        while let event = await events.next() {
            if case .ended(let ending, _) = event { return ending }
        }
        return nil
    }

    private func hostFixture(_ scenario: String, marker: FaultMarker, terminal: String? = nil,
                             extra: [String: String] = [:]) throws -> PseudoTerminal {
        var environment = marker.environment.merging(extra) { $1 }
        environment["FIXTURE"] = scenario
        environment["HOST_TERMINAL"] = terminal
        return try PseudoTerminal([BuildProducts.executable(named: "HostFixture")], environment: environment)
    }

    /// A child that calls `setsid()` and forks a grandchild, both holding the page's pipes: they used to outlive the
    /// run, which also waited two seconds per pipe for them (a 0.3 s run took 6.4 s). Both end with the run now, before
    /// it reports its end, so the run's pipes close at once.
    @Test func setsidGrandchildrenEndWithTheRun() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        let (_, stream) = start("setsid-grandchildren", marker: marker)
        var events = stream.makeAsyncIterator()
        #expect(await mark("left the session", in: &events))
        #expect(await ending(of: &events) == .exited(code: 0))
        #expect(marker.livingProcesses() == [], "the page's setsid child and grandchild outlived the run")
    }

    /// A page that ignores SIGTERM and double-forks a grandchild that ignores it too: stopping the run ends both.
    @Test func aDoubleForkedGrandchildIgnoringSIGTERMEndsWhenTheRunIsStopped() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        let (run, stream) = start("double-fork-ignore-term", marker: marker)
        var events = stream.makeAsyncIterator()
        try #require(await mark("double-forked", in: &events))
        #expect(marker.livingProcesses().count == 2, "the page and its grandchild")
        run.stop()
        #expect(await ending(of: &events) == .stopped)
        #expect(marker.livingProcesses() == [])
    }

    /// The host is killed with SIGKILL while its page's setsid grandchildren live: no code of the host runs, and the
    /// page dies by its parent-death signal; the keeper, which outlives the host by design, ends the grandchildren.
    @Test func aHostKilledWithSIGKILLLeavesNoPageProcessBehind() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        let host = try hostFixture("setsid-grandchildren", marker: marker, extra: ["STAY": "1"])
        defer { host.stop() }
        try #require(await host.output(containing: "mark: left the session", within: Self.patience), "\(host.output)")
        let marked = marker.livingProcesses()
        #expect(Set(marked).count == 4, "the host, the page, its child and grandchild: \(marked)")
        kill(host.pid, SIGKILL)
        for pid in marked {
            #expect(await processEnds(pid, within: Self.patience), "process \(pid) outlived the host's SIGKILL")
        }
        #expect(marker.livingProcesses() == [])
    }

    /// A page asks the kernel for SIGKILL when its parent dies, and Linux takes the thread that spawned it for its
    /// parent. A page started from a thread that then ends (as a Dispatch worker the pool retires does) must live on.
    @Test func aPageStartedFromAThreadThatEndsLivesOn() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        let (events, continuation) = AsyncStream.makeStream(of: HostEvent.self)
        let started = StartedRun()
        // The thread lives until the page has asked for the signal, as a pool worker lives a while before it retires.
        let mayEnd = DispatchSemaphore(value: 0)
        let thread = Thread {
            let request = RunRequest(executable: BuildProducts.executable(named: "RunnerFixture"), stuckAfter: 300, silentLimit: 300,
                                     extraEnvironment: marker.environment.merging(["FIXTURE": "echo-commands"]) { $1 },
                                     sendsCommands: true)
            let run = PageRun.start(request) { event in
                continuation.yield(event)
                if case .ended = event { continuation.finish() }
            }
            started.set(run, tid: gettid())
            mayEnd.wait()
        }
        thread.start()
        var iterator = events.makeAsyncIterator()
        // The first line comes after LessonKit has asked for the parent-death signal.
        var sawFirstLine = false
        while let event = await iterator.next() {
            if case .output(let line) = event, line.text.hasPrefix("commands from host") {
                sawFirstLine = true
                break
            }
        }
        try #require(sawFirstLine)
        mayEnd.signal()
        // Nothing tells another thread that a thread has ended but pthread_join, which blocks; its task directory
        // disappears once the kernel has released it, after the parent-death signals went out. Polled, bounded.
        let (runOrNil, tid) = started.get()
        let run = try #require(runOrNil)
        var gone = false
        for _ in 0..<3_000 where !gone {
            gone = access("/proc/self/task/\(tid)", F_OK) != 0
            if !gone { try await Task.sleep(for: .milliseconds(10)) }
        }
        try #require(gone, "the thread that started the page did not end")
        #expect(run.send("still there?"))
        var echoed = false
        while let event = await iterator.next() {
            if case .output(let line) = event, line.text == "got: still there?" {
                echoed = true
                break
            }
            if case .ended = event { break }
        }
        #expect(echoed, "the page died with the thread that started it")
        run.closeInput()
        #expect(await ending(of: &iterator) == .exited(code: 0))
    }

    /// A descriptor another part of the host opened without close-on-exec (Foundation's `Pipe`, a test's helper) is
    /// never inherited by a page or by the keeper. The keeper lives as long as the host, so a pipe it held would never
    /// reach its end: a writer's `cat` once waited on one for good, and the suite hung.
    @Test func aPageAndTheKeeperInheritNoDescriptorTheHostOpened() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let (run, stream) = start("echo-commands", marker: marker, sendsCommands: true)
        var events = stream.makeAsyncIterator()
        var started = false
        while let event = await events.next() {
            if case .output(let line) = event, line.text.hasPrefix("commands from host") {
                started = true
                break
            }
        }
        try #require(started)
        let page = try #require(marker.livingProcesses().first)
        let pipeLinks = Set(fds.map { openDescriptorLinks(of: getpid())["\($0)"] })
        #expect(openDescriptorLinks(of: page).values.allSatisfy { !pipeLinks.contains($0) },
                "the page holds the host's pipe: \(openDescriptorLinks(of: page))")
        #expect(openDescriptorLinks(of: page).keys.map { Int($0) ?? -1 }.max() == 3, "the page holds more than fds 0–3")
        let keeper = try #require(PageLineage.keeperPID)
        // Its shell keeps a copy of its input (dash: fd 10), so what counts is what the descriptors refer to.
        let keeperLinks = openDescriptorLinks(of: keeper)
        #expect(Set(keeperLinks.values).isSubset(of: [try #require(keeperLinks["0"]), "/dev/null"]),
                "the keeper holds more than its input and /dev/null: \(keeperLinks)")
        run.closeInput()
        #expect(await ending(of: &events) == .exited(code: 0))
    }

    /// `/proc/<pid>/fd`: each open descriptor's number and what it refers to (`pipe:[1234]`, a path).
    private func openDescriptorLinks(of pid: pid_t) -> [String: String] {
        let folder = "/proc/\(pid)/fd"
        var links: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            links[name] = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")
        }
        return links
    }

    /// In the interface a page has no controlling terminal: `/dev/tty` fails, so it can neither draw over the screen
    /// nor be stopped by SIGTTOU for setting the terminal's modes. The host here has the pty for its terminal.
    @Test func aPageInTheInterfaceCannotOpenTheTerminal() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        let host = try hostFixture("open-tty", marker: marker)
        defer { host.stop() }
        // Lines are awaited whole: the pty may hand over a line in pieces.
        #expect(await host.output(containing: "ended: ended normally", within: Self.patience), "\(host.output)")
        #expect(host.output.contains("page: /dev/tty: No such device or address"), "\(host.output)")
        #expect(!host.output.contains("\u{1B}[2J"), "the page's escape sequence reached the terminal")
        #expect(await host.exit(within: Self.patience) == .exited(code: 0))
        #expect(marker.livingProcesses() == [])
    }

    /// Plain mode on a terminal: the page reads the learner's keys, and the host still sees it end.
    @Test func aPageSharingTheTerminalReadsTheLearnersKeys() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        let host = try hostFixture("read-stdin", marker: marker, terminal: "shared")
        defer { host.stop() }
        try #require(await host.output(containing: "page: reading", within: Self.patience), "\(host.output)")
        host.type("scroll +1\n")
        #expect(await host.output(containing: "page: read: scroll +1", within: Self.patience),
                "the page was stopped by SIGTTIN: \(host.output)")
        host.type("quit\n")
        #expect(await host.output(containing: "ended: ended normally", within: Self.patience), "\(host.output)")
        #expect(await host.exit(within: Self.patience) == .exited(code: 0))
        #expect(marker.livingProcesses() == [])
    }

    /// Ctrl-C in plain mode reaches the page and the host together, as for any command in a shell: the host ends the
    /// run and exits with 128 + SIGINT, and nothing is left.
    @Test func controlCEndsAPageSharingTheTerminalAndItsHost() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        let host = try hostFixture("read-stdin", marker: marker, terminal: "shared")
        defer { host.stop() }
        try #require(await host.output(containing: "page: reading", within: Self.patience), "\(host.output)")
        host.type("\u{03}")
        let exit = await host.exit(within: Self.patience)
        #expect(exit == .exited(code: 128 + SIGINT), "\(String(describing: exit)): \(host.output)")
        #expect(marker.livingProcesses() == [])
    }

    /// A page that turns the shared terminal's echo and line editing off and is killed: the host puts them back.
    @Test func theHostRestoresTheTerminalAPageLeftRaw() async throws {
        let marker = FaultMarker()
        defer { marker.killLeftovers() }
        let host = try hostFixture("raw-terminal", marker: marker, terminal: "shared")
        defer { host.stop() }
        #expect(await host.output(containing: "terminal after the run: echo on, canonical on", within: Self.patience),
                "\(host.output)")
        #expect(host.output.contains("page: terminal raw"))
        #expect(host.output.contains("ended: crashed: killed by SIGKILL"))
        #expect(await host.exit(within: Self.patience) == .exited(code: 0))
    }
}

/// The run a thread started, and that thread's kernel id.
private final class StartedRun: @unchecked Sendable {
    private let lock = NSLock()
    private var run: PageRun?
    private var tid: pid_t = 0

    func set(_ run: PageRun, tid: pid_t) { lock.withLock { (self.run, self.tid) = (run, tid) } }
    func get() -> (PageRun?, pid_t) { lock.withLock { (run, tid) } }
}
