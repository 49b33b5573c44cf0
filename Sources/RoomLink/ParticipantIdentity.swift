import Foundation
import RoomProtocol

/// A participant's id, made once per installation and kept in `participant-id` beside `progress.json`: the same
/// laptop keeps its row on the dashboard across restarts, and two participants who give the same name keep two rows.
public enum ParticipantIdentity {
    /// `participant-id` in the folder of `progressFile`.
    public static func file(beside progressFile: URL) -> URL {
        progressFile.deletingLastPathComponent().appendingPathComponent("participant-id")
    }

    /// The id kept in `file`, made and kept there first when there is none. A file that holds no id (damaged, or
    /// edited) is replaced by a fresh one: the id names nothing but the laptop's row. Two tours starting at once
    /// agree on one id: the file is created exclusively, and the loser reads the winner's.
    public static func load(from file: URL) throws(RoomInputError) -> ParticipantID {
        if let kept = read(file) { return kept }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw RoomInputError("cannot make \(file.deletingLastPathComponent().path) for the participant id: \(error.localizedDescription)")
        }
        let fresh = freshID()
        let temporary = file.path + ".\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((fresh.value + "\n").utf8)) else {
            throw RoomInputError("cannot write the participant id to \(temporary)")
        }
        defer { unlink(temporary) }
        // link() fails if another tour made the file meanwhile; a damaged file is replaced.
        if link(temporary, file.path) != 0 {
            if let kept = read(file) { return kept }
            guard rename(temporary, file.path) == 0 else {
                throw RoomInputError("cannot write the participant id to \(file.path): \(String(cString: strerror(errno)))")
            }
        }
        return fresh
    }

    /// `tour-` and 16 random hex digits.
    public static func freshID() -> ParticipantID {
        var generator = SystemRandomNumberGenerator()
        let hex = String(generator.next(), radix: 16)
        return ParticipantID("tour-" + String(repeating: "0", count: 16 - hex.count) + hex)!
    }

    private static func read(_ file: URL) -> ParticipantID? {
        guard let data = FileManager.default.contents(atPath: file.path), data.count <= 100 else { return nil }
        return ParticipantID(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
