// A page that misbehaves on demand, for the runner's tests.
//
// The scenario comes from the environment variable FIXTURE, not from an argument: LessonKit refuses
// arguments it does not know. Every scenario is described in Tests/TourCoreTests/RunnerTests.swift
// next to the test that runs it.
@preconcurrency import Glibc
import Foundation
import LessonKit
import Synchronization

/// Writes all of `bytes` to `fd`, however many `write` calls that takes.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

/// Blocks the calling thread until a signal ends the process.
func blockForever() -> Never {
    while true { pause() }
}

/// Forks a child that only sleeps, holding the parent's stdout, stderr and trace pipes open.
/// The child does nothing but `pause()`, which is safe after `fork` in a threaded process.
func forkSleeper() -> pid_t {
    let child = fork()
    if child == 0 {
        while true { pause() }
    }
    return child
}

/// An `Operation` subclass that says it is asynchronous, reports `executing`, and never finishes.
final class NeverFinishingOperation: Operation, @unchecked Sendable {
    private let running = Atomic<Bool>(false)
    /// Signalled once `executing` has been reported.
    let started = DispatchSemaphore(value: 0)

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { running.load(ordering: .relaxed) }
    override var isFinished: Bool { false }

    override func start() {
        willChangeValue(forKey: "isExecuting")
        running.store(true, ordering: .relaxed)
        didChangeValue(forKey: "isExecuting")
        reportState(self, .executing)
        started.signal()
    }
}

func clean() -> Never {
    print("first line")
    print("second line")
    trace("clean span") { mark("inside the span") }
    peek(#line)
    exit(0)
}

/// Says it takes commands, then echoes each line of its standard input until the input closes.
func echoCommands() -> Never {
    print("commands from host: \(ProcessInfo.processInfo.environment["TOUR_STDIN_COMMANDS"] ?? "no")")
    LiveView.acceptScrollCommands()
    while let line = readLine() {
        print("got: \(line)")
    }
    print("input closed")
    exit(0)
}

func fatal() -> Never {
    mark("fatal error at line \(#line + 1)")
    fatalError("boom")
}

/// Adds one to the largest `Int`, read from the environment so the compiler cannot see the overflow coming.
func integerOverflow() -> Never {
    let largest = Int(ProcessInfo.processInfo.environment["LARGEST"] ?? "") ?? Int.max
    mark("about to overflow")
    let sum = largest + 1
    print("never printed: \(sum)")
    exit(0)
}

/// Calls itself until the stack runs out. The result is used after the call, so no call can become a jump.
func recurse(_ depth: Int) -> Int {
    var frame = [depth, depth &+ 1, depth &+ 2, depth &+ 3]
    return withUnsafeMutableBytes(of: &frame) { _ in recurse(depth &+ 1) } &+ frame[0]
}

func deepRecursion() -> Never {
    mark("recursing on the main thread")
    print("never printed: \(recurse(0))")
    exit(0)
}

/// The same on a pool thread that used LessonKit before it recursed, as a page's work item would.
func deepRecursionOnAWorker() -> Never {
    DispatchQueue.global().async {
        mark("recursing on a worker thread")
        print("never printed: \(recurse(0))")
    }
    blockForever()
}

/// Pairs of `ObservedOperation`s, each second one depending on the first, on a queue four wide, while the main thread
/// waits on each first one with `waitUntilFinished()`: a waiter and the operation's own thread race to read `isFinished`
/// first. Each first one also has a completion block that marks.
func operationChains() -> Never {
    let queue = OperationQueue()
    queue.name = "fixture.chains"
    queue.maxConcurrentOperationCount = 4
    let pairs = 200
    let completions = DispatchGroup()
    var firsts: [Operation] = []
    for index in 0..<pairs {
        let first = ObservedOperation(name: "first \(index)")
        let second = ObservedOperation(name: "second \(index)")
        second.addDependency(first)
        completions.enter()
        first.completionBlock = {
            mark("completion of first \(index)")
            completions.leave()
        }
        queue.addOperations([second, first], waitUntilFinished: false)
        firsts.append(first)
    }
    for first in firsts { first.waitUntilFinished() }
    queue.waitUntilAllOperationsAreFinished()
    // Completion blocks run on the pool after `finished`; nothing orders them before this exit, so wait for them.
    completions.wait()
    exit(0)
}

func dispatchDeadlock() -> Never {
    let queue = DispatchQueue(label: "fixture.serial")
    queue.sync {
        mark("on the serial queue")
        queue.sync { mark("never reached") }
    }
    exit(0)
}

func stuckOperation() -> Never {
    let queue = OperationQueue()
    queue.name = "fixture.operations"
    let operation = NeverFinishingOperation()
    operation.name = "never-finishes"
    queue.addOperation(operation)
    // The span opens only after `executing` went out, so the watchdog, whose clock the span's begin restarts,
    // sees both the operation and the span whatever the scheduling.
    operation.started.wait()
    trace("wait for all operations") {
        queue.waitUntilAllOperationsAreFinished()
    }
    exit(0)
}

/// 200,000 numbered lines straight to fd 1, in 64 KiB writes, without LessonKit.
func flood() -> Never {
    var chunk: [UInt8] = []
    chunk.reserveCapacity(70_000)
    for index in 0..<200_000 {
        chunk.append(contentsOf: "flood \(index)\n".utf8)
        if chunk.count >= 65_536 {
            writeAll(1, chunk)
            chunk.removeAll(keepingCapacity: true)
        }
    }
    writeAll(1, chunk)
    exit(0)
}

/// The name of the mark worker `worker` sends as its `index`-th event: "tf <worker> <index> <length> <payload>".
/// About one event in 97 is longer than PIPE_BUF (4096 bytes), so the lock, not the pipe, must keep it whole.
func floodMarkName(worker: Int, index: Int) -> String {
    let length = index % 97 == 0 ? 4_100 + (index * 131) % 5_000 : 10 + index % 90
    let letter = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8((worker + index) % 26)))
    return "tf \(worker) \(index) \(length) " + String(repeating: letter, count: length)
}

