@preconcurrency import Glibc
import Foundation
import Synchronization

/// The presenter's side of the notes channel: a Unix socket of its own session (`NotesChannel`) that every
/// `tour notes` connects to, and one JSON line per `PresenterSnapshot` sent to each of them.
///
/// It never holds the presenter up: `publish` returns at once, sending happens on a queue of its own without
/// blocking, and a follower that is slow (its socket's buffer full) or gone is dropped; it can connect again. A
/// follower that connects gets the latest snapshot at once. The socket is removed by `close()`, and at exit.
public final class NotesPublisher: @unchecked Sendable {
    public let session: String
    public let socketPath: String

    private struct State {
        var listener: Int32
        var followers: [Int32] = []
        /// The last snapshot's line, for a follower that connects after it was published.
        var latest: Data?
        var closed = false
    }

    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "tour.notes.publisher")
    /// Set up in `init` and cancelled once by `close` (which `state.closed` guards): the reason for `@unchecked`.
    private let acceptSource: DispatchSourceRead
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Opens the session's socket in `folder` (by default the user's private notes folder) and starts taking
    /// followers. `session` names it, by default this process's id.
    public init(folder: String? = nil, session: String = String(getpid()),
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(NotesChannel.Problem) {
        let path: String
        if let folder {
            path = NotesChannel.socketPath(folder: folder, session: session)
        } else {
            path = NotesChannel.socketPath(folder: try NotesChannel.folder(environment: environment), session: session)
        }
        let address = try NotesChannel.address(of: path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else {
            throw NotesChannel.Problem(description: "no socket for the speaker's notes: \(String(cString: strerror(errno)))")
        }
        // A socket left by an earlier process of the same id, killed before it could remove it.
        unlink(path)
        let bound = NotesChannel.withSocketAddress(address) { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(listener)
            throw NotesChannel.Problem(description: "the speaker's notes socket \(path) cannot be opened: \(reason)")
        }
        chmod(path, 0o600)
        NotesChannel.removeAtExit(path)
        self.session = session
        socketPath = path
        state = Mutex(State(listener: listener))
        acceptSource = DispatchSource.makeReadSource(fileDescriptor: listener, queue: queue)
        acceptSource.setEventHandler { [weak self] in self?.acceptFollowers() }
        acceptSource.resume()
    }

    deinit {
        close()
    }

    /// Sends `snapshot` to every follower, as one JSON line; returns at once.
    public func publish(_ snapshot: PresenterSnapshot) {
        guard let encoded = try? Self.encoder.encode(snapshot) else { return }
        let line = encoded + Data([0x0A])
        queue.async { [self] in
            state.withLock { state in
                guard !state.closed else { return }
                state.latest = line
                state.followers = state.followers.filter { Self.send(line, to: $0) }
            }
        }
    }

    /// How many followers are connected, as far as the last send knows.
    public var followerCount: Int {
        queue.sync { state.withLock { $0.followers.count } }
    }

    /// Stops taking followers, hangs up on those connected (they see the presenter go) and removes the socket.
    public func close() {
        let wasOpen: Bool = state.withLock { state in
            guard !state.closed else { return false }
            state.closed = true
            for follower in state.followers { Glibc.close(follower) }
            state.followers = []
            return true
        }
        guard wasOpen else { return }
        // The listener is closed once its source is cancelled, never while its handler may still read it.
        let listener = state.withLock { $0.listener }
        acceptSource.setCancelHandler { Glibc.close(listener) }
        acceptSource.cancel()
        unlink(socketPath)
        NotesChannel.keep(socketPath)
    }

    private func acceptFollowers() {
        state.withLock { state in
            guard !state.closed else { return }
            while true {
                // accept4 needs _GNU_SOURCE, which Glibc's module does not set.
                let follower = accept(state.listener, nil, nil)
                guard follower >= 0 else { return }
                _ = fcntl(follower, F_SETFD, FD_CLOEXEC)
                _ = fcntl(follower, F_SETFL, fcntl(follower, F_GETFL) | O_NONBLOCK)
                if let latest = state.latest, !Self.send(latest, to: follower) { continue }
                state.followers.append(follower)
            }
        }
    }

    /// Writes the whole line without waiting, or closes the follower and says false: a follower whose buffer is
    /// full has fallen behind, and one that has gone cannot be written to.
    private static func send(_ line: Data, to follower: Int32) -> Bool {
        let complete: Bool = line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(follower, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
        if !complete { Glibc.close(follower) }
        return complete
    }
}
