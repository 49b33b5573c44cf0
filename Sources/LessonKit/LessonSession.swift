@preconcurrency import Glibc
import CLinuxSystem
import Foundation
import Synchronization
import PageProtocol

/// The state a running page shares with LessonKit: its channel, speed, knob settings and clocks.
///
/// Created on first use of any LessonKit function, which also announces the page to the host
/// (a `hello` event) and makes stdout line-buffered so output streams live and survives a crash.
final class LessonSession: Sendable {
    static let shared = LessonSession()

    let channel: TraceChannel
    /// Whether readable commentary is printed: only when the page runs alone and not in control mode.
    let narrates: Bool
    let settings: LaunchSettings
    let startTime: UInt64
    private let nextSpanID = Atomic<Int>(1)

    private init() {
        setvbuf(stdout, nil, _IOLBF, 0)
        startTime = monotonicNanoseconds()
        let controlMode = ProcessInfo.processInfo.environment[ControlMode.environmentVariable] == ControlMode.off
        channel = controlMode ? TraceChannel.disconnected : TraceChannel.fromEnvironment()
        narrates = !channel.isConnected && !controlMode
        do {
            settings = try LaunchSettings(arguments: Array(CommandLine.arguments.dropFirst()),
                                          environment: ProcessInfo.processInfo.environment)
        } catch {
            LessonSession.refuse("\(error)")
        }
        if channel.isConnected {
            OrphanGuard.dieWithHost()
        }
        emit(.hello(version: PageTransport.formatVersion, page: LessonSession.pageName, pid: getpid(), speed: settings.speed))
    }

    /// The page's module name, as its executable is called.
    static var pageName: String {
        URL(fileURLWithPath: CommandLine.arguments.first ?? "page").lastPathComponent
    }

    /// Stops the page before it runs with input it cannot honour, saying what was wrong.
    static func refuse(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(pageName): \(message)\n".utf8))
        // _exit: the exit-time check for unused knob settings would only add noise after this message.
        _exit(2)
    }

    func makeSpanID() -> Int { nextSpanID.add(1, ordering: .relaxed).oldValue }

    /// Sends one event of `kind`, stamped with time, thread and queue, to the host.
    /// Does nothing when the page runs alone: callers print their own readable text then.
    func emit(_ kind: @autoclosure () -> EventKind) {
        guard channel.isConnected else { return }
        kind().withEncodedLine(time: monotonicNanoseconds(), thread: ThreadIdentity.current,
                               queue: ThreadIdentity.currentQueueCLabel) { channel.send($0) }
    }

    /// Prints a line of readable commentary when the page runs alone, prefixed so it stands apart from the page's own output.
    /// `text` is built only then: while the host listens, the event says it all, and formatting it (a span's
    /// duration through `String(format:)`) would cost more than the event.
    func narrate(_ text: @autoclosure () -> String) {
        guard narrates else { return }
        let seconds = Double(monotonicNanoseconds() - startTime) / 1e9
        let thread = ThreadIdentity.isMainThread ? "main" : "thread \(ThreadIdentity.current)"
        Swift.print(String(format: "   %7.3fs  ", seconds) + "[\(thread)] " + text())
    }
}

/// A page run with `TOUR_TRACE=off` sends no events and prints no commentary, whether or not a host listens:
/// the control against which a benchmark measures what tracing costs the work a page times. The page's own
/// output still goes to stdout. Read once, when LessonKit is first used.
public enum ControlMode {
    public static let environmentVariable = "TOUR_TRACE"
    public static let off = "off"
}

/// The direct child of the host asks the kernel to kill it when the host dies, so no page outlives the tutorial.
enum OrphanGuard {
    static func dieWithHost() {
        _ = clinux_set_parent_death_signal(SIGKILL)
        // The host may have died before the request above took effect.
        if let host = ProcessInfo.processInfo.environment[PageEnvironment.hostPID], let pid = Int32(host), getppid() != pid {
            exit(1)
        }
    }
}
