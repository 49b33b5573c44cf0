@preconcurrency import Glibc
import Foundation
import PageProtocol
import RunModel

/// What went wrong with a level's program, in words that name the level: it could not start, it sent a line that is
/// not the document expected, it said nothing for too long and was stopped, or it ended before it answered.
public struct LevelProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case couldNotStart
        /// A line that is not a valid document of the protocol.
        case notADocument
        /// Stopped by the watchdog.
        case silent
        /// The program ended (or crashed) before it answered.
        case ended
    }

    public let kind: Kind
    public let description: String

    public init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }
}

/// One run of a level's program in one of its modes (`--describe`, `--explore`, `--play`): its standard output read a
/// line at a time and decoded into the protocol's types, its standard input written one step a line.
///
/// A watchdog on the host's clock stops the program when it owes an answer (after it starts, after each step sent)
/// and gives none within `patience`: a level that never answers never hangs tour. Its standard error is kept, the
/// last lines of it, to say how a program that ended early ended.
public final class LevelProcess: @unchecked Sendable {
    /// How the level is named in every message.
    public let levelName: String
    private let pid: pid_t
    private let clock: any HostClock
    private let patience: UInt64
    private let watchdogQueue = DispatchQueue(label: "tour-level-watchdog")

    /// Guards every variable below.
    private let condition = NSCondition()
    private var lines: [String] = []
    /// The write end of the program's standard input; -1 once closed.
    private var input: Int32 = -1
    private var exit: ProcessExit?
    private var errorTail: [String] = []
    private var stoppedAsSilent = false
    private var watchdog: ClockWake?

    /// The most lines of the program's standard error kept for a message.
    private static let errorTailLength = 4

    /// Starts `executable` with `arguments`, its environment this process's with `environment`'s changes.
    public init(levelName: String, executable: String, arguments: [String], environment: [String: String?] = [:],
                clock: any HostClock = SystemClock(), patience: UInt64) throws(LevelProblem) {
        self.levelName = levelName
        self.clock = clock
        self.patience = patience
        // No backtrace on a crash: the runtime's would fill the last words with addresses, as it would a page's.
        let changes = environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { given, _ in given }
        let child: ChildProcess
        do {
            // In a session of its own with no trace channel; a level that ended while a step was on its way fails the
            // write with EPIPE rather than take tour down (`ChildProcess` ignores SIGPIPE for a child with input).
            child = try ChildProcess.launch(executable: executable, arguments: arguments,
                                            environment: ChildProcess.inheritedEnvironment(changing: changes), withInput: true,
                                            terminal: .none, traceChannel: false)
        } catch {
            throw LevelProblem(kind: .couldNotStart, description: "level \(levelName) could not start: \(error)")
        }
        pid = child.pid
        condition.withLock { input = child.input ?? -1 }
        armWatchdog()
        let errors = PipeLineReader(fd: child.stderr, name: "level-stderr", onLine: { [self] bytes, _ in
            let line = String(decoding: bytes, as: UTF8.self)
            condition.withLock {
                errorTail.append(line)
                if errorTail.count > Self.errorTailLength { errorTail.removeFirst() }
            }
        })
        _ = PipeLineReader(fd: child.stdout, name: "level-stdout", onLine: { [self] bytes, _ in
            let line = String(decoding: bytes, as: UTF8.self)
            condition.withLock {
                lines.append(line)
                watchdog?.cancel()
                condition.broadcast()
            }
        }, onEnd: { [self] in
            // The error stream is read to its end first, so a crash's last words are in the message.
            _ = errors.waitUntilDone(timeout: 1)
            let exit = ProcessExit.reap(pid)
            LiveProcessGroups.shared.remove(pid)
            condition.withLock {
                self.exit = exit
                watchdog?.cancel()
                condition.broadcast()
            }
        })
    }

    deinit {
        closeInput()
    }

    /// The next line decoded as `Document`: blocks until the line comes, or the program ends or is stopped.
    public func next<Document: Decodable>(_ type: Document.Type) throws(LevelProblem) -> Document {
        let line = try nextLine()
        do {
            return try JSONDecoder().decode(Document.self, from: Data(line.utf8))
        } catch {
            stop()
            let name = "\(Document.self)"
            throw LevelProblem(kind: .notADocument, description: "level \(levelName) sent a line that is not \("AEIOU".contains(name.prefix(1)) ? "an" : "a") \(name) "
                               + "(\(Self.reason(error))): \(EchoedInput.quoted(line))")
        }
    }

    /// Sends one step, the number of the thread to take it, and watches for the answer.
    public func send(thread: Int) {
        armWatchdog()
        let bytes = Array("\(thread)\n".utf8)
        condition.withLock {
            // A line this short goes whole into an empty pipe's buffer; a program that ended fails it with EPIPE.
            _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        }
    }

    /// Ends the program's input: a level playing takes it as the end of the game.
    private func closeInput() {
        condition.withLock {
            if input >= 0 { close(input) }
            input = -1
        }
    }

    /// Stops the program and what it started, if it still runs.
    public func stop() {
        condition.withLock {
            watchdog?.cancel()
            if exit == nil { kill(-pid, SIGKILL) }
        }
    }

    /// Waits until the program has ended and been reaped.
    public func waitUntilEnded() {
        condition.withLock { while exit == nil { condition.wait() } }
    }

    private func nextLine() throws(LevelProblem) -> String {
        let next: Result<String, LevelProblem> = condition.withLock {
            while lines.isEmpty && exit == nil { condition.wait() }
            return lines.isEmpty ? .failure(endingProblem()) : .success(lines.removeFirst())
        }
        return try next.get()
    }

    /// How the program ended before it answered; called under `condition`, once it has.
    private func endingProblem() -> LevelProblem {
        if stoppedAsSilent {
            return LevelProblem(kind: .silent, description: "level \(levelName) did not answer within \(DurationText.seconds(Double(patience) / 1e9)) and was stopped")
        }
        let how = switch exit {
        case .killed(let signal)?: "was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
        case .exited(let code)?: "exited with status \(code)"
        case nil: "ended"
        }
        let words = errorTail.isEmpty ? "" : "; its last words: " + errorTail.map { TerminalText.sanitized($0) }.joined(separator: " / ")
        return LevelProblem(kind: .ended, description: "level \(levelName) \(how) before it answered\(words)")
    }

    /// Stops the program `patience` from now unless a line comes first.
    private func armWatchdog() {
        let wake = clock.wake(at: clock.now + patience, on: watchdogQueue) { [self] in
            condition.withLock {
                guard exit == nil else { return }
                stoppedAsSilent = true
                kill(-pid, SIGKILL)
            }
        }
        condition.withLock {
            watchdog?.cancel()
            watchdog = wake
        }
    }

    /// What a decoding error says, in a few words.
    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted?: "not JSON"
        case .keyNotFound(let key, _)?: "no \(key.stringValue)"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            "a wrong \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}
