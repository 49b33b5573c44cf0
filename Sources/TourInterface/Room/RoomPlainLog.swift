import Foundation
import RoomProtocol
import TourCore

/// `tour room --plain`: the room's events one a line, from what the leader's link hears, through the same board the
/// dashboard draws (so both say the same thing of the same messages).
public struct RoomPlainLog: Sendable {
    public private(set) var board: RoomBoard
    /// The zone of the times at the start of each line.
    public let zone: TimeZone

    public init(board: RoomBoard, zone: TimeZone = .current) {
        self.board = board
        self.zone = zone
    }

    /// The room opened: where to join it, and its password when the leader has it.
    public mutating func setRoom(_ address: RoomAddress, password: String?) {
        board.address = address
        board.password = password
    }

    /// The first lines: the room, and how to join it.
    public var opening: [String] {
        guard let address = board.address, let join = board.joinCommand else { return [] }
        return ["Room \(address). To join: \(join)" + (board.password.map { " (password: \($0))" } ?? "")]
    }

    /// The lines `feed`, heard at `time`, makes.
    public mutating func lines(for feed: RoomFeed, at time: Date) -> [String] {
        switch feed {
        case .event(let event): board.receive(event, at: time).map { $0.line(in: zone) }
        case .status(let status): board.linkChanged(status, at: time).map { $0.line(in: zone) }
        case .notice(let text): board.noticed(text, at: time).map { $0.line(in: zone) }
        case .caughtUp:
            [RoomHappening(time: time, participant: nil,
                           text: "caught up with the room: \(board.participants.count) participant\(board.participants.count == 1 ? "" : "s") heard").line(in: zone)]
        }
    }
}
