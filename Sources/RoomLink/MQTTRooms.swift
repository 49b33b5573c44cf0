@preconcurrency import Glibc
import Foundation
import RoomProtocol
import Synchronization
import TourCore

/// The rooms `tour` joins and hosts over MQTT: the participant's and presenter's links, with what a seat needs
/// first (this laptop's participant id, the leader's saved password), and `tour room`'s broker with its leader's link
/// (`RoomHosting`, which the dashboard's tests fake). What they keep on this laptop (the participant id, the
/// room a `tour room` here started) lives beside `progress.json`.
public struct MQTTRooms: RoomHosting {
    /// Where tour's state folder is (`XDG_STATE_HOME`, `HOME`) and `TOUR_ROOM_PASSWORD`.
    let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    // MARK: Joining

    /// This laptop's participant id: made once and kept beside `progress.json`, so a participant keeps their row on the
    /// dashboard across restarts. A problem (a state folder that cannot be written) is said in words.
    public func participantID(environment: [String: String]) -> Result<ParticipantID, RoomInputError> {
        guard let store = ProgressStore(environment: environment) else {
            return .failure(RoomInputError("cannot tell where to keep this laptop's participant id: set XDG_STATE_HOME or HOME to an absolute folder"))
        }
        do {
            return .success(try ParticipantIdentity.load(from: ParticipantIdentity.file(beside: store.file)))
        } catch {
            return .failure(error)
        }
    }

    /// The leader's password of the room a `tour room` on this laptop runs, when `address` is that room: its port,
    /// on this laptop (loopback, or one of its network addresses).
    public func savedLeaderPassword(for address: RoomAddress, environment: [String: String]) -> String? {
        guard let store = ProgressStore(environment: environment),
              case .success(let (saved, passwords)) = RoomConnection.load(from: RoomConnection.file(beside: store.file)),
              saved.port == address.port,
              address.host == saved.host || Self.isThisMachine(address.host) else { return nil }
        return passwords.leader
    }

    /// Joins the room at `address` as `participant`; connects in the background and reports how the link stands
    /// through `status` and what it hears (the poll on stage) through `heard`, on the link's own threads.
    public func openParticipantLink(address: RoomAddress, credentials: RoomCredentials, participant: ParticipantID,
                                    status: @escaping @Sendable (RoomLinkStatus) -> Void,
                                    heard: @escaping @Sendable (RoomEvent) -> Void) -> any ParticipantLinking {
        ParticipantLink(address: address, password: credentials.password, participant: participant) { update in
            Self.pass(update, status: status, heard: heard)
        }
    }

    /// Opens the leader's link to the room at `address`, for the presenter's polls: it hears the participants' answers
    /// (and whatever else the leader's subscriptions carry) through `heard`, on the link's own threads.
    public func openLeaderLink(address: RoomAddress, credentials: RoomCredentials,
                               status: @escaping @Sendable (RoomLinkStatus) -> Void,
                               heard: @escaping @Sendable (RoomEvent) -> Void) -> any LeaderLinking {
        LeaderLink(address: address, password: credentials.password) { update in
            Self.pass(update, status: status, heard: heard)
        }
    }

    private static func pass(_ update: RoomLinkUpdate, status: (RoomLinkStatus) -> Void, heard: (RoomEvent) -> Void) {
        switch update {
        case .status(let now): status(now)
        case .event(let event): heard(event)
        case .caughtUp: break
        }
    }

    // MARK: Hosting

    /// For `.start`, mosquitto on every interface, its connection saved for `tour present --room` here: with fresh
    /// passwords, or, when the last `tour room` on this laptop ended without being quit (a closed laptop, a crash),
    /// with its passwords and, unless `--port` says otherwise, its port, so its participants' tours, which keep
    /// trying, get back in by themselves. For `.use`, the running broker, as `leader` with `TOUR_ROOM_PASSWORD`, else
    /// the password a `tour room` here saved for it, else none (a broker that lets anyone in).
    public func open(_ request: RoomRequest, hear: @escaping @Sendable (RoomFeed) -> Void) throws(RoomInputError) -> OpenedRoom {
        let feed: @Sendable (RoomLinkUpdate) -> Void = { update in
            switch update {
            case .status(let status): hear(.status(status))
            case .event(let event): hear(.event(event))
            case .caughtUp: hear(.caughtUp)
            }
        }
        switch request {
        case .start(let port):
            let connectionFile = ProgressStore(environment: environment).map { RoomConnection.file(beside: $0.file) }
            let ended = connectionFile.flatMap(RoomConnection.ended(in:))
            let broker: MosquittoBroker
            if let ended, port == nil || port == ended.port,
               let resumed = try? MosquittoBroker.start(port: ended.port, passwords: ended.passwords, connectionFile: connectionFile,
                                                        environment: environment) {
                broker = resumed
                hear(.notice("the room the last tour room here ran is open again: the same port and password, so its participants come back by themselves"))
            } else {
                broker = try MosquittoBroker.start(port: port, passwords: .generated(), connectionFile: connectionFile, environment: environment)
            }
            let link = LeaderLink(address: broker.localAddress, password: broker.passwords.leader, handler: feed)
            broker.restartWhenItEnds { hear(.notice($0)) }
            let address = RoomAddress(host: Self.networkAddresses().first ?? broker.localAddress.host, port: broker.port)
            return OpenedRoom(address: address, password: broker.passwords.room, link: link, close: Self.once {
                link.leave()
                broker.stop()
            })
        case .use(let address):
            let password = environment[RoomCredentials.passwordVariable] ?? savedLeaderPassword(for: address, environment: environment) ?? ""
            let link = LeaderLink(address: address, password: password, handler: feed)
            return OpenedRoom(address: address, password: nil, link: link, close: Self.once { link.leave() })
        }
    }

    /// `body`, run the first time the closure is called and never again.
    private static func once(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let done = Atomic(false)
        return {
            guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
            body()
        }
    }

    /// This laptop's IPv4 addresses on its networks (up, not loopback), in the order the system lists them: what a
    /// participant on the same network connects to.
    static func networkAddresses() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var addresses: [String] = []
        var next = first
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let socketAddress = entry.pointee.ifa_addr, socketAddress.pointee.sa_family == sa_family_t(AF_INET),
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0,
                              NI_NUMERICHOST) == 0 else { continue }
            addresses.append(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return addresses
    }

    /// Whether `host` names this laptop: loopback, `localhost`, or one of its network addresses.
    static func isThisMachine(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || networkAddresses().contains(host)
    }
}
