@preconcurrency import Glibc
import CLinuxSystem
import Foundation
import MQTT
import RoomProtocol
import Synchronization
import TourCore

/// A mosquitto broker for one room, started by `tour room` (and the tests) from Debian's `mosquitto` package, in a
/// fresh private folder of its own: its config, password file, access list and persistence (`docs/room-format.md`).
///
/// The broker is started through `setpriv --pdeathsig KILL` from a thread that lives as long as it runs (the thread
/// reads its log), so the kernel kills it when that thread's process ends in any way: tour quitting, a test run
/// crashing. It leads a process group of its own, which `stop()` and `kill()` signal.
public final class MosquittoBroker: Sendable {
    /// How long a broker may take to say it is running before it is given up on; only a safety net.
    static let startTimeout: Double = 15

    public let folder: URL
    public let port: UInt16
    /// The address it listens on; nil for every interface (a workshop's LAN).
    public let listenHost: String?
    public let passwords: RoomPasswords
    /// Where `tour present --room` on this laptop finds the room, if it was asked for.
    public let connectionFile: URL?
    private let mosquitto: String
    private let running = Mutex<RunningBroker?>(nil)

    /// The address a client on this laptop connects to.
    public var localAddress: RoomAddress { RoomAddress(host: listenHost ?? "127.0.0.1", port: port) }

    /// The broker's pid while it runs.
    public var pid: pid_t? { running.withLock { $0.flatMap { $0.isRunning ? $0.pid : nil } } }

    /// Whether the broker runs: false once stopped or killed, and once it ended by itself.
    public var isRunning: Bool { pid != nil }

    /// Starts a broker and returns once it accepts connections. `port` nil takes a free one. `connectionFile`, when
    /// given, is written (0600) with the local address and both passwords, and removed by `stop()`.
    public static func start(port: UInt16? = nil, listenHost: String? = nil, passwords: RoomPasswords = .generated(),
                             connectionFile: URL? = nil,
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws(RoomInputError) -> MosquittoBroker {
        let mosquitto = try program("mosquitto", fallback: "/usr/sbin/mosquitto", environment: environment)
        let mosquittoPasswd = try program("mosquitto_passwd", fallback: "/usr/bin/mosquitto_passwd", environment: environment)
        let folder = try privateFolder()
        var attempts = 0
        while true {
            attempts += 1
            let chosenPort = if let port { port } else { try freePort(listenHost: listenHost) }
            let broker = MosquittoBroker(folder: folder, port: chosenPort, listenHost: listenHost, passwords: passwords,
                                         connectionFile: connectionFile, mosquitto: mosquitto)
            do {
                try broker.writeFiles(mosquittoPasswd: mosquittoPasswd)
                try broker.launch()
                if let connectionFile {
                    do {
                        try RoomConnection(address: broker.localAddress, passwords: passwords, ownerPID: getpid()).save(to: connectionFile)
                    } catch {
                        broker.stop()
                        throw RoomInputError("cannot write the room's connection to \(connectionFile.path): \(error)")
                    }
                }
                return broker
            } catch let problem as RoomInputError {
                // A free port taken by someone else between looking and listening: look again.
                if port == nil, attempts < 5, problem.description.contains("Address already in use") { continue }
                try? FileManager.default.removeItem(at: folder)
                throw problem
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw RoomInputError("\(error)")
            }
        }
    }

    private init(folder: URL, port: UInt16, listenHost: String?, passwords: RoomPasswords, connectionFile: URL?, mosquitto: String) {
        self.folder = folder
        self.port = port
        self.listenHost = listenHost
        self.passwords = passwords
        self.connectionFile = connectionFile
        self.mosquitto = mosquitto
    }

    deinit {
        stop()
    }

    /// Starts the broker again on the same port and folder, after `kill(with:)` or after it ended by itself: it finds
    /// the retained states it had saved. Does nothing while it runs.
    public func restart() throws(RoomInputError) {
        guard !isRunning else { return }
        // Forgets the run that ended (its group is gone, so the signal reaches no one).
        end(with: SIGKILL)
        try launch()
    }

    /// Ends the broker with `signal` and returns once it is gone; its folder stays for `restart()`. SIGKILL, the
    /// default, is a crash: nothing is saved since the last autosave. SIGTERM lets it save its retained messages.
    public func kill(with signal: Int32 = SIGKILL) {
        end(with: signal)
    }

    /// Stops the broker (SIGTERM, which saves its retained messages; SIGKILL if it has not ended within five
    /// seconds), and removes its folder and connection file.
    public func stop() {
        end(with: SIGTERM)
        try? FileManager.default.removeItem(at: folder)
        if let connectionFile { unlink(connectionFile.path) }
    }

    private func end(with signal: Int32) {
        guard let broker = running.withLock({ running in defer { running = nil }; return running }) else { return }
        Glibc.kill(-broker.pid, signal)
        if !broker.waitUntilEnded(timeout: 5) {
            Glibc.kill(-broker.pid, SIGKILL)
            _ = broker.waitUntilEnded(timeout: nil)
        }
    }

    /// Keeps the room's broker up for `tour room`: when it ends by itself (it crashed, or was killed from outside), it
    /// is started again on its port and folder, where it finds the retained states it saved, and every participant
    /// sends its latest again on reconnecting. `said` hears each restart, or why one failed (then it stops trying).
    /// Stopping or killing it here (`stop()`, `kill(with:)`) is not an ending it restarts from.
    public func restartWhenItEnds(said: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [weak self] in
            while let watched = self?.running.withLock({ $0 }) {
                _ = watched.waitUntilEnded(timeout: nil)
                guard let broker = self,
                      broker.running.withLock({ running in
                          guard running === watched else { return false }
                          running = nil
                          return true
                      }) else { return }
                do {
                    try broker.launch()
                    said("the broker ended by itself; started again on port \(broker.port), and the room reconnects")
                } catch {
                    said("the broker ended by itself and could not be started again: \(error)")
                    return
                }
            }
        }
        thread.name = "mosquitto-keeper"
        thread.start()
    }

