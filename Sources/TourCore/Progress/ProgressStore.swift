@preconcurrency import Glibc
import Foundation

/// The learner's `progress.json`: read and changed under an advisory lock, written atomically, and a file it cannot
/// trust set aside rather than lost.
///
/// Two tutorials open at once each change the record by applying their change to the state freshly read under an
/// exclusive `flock` on `progress.json.lock`, so neither overwrites what the other recorded.
public struct ProgressStore: Sendable {
    /// The progress file.
    public let file: URL
    /// Gives the time of each change and of each set-aside name; tests inject a fixed one.
    public let clock: @Sendable () -> Date

    public init(file: URL, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.file = file
        self.clock = clock
    }

    /// The store at `$XDG_STATE_HOME/tour/progress.json`, by default `~/.local/state/tour/progress.json`; nil when
    /// the environment names no absolute state folder or home. A relative `XDG_STATE_HOME` is ignored, as the XDG
    /// base directory specification asks.
    public init?(environment: [String: String], clock: @escaping @Sendable () -> Date = { Date() }) {
        let folder: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            folder = URL(fileURLWithPath: state, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folder = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/state", isDirectory: true)
        } else {
            return nil
        }
        self.init(file: folder.appendingPathComponent("tour/progress.json"), clock: clock)
    }

    /// The lock file beside the progress file; it is never renamed or removed, so every process locks the same inode.
    public var lockFile: URL { file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".lock") }

    /// What a read found, with the message for a file that had to be set aside.
    public struct Reading: Sendable {
        public var record: ProgressRecord
        /// The file found, if it had to be set aside; nil when it was fine or absent.
        public var setAside: SetAside?

        public init(record: ProgressRecord, setAside: SetAside? = nil) {
            self.record = record
            self.setAside = setAside
        }
    }

    /// A progress file that could not be trusted, and the copy it became.
    public struct SetAside: Equatable, Sendable {
        public var file: URL
        public var copy: URL
        /// What was wrong with it, in words ("is not valid JSON").
        public var problem: String

        /// The whole story, for a command's standard error.
        public var message: String {
            "progress file \(file.path) \(problem); it was moved to \(copy.path) and progress starts afresh"
        }

        /// Short enough for the interface's status line: the copy's name says why, and the folder is the file's own.
        public var briefMessage: String {
            "Progress file set aside as \(copy.lastPathComponent) beside it; progress starts afresh."
        }
    }

    /// Reads the record; a file that cannot be trusted is set aside and an empty record returned in its place.
    public func read() throws -> Reading {
        try locked { try readUnlocked() }
    }

    /// Applies `change` to the freshly read record and writes the result, all under the lock; returns what was written.
    @discardableResult
    public func update(_ change: (inout ProgressRecord) -> Void) throws -> Reading {
        try locked {
            var reading = try readUnlocked()
            change(&reading.record)
            try write(reading.record)
            return reading
        }
    }

    /// Records one thing the learner did, now.
    @discardableResult
    public func record(_ event: ProgressEvent) throws -> Reading {
        let time = clock()
        return try update { $0.apply(event, at: time) }
    }

    /// Renames the progress file to `progress.json.<reason>-<UTC time>` and returns where it went; nil when there was none.
    public func setAside(reason: String) throws -> URL? {
        try locked { try setAsideUnlocked(reason: reason) }
    }

    // MARK: - Under the lock

    private func readUnlocked() throws -> Reading {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return Reading(record: ProgressRecord())
        } catch {
            throw ProgressError(description: "cannot read \(file.path): \(error.localizedDescription)")
        }
        let problem: (reason: String, what: String)
        switch ProgressDocument.classify(data) {
        case .record(let record):
            return Reading(record: record)
        case .problem(let reason, let what):
            problem = (reason, what)
        }
        guard let moved = try setAsideUnlocked(reason: problem.reason) else { return Reading(record: ProgressRecord()) }
        return Reading(record: ProgressRecord(), setAside: SetAside(file: file, copy: moved, problem: problem.what))
    }

    private func setAsideUnlocked(reason: String) throws -> URL? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let stamp = Self.stamp(clock())
        var target = file.deletingLastPathComponent().appendingPathComponent("\(file.lastPathComponent).\(reason)-\(stamp)")
        var suffix = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = file.deletingLastPathComponent().appendingPathComponent("\(file.lastPathComponent).\(reason)-\(stamp)-\(suffix)")
            suffix += 1
        }
        guard rename(file.path, target.path) == 0 else {
            throw ProgressError(description: "cannot move \(file.path) aside to \(target.path): \(String(cString: strerror(errno)))")
        }
        return target
    }

    /// Writes `record` to a temporary file in the same folder, flushes it to disk, then renames it over the file:
    /// a reader sees the old record or the new one, never half of one.
    private func write(_ record: ProgressRecord) throws {
        let data: Data
        do {
            data = try JSONEncoder.progress.encode(record)
        } catch {
            throw ProgressError(description: "cannot encode the progress record: \(error)")
        }
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary.path)") }
        var written = 0
        let complete = data.withUnsafeBytes { bytes -> Bool in
            while written < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return fsync(descriptor) == 0
        }
        let writeError = failure("cannot write \(temporary.path)")
        close(descriptor)
        guard complete else {
            unlink(temporary.path)
            throw writeError
        }
        guard rename(temporary.path, file.path) == 0 else {
            let error = failure("cannot rename \(temporary.path) to \(file.path)")
            unlink(temporary.path)
            throw error
        }
    }

    /// Runs `body` holding an exclusive `flock` on the lock file, creating the folder first.
    private func locked<Value>(_ body: () throws -> Value) throws -> Value {
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw ProgressError(description: "cannot create the folder \(folder.path): \(error.localizedDescription)")
        }
        let descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot open the lock file \(lockFile.path)") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("cannot lock \(lockFile.path)") }
        }
        return try body()
    }

    private func failure(_ what: String) -> ProgressError {
        ProgressError(description: "\(what): \(String(cString: strerror(errno)))")
    }

    /// `20261201T134500Z`: a UTC time that sorts and fits in a file name.
    static func stamp(_ time: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }
}

