import Foundation
import RoomProtocol
import TourCore

/// The passwords of a room `tour room` starts: the room's, which every participant types, and the leader's own,
/// which the dashboard and the presenter use and which alone may ask polls and read the room.
public struct RoomPasswords: Codable, Sendable, Equatable {
    public var room: String
    public var leader: String

    public init(room: String, leader: String) {
        self.room = room
        self.leader = leader
    }

    /// Two fresh passwords.
    public static func generated() -> RoomPasswords {
        RoomPasswords(room: readableAloud(), leader: readableAloud())
    }

    /// Letters and digits that read out loud one way: no 0/o, 1/l/i.
    static let readableCharacters = Array("abcdefghjkmnpqrstuvwxyz23456789")

    /// Ten characters from `readableCharacters` drawn by the system's random generator: about 49 bits, plenty against
    /// guessing over a network that the broker answers at its own pace.
    public static func readableAloud() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in readableCharacters.randomElement(using: &generator)! })
    }
}

/// Where the leader's tools on this laptop find the room `tour room` started: its address, the leader's password and
/// the room's, in `room.json` in tour's state folder, readable by its owner alone (0600), with the pid of the process
/// that runs the room's broker, so a file a crash left behind is known for one.
public struct RoomConnection: Codable, Sendable, Equatable {
    public var address: String
    public var passwords: RoomPasswords
    /// The process that started the broker; nil for a room on a broker someone else runs.
    public var ownerPID: Int32?

    public init(address: RoomAddress, passwords: RoomPasswords, ownerPID: Int32? = nil) {
        self.address = address.description
        self.passwords = passwords
        self.ownerPID = ownerPID
    }

    /// `room.json` beside `progress.json`.
    public static func file(beside progressFile: URL) -> URL {
        progressFile.deletingLastPathComponent().appendingPathComponent("room.json")
    }

    /// Writes the file, 0600 from its creation, replaced whole (a reader never sees half of it).
    public func save(to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(try JSONEncoder().encode(self), to: file.path, mode: 0o600)
    }

    /// The room a `tour room` on this laptop ran and that has ended (its owner's process is gone), so a new
    /// `tour room` can take it up again: the same port and passwords, which its participants' tours keep trying.
    /// Nil when there is none, or its `tour room` still runs.
    public static func ended(in file: URL) -> (port: UInt16, passwords: RoomPasswords)? {
        guard let connection = read(file), let owner = connection.ownerPID, processIsGone(owner),
              case .success(let address) = RoomAddress.parse(connection.address) else { return nil }
        return (address.port, connection.passwords)
    }

    /// The room the file names, or what is wrong with it: absent (no room was started on this laptop), not a room's
    /// connection, or left by a `tour room` that has ended.
    public static func load(from file: URL) -> Result<(RoomAddress, RoomPasswords), RoomInputError> {
        let startOne = "start one with tour room, or give --room HOST:PORT"
        guard FileManager.default.fileExists(atPath: file.path) else {
            return .failure(RoomInputError("no room was started on this laptop (\(file.path) is missing): \(startOne)"))
        }
        guard let connection = read(file) else {
            return .failure(RoomInputError("\(file.path) is not a room's connection (address and passwords): \(startOne)"))
        }
        if let owner = connection.ownerPID, processIsGone(owner) {
            return .failure(RoomInputError("the room started on this laptop is over (its tour room, pid \(owner), has ended): \(startOne)"))
        }
        return RoomAddress.parse(connection.address).map { ($0, connection.passwords) }
    }

    /// The connection `file` holds; nil when it is missing or holds none.
    private static func read(_ file: URL) -> RoomConnection? {
        FileManager.default.contents(atPath: file.path).flatMap { try? JSONDecoder().decode(RoomConnection.self, from: $0) }
    }
}
