@preconcurrency import Glibc
import Foundation
import Synchronization
import TourCore

/// Where a presenter and `tour notes` meet: a folder private to the user (mode 0700) under `$XDG_RUNTIME_DIR`, or
/// `/tmp/tour-<uid>` when that is unset, with one Unix socket per presenter session, `presenter-<session>.sock`.
/// The session is the presenter's process id, so two presenters on one machine never share a socket, and a
/// follower names the one it follows. No network is involved.
public enum NotesChannel {
    /// A problem with the folder or a socket, in words that say what to do.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// A presenter's socket, by session.
    public struct Session: Equatable, Sendable {
        public var name: String
        public var socketPath: String
        /// When the socket was made: the newest live session is the one `tour notes` follows by default.
        public var started: Date
    }

    /// The private folder for this user, made (mode 0700) if it is missing; one that is not a folder, not the
    /// user's own, or open to others is refused, since a stranger could then put a socket there.
    public static func folder(environment: [String: String]) throws(Problem) -> String {
        let path: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            path = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/tour"
        } else {
            path = "/tmp/tour-\(getuid())"
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Problem(description: "the notes folder \(path) cannot be made: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Problem(description: "\(path) is not a folder, so presenter and notes cannot meet there; move it away")
        }
        guard info.st_uid == getuid() else {
            throw Problem(description: "the notes folder \(path) belongs to another user (uid \(info.st_uid)); set XDG_RUNTIME_DIR to a folder of your own")
        }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw Problem(description: "the notes folder \(path) is open to other users and cannot be made private: \(String(cString: strerror(errno)))")
        }
        return path
    }

    /// The socket of `session` in `folder`.
    public static func socketPath(folder: String, session: String) -> String {
        "\(folder)/presenter-\(session).sock"
    }

    /// The presenters whose sockets are in `folder`, newest first. A socket whose presenter has gone (its process is
    /// dead, or nothing answers on it) is removed on the way.
    public static func liveSessions(in folder: String) -> [Session] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var sessions: [Session] = []
        for name in names where name.hasPrefix("presenter-") && name.hasSuffix(".sock") {
            let session = String(name.dropFirst("presenter-".count).dropLast(".sock".count))
            let path = socketPath(folder: folder, session: session)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { continue }
            // A session named by a pid whose process is gone left its socket behind when it was killed.
            if let pid = Int32(session), processIsGone(pid) {
                unlink(path)
                continue
            }
            sessions.append(Session(name: session, socketPath: path,
                                    started: Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)))
        }
        return sessions.sorted { $0.started > $1.started }
    }

    /// Which presenter `tour notes` follows: the session named, or else the newest live one.
    public enum SessionChoice: Equatable {
        /// The session to follow, and the other live ones.
        case found(Session, others: [Session])
        /// None is live yet, or not the one named; `live` are those that are.
        case notYet(live: [Session])
    }

    /// The session of `folder` to follow: `requested` if it is live, or the newest live one when none is named.
    public static func chooseSession(_ requested: String?, in folder: String) -> SessionChoice {
        let sessions = liveSessions(in: folder)
        let chosen = requested.map { name in sessions.first { $0.name == name } } ?? sessions.first
        guard let chosen else { return .notYet(live: sessions) }
        return .found(chosen, others: sessions.filter { $0 != chosen })
    }

    /// A Unix stream socket's address for `path`, or a problem when the path is too long for one (108 bytes).
    static func address(of path: String) throws(Problem) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw Problem(description: "the socket path \(path) is \(bytes.count) bytes, longer than a Unix socket allows (\(capacity - 1)); set XDG_RUNTIME_DIR to a shorter folder")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Runs `body` with `address` as the `sockaddr` that `bind` and `connect` take.
    static func withSocketAddress<Result>(_ address: sockaddr_un, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = address
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// The sockets to remove when the process exits, however it exits through `exit` (a signal's handler too).
    static let socketsToRemove = Mutex<Set<String>>([])
    private static let removalAtExit: Void = {
        atexit {
            for path in NotesChannel.socketsToRemove.withLock({ $0 }) { unlink(path) }
        }
    }()

    static func removeAtExit(_ path: String) {
        _ = removalAtExit
        socketsToRemove.withLock { _ = $0.insert(path) }
    }

    static func keep(_ path: String) {
        socketsToRemove.withLock { _ = $0.remove(path) }
    }
}