    // MARK: Starting

    /// The broker's config, password file and access list.
    static func configuration(port: UInt16, listenHost: String?, folder: URL, runsAsRoot: Bool) -> String {
        """
        # Written by tour room for one room; see docs/room-format.md.
        per_listener_settings false
        listener \(port)\(listenHost.map { " \($0)" } ?? "")
        allow_anonymous false
        password_file \(folder.path)/passwords
        acl_file \(folder.path)/acl
        # A room message's payload may have RoomMessages.maximumPayload bytes; the packet around it, its topic too.
        max_packet_size \(RoomMessages.maximumPayload + 1024)
        message_size_limit \(RoomMessages.maximumPayload)
        persistence true
        persistence_location \(folder.path)/
        autosave_interval 1
        log_dest stderr
        log_type error
        log_type warning
        log_type notice
        log_type information
        \(runsAsRoot ? "# Run as root, mosquitto would become the user mosquitto, who cannot read this folder.\nuser root\n" : "")
        """
    }

    /// What each user may read and write. Each participant's topics are spelled out rather than `…/%c/#`: with a `#`,
    /// a client id with a `/` in it (`tour-victim/state`) would match another participant's topic.
    static let accessList = """
        user \(RoomCredentials.leaderUser)
        topic readwrite \(RoomTopic.root)/#

        user \(RoomCredentials.participantUser)
        topic read \(RoomTopic.root)/poll

        pattern write \(RoomTopic.root)/participants/%c/state
        pattern write \(RoomTopic.root)/participants/%c/presence
        pattern write \(RoomTopic.root)/answers/%c

        """