/// Progress could not be read or written; the message names the file and what failed.
public struct ProgressError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// Tells a progress document from someone else's JSON, a newer one and a broken one.
public enum ProgressDocument {
    public enum Kind: Equatable {
        case record(ProgressRecord)
        /// `reason` names the set-aside copy (`corrupt`, `foreign`, `newer`); `what` says in words what was wrong.
        case problem(reason: String, what: String)
    }

    /// The fields every version has, read before the rest so a newer or foreign file is named as such.
    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    public static func classify(_ data: Data) -> Kind {
        guard (try? JSONSerialization.jsonObject(with: data)) != nil else {
            return .problem(reason: "corrupt", what: "is not valid JSON")
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == ProgressRecord.formatName else {
            return .problem(reason: "foreign", what: "is JSON but not a ConcurrencyTour progress file (no \"format\": \"\(ProgressRecord.formatName)\")")
        }
        guard let version = header.version else {
            return .problem(reason: "corrupt", what: "has no \"version\"")
        }
        guard version <= ProgressRecord.currentVersion else {
            return .problem(reason: "newer", what: "has version \(version), newer than the \(ProgressRecord.currentVersion) this tour reads (it was written by a newer tour)")
        }
        do {
            return .record(try JSONDecoder.progress.decode(ProgressRecord.self, from: data))
        } catch {
            return .problem(reason: "corrupt", what: "does not have the shape of a version \(version) progress file (\(describe(error)))")
        }
    }

    /// A decoding error in a few words: the field and what was expected there.
    static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [CodingKey]) -> String { keys.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) is not a \(type)"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)) is missing"
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
