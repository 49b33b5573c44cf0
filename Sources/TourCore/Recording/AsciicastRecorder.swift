@preconcurrency import Glibc
import Foundation
import Synchronization
import PageProtocol

/// Records what the terminal showed as an asciicast v2 file (the format `asciinema play` replays): a header line,
/// `{"version": 2, "width": …, "height": …, "timestamp": …, "title": …, "idle_time_limit": …}`, then one line for
/// each event, stamped with the real time since the recording began: `[seconds, "o", text]` for output,
/// `[seconds, "r", "120x40"]` when the terminal is resized, and `[seconds, "m", label]` for a marker a replay can jump
/// to (a page, a run). A speaker whose live demo fails replays it.
///
/// Lines are written as they happen, so a recording of a long talk holds nothing in memory and survives a crash of
/// the program that records it. Safe to call from any thread.
public final class AsciicastRecorder: Sendable {
    /// A recording that could not be made or finished, in words.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private struct State {
        var descriptor: Int32
        var lastSeconds: Double = 0
        /// The first write that failed; later events are dropped and `finish` reports it.
        var failure: String?
    }

    public let path: String
    private let startTime: UInt64
    private let clock: @Sendable () -> UInt64
    private let state: Mutex<State>
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Why `path` cannot take the recording that `option` (`--cast`, `--record`) asks for, or nil when it can.
    public static func problem(withTarget path: String, option: String) -> String? {
        ExportTarget.problem(withTarget: path, option: option, example: "demo.cast", noun: "recording")
    }

    /// How long a replay lets the screen stand still, in seconds, before it skips ahead: a speaker's pause or a page
    /// waiting for its watchdog replays in at most this, and every run's own timings are kept below it.
    public static let idleTimeLimit = 5

    /// Starts a recording of a `width`×`height` terminal at `path`, replacing a regular file there, and writes its
    /// header with `title`. `clock` is the monotonic clock in nanoseconds; tests give their own.
    public init(path: String, width: Int, height: Int, title: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                clock: @escaping @Sendable () -> UInt64 = monotonicNanoseconds) throws(Failure) {
        if let problem = Self.problem(withTarget: path, option: "the recording") { throw Failure(description: problem) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Failure(description: "the recording \(path) cannot be opened: \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.clock = clock
        startTime = clock()
        state = Mutex(State(descriptor: descriptor))
        var header: [String: AsciicastHeaderValue] = [
            "version": .int(2), "width": .int(max(1, width)), "height": .int(max(1, height)),
            "timestamp": .int(Int(Date().timeIntervalSince1970)), "title": .string(title),
            "idle_time_limit": .int(Self.idleTimeLimit),
        ]
        let shown = ["TERM", "SHELL"].compactMap { name in environment[name].map { (name, $0) } }
        if !shown.isEmpty { header["env"] = .strings(Dictionary(uniqueKeysWithValues: shown)) }
        // A dictionary of plain values always encodes.
        let line = (try? Self.encoder.encode(header)) ?? Data()
        append(line + Data("\n".utf8))
        if let failure = state.withLock({ $0.failure }) { throw Failure(description: failure) }
    }

    /// Adds `text` as one output event, stamped with the time since the recording began.
    public func record(_ text: String) {
        guard !text.isEmpty else { return }
        event("o", text)
    }

    /// Adds a resize of the terminal to `width`×`height`: a replay resizes with it, and the frames after it fit.
    public func resize(width: Int, height: Int) {
        event("r", "\(max(1, width))x\(max(1, height))")
    }

    /// Adds a marker a replay can jump to (`asciinema play` stops at each with `--pause-on-markers`).
    public func mark(_ label: String) {
        event("m", label)
    }

    /// One `[seconds, code, data]` line, stamped with the time since the recording began.
    private func event(_ code: String, _ text: String) {
        let seconds = Double(clock() &- startTime) / 1e9
        let data = (try? Self.encoder.encode(text)) ?? Data("\"\"".utf8)
        state.withLock { state in
            // Timestamps never go back, even when two threads record at once.
            let stamp = max(seconds, state.lastSeconds)
            state.lastSeconds = stamp
            Self.write(Data("[\(String(format: "%.6f", stamp)), \"\(code)\", ".utf8) + data + Data("]\n".utf8), into: &state)
        }
    }

    /// Closes the file; throws if any line could not be written.
    public func finish() throws(Failure) {
        let failure: String? = state.withLock { state in
            if state.descriptor >= 0 {
                if close(state.descriptor) != 0, state.failure == nil {
                    state.failure = "the recording \(path) could not be closed: \(String(cString: strerror(errno)))"
                }
                state.descriptor = -1
            }
            return state.failure
        }
        if let failure { throw Failure(description: failure) }
    }

    private func append(_ data: Data) {
        state.withLock { Self.write(data, into: &$0) }
    }

    private static func write(_ data: Data, into state: inout State) {
        guard state.failure == nil, state.descriptor >= 0 else { return }
        let descriptor = state.descriptor
        let problem: String? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
        if let problem { state.failure = "the recording could not be written: \(problem)" }
    }
}

/// A value of the asciicast header: a number, a string, or the `env` table of strings.
private enum AsciicastHeaderValue: Encodable {
    case int(Int)
    case string(String)
    case strings([String: String])

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        }
    }
}