/// EVENTS marks (default 100,000) from four threads at once.
func traceFlood() -> Never {
    let total = Int(ProcessInfo.processInfo.environment["EVENTS"] ?? "") ?? 100_000
    let workers = 4
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for worker in 0..<workers {
        let count = total / workers + (worker < total % workers ? 1 : 0)
        done.enter()
        Thread {
            start.wait()
            for index in 0..<count {
                mark(floodMarkName(worker: worker, index: index))
            }
            done.leave()
        }.start()
    }
    for _ in 0..<workers { start.signal() }
    done.wait()
    exit(0)
}

/// `EVENTS` typical mark lines (about 100 bytes), prepared first and written to fd 3 in 64 KiB chunks:
/// the cheapest possible producer, so the host ingestion benchmark measures the host, not the page.
func traceReplay() -> Never {
    let total = Int(ProcessInfo.processInfo.environment["EVENTS"] ?? "") ?? 100_000
    var bytes: [UInt8] = []
    bytes.reserveCapacity(total * 110)
    // Stamped from now on, a nanosecond apart: the host rejects a stamp from before the run began.
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let base = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    for index in 0..<total {
        bytes += Array(#"{"e":"mark","t":\#(base + UInt64(index)),"tid":4242,"q":"com.apple.root.default-qos","name":"replayed \#(index)"}"#.utf8)
        bytes.append(10)
    }
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(3, buffer.baseAddress! + offset, min(65_536, buffer.count - offset))
            guard written > 0 else { exit(1) }
            offset += written
        }
    }
    exit(0)
}