    private func writeFiles(mosquittoPasswd: String) throws(RoomInputError) {
        let configuration = Self.configuration(port: port, listenHost: listenHost, folder: folder, runsAsRoot: getuid() == 0)
        let passwordFile = folder.appendingPathComponent("passwords")
        let plain = "\(RoomCredentials.participantUser):\(passwords.room)\n\(RoomCredentials.leaderUser):\(passwords.leader)\n"
        for (name, text) in [("mosquitto.conf", configuration), ("acl", Self.accessList), ("passwords", plain)] {
            guard FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data(text.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw RoomInputError("cannot write the broker's \(name) in \(folder.path)")
            }
        }
        // `-U` hashes the plain file in place: the passwords never appear on a command line.
        let hashing = Process()
        hashing.executableURL = URL(fileURLWithPath: mosquittoPasswd)
        hashing.arguments = ["-U", passwordFile.path]
        hashing.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        hashing.standardError = errors
        do {
            try hashing.run()
        } catch {
            throw RoomInputError("cannot run \(mosquittoPasswd): \(error.localizedDescription)")
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        hashing.waitUntilExit()
        guard hashing.terminationStatus == 0 else {
            throw RoomInputError("\(mosquittoPasswd) could not hash the room's passwords: \(String(decoding: said, as: UTF8.self))")
        }
    }

    /// Starts mosquitto and returns once its log says it is running and a connection to its port succeeds.
    private func launch() throws(RoomInputError) {
        let broker = RunningBroker()
        let started = DispatchSemaphore(value: 0)
        let arguments = ["--pdeathsig", "KILL", "--", mosquitto, "-c", folder.appendingPathComponent("mosquitto.conf").path]
        let thread = Thread { broker.run(arguments: arguments, started: started) }
        thread.name = "mosquitto-log"
        thread.start()
        let inTime = started.wait(timeout: .now() + Self.startTimeout) == .success
        if inTime, broker.isRunning, case .success(let socket) = TCPSocket.connect(host: localAddress.host, port: port, timeout: 5) {
            close(socket)
            running.withLock { $0 = broker }
            return
        }
        if broker.pid > 0 { Glibc.kill(-broker.pid, SIGKILL) }
        _ = broker.waitUntilEnded(timeout: nil)
        let log = broker.log.suffix(8).joined(separator: "\n")
        throw RoomInputError(inTime ? "mosquitto did not start:\n\(log)" : "mosquitto did not start within \(Self.startTimeout) s:\n\(log)")
    }

    static func program(_ name: String, fallback: String, environment: [String: String]) throws(RoomInputError) -> String {
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in folders where access("\(folder)/\(name)", X_OK) == 0 { return "\(folder)/\(name)" }
        if access(fallback, X_OK) == 0 { return fallback }
        throw RoomInputError("tour room starts the mosquitto broker, and \(name) is not installed: install Debian's mosquitto package (sudo apt-get install mosquitto), or give a running broker with tour room --broker HOST:PORT")
    }

    /// A fresh folder only its owner can enter, under `$XDG_RUNTIME_DIR` or the temporary folder, holding this
    /// process's pid in `owner`. The folders of processes that are gone (a tour or a test run that crashed, whose broker
    /// the kernel killed) are removed first, so crashes do not pile them up.
    private static func privateFolder() throws(RoomInputError) -> URL {
        let base = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? FileManager.default.temporaryDirectory.path
        removeFoldersOfEndedProcesses(in: base)
        var template = Array("\(base)/\(folderPrefix)XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw RoomInputError("cannot make a folder for the broker in \(base): \(String(cString: strerror(errno)))")
        }
        let folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        guard FileManager.default.createFile(atPath: folder.appendingPathComponent("owner").path, contents: Data("\(getpid())\n".utf8)) else {
            throw RoomInputError("cannot write in the broker's folder \(folder.path)")
        }
        return folder
    }

    static let folderPrefix = "tour-room-"

    /// Removes this user's broker folders in `base` whose owning process has ended.
    static func removeFoldersOfEndedProcesses(in base: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix(folderPrefix) {
            let folder = "\(base)/\(name)"
            guard let owner = FileManager.default.contents(atPath: "\(folder)/owner"),
                  let pid = pid_t(String(decoding: owner, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
                  pid != getpid(), processIsGone(pid) else { continue }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// A TCP port no one listens on now, as the kernel picks one.
    private static func freePort(listenHost: String?) throws(RoomInputError) -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, listenHost ?? "0.0.0.0", &address.sin_addr)
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, size) == 0 && getsockname(descriptor, $0, &size) == 0
            }
        }
        guard bound else { throw RoomInputError("cannot find a free port: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// One run of mosquitto, seen from the thread that started it and reads its log until it ends.
private final class RunningBroker: @unchecked Sendable {
    /// Lines a broker's log keeps for a message about why it stopped; older ones are dropped.
    static let keptLines = 40

    private let lock = NSLock()
    private var _pid: pid_t = 0
    private var _log: [String] = []
    private var _running = false
    /// Signalled once, when the broker has ended and was reaped; each waiter signals it again for the next.
    private let exited = DispatchSemaphore(value: 0)

    /// Waits until the broker has ended and was reaped, or `timeout` seconds (nil: for ever); true once it has ended.
    /// Any number of threads may wait: each passes the signal on.
    func waitUntilEnded(timeout: Double?) -> Bool {
        if let timeout {
            guard exited.wait(timeout: .now() + timeout) == .success else { return false }
        } else {
            exited.wait()
        }
        exited.signal()
        return true
    }

    var pid: pid_t { lock.withLock { _pid } }
    var log: [String] { lock.withLock { _log } }
    var isRunning: Bool { lock.withLock { _running } }

    /// Starts `setpriv` with `arguments`, signals `started` when the log says the broker runs or it ended, and reads the
    /// log until it ends. The process is this thread's child, so the parent-death signal comes when this process ends.
    func run(arguments: [String], started: DispatchSemaphore) {
        var ends: [Int32] = [0, 0]
        guard pipe2(&ends, O_CLOEXEC) == 0 else {
            record("cannot make a pipe: \(String(cString: strerror(errno)))")
            started.signal()
            exited.signal()
            return
        }
        let spawn = ProcessSpawn("/usr/bin/setpriv", arguments: arguments,
                                 fileActions: [.open("/dev/null", flags: O_RDONLY, as: 0), .duplicate(ends[1], as: 1),
                                               .duplicate(ends[1], as: 2), .closeAll(from: 3)],
                                 leadsNewSession: true)
        let child: pid_t
        do {
            child = try spawn.start()
        } catch {
            close(ends[0])
            close(ends[1])
            record("\(error)")
            started.signal()
            exited.signal()
            return
        }
        close(ends[1])
        lock.withLock { _pid = child }
        var announced = false
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending += chunk[..<count]
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                record(line)
                if !announced && line.hasSuffix(" running") {
                    lock.withLock { _running = true }
                    announced = true
                    started.signal()
                }
            }
            // A line longer than a log line ever is: keep its start only.
            if pending.count > 4096 { pending.removeAll() }
        }
        close(ends[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        lock.withLock { _running = false }
        if !announced { started.signal() }
        exited.signal()
    }

    private func record(_ line: String) {
        lock.withLock {
            _log.append(line)
            if _log.count > Self.keptLines { _log.removeFirst() }
        }
    }
}