/// A hostile page's dependency chain, straight to fd 3: operation "chain 0" reports `executing`, then each
/// "chain i" waits for "chain i+1", 200,000 deep (`CHAIN` to change it), and the last waits for the first; then silence.
func dependencyChain() -> Never {
    let length = Int(ProcessInfo.processInfo.environment["CHAIN"] ?? "") ?? 200_000
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let time = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    let header = #"{"e":"op","t":\#(time),"tid":\#(getpid()),"q":"com.apple.main-thread","#
    var bytes = Array((header + #""op":"chain 0","oid":1,"state":"executing"}"#).utf8) + [10]
    for index in 0..<length {
        let next = (index + 1) % length
        bytes += Array(#"{"e":"dep","t":\#(time),"tid":\#(getpid()),"q":"com.apple.main-thread","op":"chain \#(index)","oid":\#(index + 1),"on":"chain \#(next)","onid":\#(next + 1)}"#.utf8)
        bytes.append(10)
        if bytes.count >= 65_536 {
            writeAll(3, bytes)
            bytes.removeAll(keepingCapacity: true)
        }
    }
    writeAll(3, bytes)
    blockForever()
}

/// Lines written to fd 3 behind LessonKit's back, each wrong in its own way, then a knob and a valid mark.
///
/// They go out before LessonKit is first used: LessonKit may hold its lines in a buffer and write them from
/// another thread, and a write of 100 KB to a pipe can be split, so writing both at once could mix them.
func badTrace() -> Never {
    let header = #"{"e":"mark","t":1,"tid":1,"q":""#
    var lines: [[UInt8]] = []
    lines.append(Array("this is not json".utf8))
    lines.append(Array(header.utf8) + [0xFF, 0xFE] + Array(#"","name":"x"}"#.utf8))
    lines.append(Array((header + #"","name":{"a":1}}"#).utf8))
    lines.append(Array(#"{"e":"mark","tid":1,"q":"","name":"x"}"#.utf8))
    let oversizedPrefix = header + #"","name":""#
    let oversizedSuffix = #""}"#
    let padding = 102_400 - oversizedPrefix.utf8.count - oversizedSuffix.utf8.count
    lines.append(Array((oversizedPrefix + String(repeating: "x", count: padding) + oversizedSuffix).utf8))
    for line in lines {
        writeAll(3, line + [10])
    }
    _ = knob("size", default: 3, in: 1...9, "a knob, as pages have")
    mark("after bad lines")
    print("bad-trace done")
    exit(0)
}

func closeTrace() -> Never {
    mark("before closing the trace channel")
    close(3)
    Swift.print("after closing the trace channel")
    Swift.print("still here")
    exit(0)
}

func forkAndExit() -> Never {
    let child = forkSleeper()
    mark("forked \(child)")
    exit(0)
}

/// One line of 1 MiB without a newline, straight to fd 1.
func longLine() -> Never {
    writeAll(1, [UInt8](repeating: UInt8(ascii: "L"), count: 1_048_576))
    exit(0)
}

func ignoreTerm() -> Never {
    // LessonKit may install a SIGTERM handler of its own when first used (to flush its trace before dying),
    // so it is started first and SIGTERM ignored afterwards.
    mark("about to ignore SIGTERM")
    signal(SIGTERM, SIG_IGN)
    mark("ignoring SIGTERM")
    blockForever()
}

/// Writes "<own pid> <child pid>" to PID_FILE (whole, by rename), says so, and blocks.
func pidFile() -> Never {
    guard let path = ProcessInfo.processInfo.environment["PID_FILE"] else {
        FileHandle.standardError.write(Data("pid-file needs PID_FILE\n".utf8))
        exit(64)
    }
    let child = forkSleeper()
    let temporary = path + ".partial"
    _ = FileManager.default.createFile(atPath: temporary, contents: Data("\(getpid()) \(child)\n".utf8))
    rename(temporary, path)
    mark("pid file written")
    blockForever()
}

/// A child that leaves the page's session and process group with `setsid()` and forks a grandchild there; both hold
/// the page's pipes and sleep. The page says so and exits, or with `STAY=1` blocks until it is killed.
/// Between `fork` and `pause` the children call only `setsid`, `fork`, `write` and `pause`, which are safe after a fork.
func setsidGrandchildren() -> Never {
    // The grandchild writes a byte here once it exists, so the page speaks only when both are there.
    var ready: [Int32] = [0, 0]
    pipe(&ready)
    let child = fork()
    if child == 0 {
        setsid()
        if fork() == 0 {
            var byte: UInt8 = 1
            write(ready[1], &byte, 1)
            while true { pause() }
        }
        while true { pause() }
    }
    var byte: UInt8 = 0
    read(ready[0], &byte, 1)
    close(ready[0])
    close(ready[1])
    mark("left the session")
    if ProcessInfo.processInfo.environment["STAY"] == "1" { blockForever() }
    exit(0)
}

/// Ignores SIGTERM, then double-forks: the child forks a grandchild, which ignores SIGTERM too (the disposition is
/// inherited) and sleeps, and exits at once, so the grandchild's parent is no longer the page. The page blocks.
func doubleForkIgnoringTerm() -> Never {
    mark("about to ignore SIGTERM")
    signal(SIGTERM, SIG_IGN)
    let child = fork()
    if child == 0 {
        if fork() == 0 {
            while true { pause() }
        }
        _exit(0)
    }
    var status: Int32 = 0
    waitpid(child, &status, 0)
    mark("double-forked")
    blockForever()
}

/// Tries the terminal behind the host's back: opens `/dev/tty`, and if that works writes a clear-screen sequence to
/// it and sets its modes, which stops a page in a background process group (SIGTTOU). Says how far it got.
func openTerminal() -> Never {
    let terminal = open("/dev/tty", O_RDWR | O_NOCTTY)
    guard terminal >= 0 else {
        print("/dev/tty: \(String(cString: strerror(errno)))")
        exit(0)
    }
    print("/dev/tty: opened")
    writeAll(terminal, Array("\u{1B}[2J".utf8))
    var modes = termios()
    tcgetattr(terminal, &modes)
    tcsetattr(terminal, TCSANOW, &modes)
    print("tcsetattr: done")
    exit(0)
}

/// Turns off echo and line editing on its standard input, a terminal, says so, and dies by SIGKILL without restoring them.
func rawTerminalThenKilled() -> Never {
    var modes = termios()
    guard tcgetattr(STDIN_FILENO, &modes) == 0 else {
        print("stdin is not a terminal")
        exit(1)
    }
    modes.c_lflag &= ~tcflag_t(ECHO | ICANON)
    tcsetattr(STDIN_FILENO, TCSANOW, &modes)
    // Straight to fd 1: LessonKit's buffered output would die with the process.
    writeAll(1, Array("terminal raw\n".utf8))
    raise(SIGKILL)
    blockForever()
}

/// Reads lines from its standard input and echoes them until it reads `quit`.
func readStandardInput() -> Never {
    print("reading")
    while let line = readLine() {
        if line == "quit" { break }
        print("read: \(line)")
    }
    exit(0)
}

let scenario = ProcessInfo.processInfo.environment["FIXTURE"] ?? ""
/// Nanoseconds the calling thread has spent waiting for a core, runnable but not running (the second field of
/// `/proc/thread-self/schedstat`): what a loaded machine adds to a computing span's wall time.
func runQueueWait() -> UInt64 {
    guard let text = try? String(contentsOfFile: "/proc/thread-self/schedstat", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? UInt64(fields[1]) ?? 0 : 0
}

/// `sleep-then-compute`: a span that sleeps for 400 ms, then one that computes for 400 ms, on the main thread; it
/// prints how long the computing span waited for a core, so a test on a loaded machine can allow for it.
func sleepThenCompute() -> Never {
    trace("sleeping") { usleep(400_000) }
    let waitedBefore = runQueueWait()
    var sum: UInt64 = 0
    trace("computing") {
        let start = DispatchTime.now().uptimeNanoseconds
        while DispatchTime.now().uptimeNanoseconds - start < 400_000_000 {
            for value in 0..<10_000 as Range<UInt64> { sum = sum &* 31 &+ value }
        }
    }
    print("computing waited \(runQueueWait() - waitedBefore) ns for a core (\(sum % 2))")
    exit(0)
}

switch scenario {
case "clean": clean()
case "sleep-then-compute": sleepThenCompute()
case "exit3":
    print("exiting with 3")
    exit(3)
case "fatal": fatal()
case "dispatch-deadlock": dispatchDeadlock()
case "overflow": integerOverflow()
case "operation-chains": operationChains()
case "deep-recursion": deepRecursion()
case "deep-recursion-worker": deepRecursionOnAWorker()
case "stuck": trace("waiting forever") { blockForever() }
case "stuck-operation": stuckOperation()
case "silent-forever": blockForever()
case "flood": flood()
case "trace-flood": traceFlood()
case "trace-replay": traceReplay()
case "bad-trace": badTrace()
case "close-trace": closeTrace()
case "fork": forkAndExit()
case "long-line": longLine()
case "ignore-term": ignoreTerm()
case "pid-file": pidFile()
case "echo-commands": echoCommands()
case "dependency-chain": dependencyChain()
case "setsid-grandchildren": setsidGrandchildren()
case "double-fork-ignore-term": doubleForkIgnoringTerm()
case "open-tty": openTerminal()
case "raw-terminal": rawTerminalThenKilled()
case "read-stdin": readStandardInput()
default:
    FileHandle.standardError.write(Data("RunnerFixture: unknown FIXTURE '\(scenario)'\n".utf8))
    exit(64)
}
