import ExerciseJudging
import Foundation
import RoomProtocol
import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// The leader's dashboard's pure core: what each room event does to the board, how long "no progress" is timed on the
/// leader's clock, the lines `--plain` prints, the limits a hostile room meets, and the screen at 120x40 and 80x24.
@Suite("The room's dashboard", .bodiesBelowTheRunner)
struct RoomBoardTests {
    static let start = Date(timeIntervalSince1970: 1_796_000_000)
    static let utc = TimeZone(identifier: "UTC")!

    static func board() throws -> RoomBoard {
        RoomBoard(analysis: WorkshopAnalysis(pages: try PageCatalog.load().pages, exercises: ExerciseCatalog.ids),
                  address: RoomAddress(host: "192.168.1.20", port: 41883), password: "tulip-ember-42", now: start)
    }

    static func id(_ value: String) -> ParticipantID { ParticipantID(value)! }

    /// A state: pages opened up to `page` at `at`, the exercises of `passed` pages passed, then `change`.
    static func state(_ name: String, on page: String, passed: [String] = [], at time: Date = start, writtenAt: Date? = nil,
                      _ change: (inout ProgressRecord) -> Void = { _ in }) -> ParticipantProgress {
        var record = ProgressRecord()
        for slug in passed {
            record.apply(.opened(page: slug), at: time)
            record.apply(.passed(page: slug, exercise: ExerciseCatalog.exercises(forPage: slug)!.challenge.id), at: time)
        }
        record.apply(.opened(page: page), at: time)
        change(&record)
        return ParticipantProgress(participant: name, tourVersion: "test", writtenAt: writtenAt ?? time, progress: record)
    }

    static func failedCheck(_ slug: String, _ finding: String) -> (inout ProgressRecord) -> Void {
        { record in
            record.apply(.checked(page: slug, exercise: ExerciseCatalog.exercises(forPage: slug)!.challenge.id, passed: false,
                                  firstFailure: finding), at: start)
        }
    }

    /// A room: two anas, the second failing a check twice on page 2; bob idle on page 3 for 12 minutes; cy gone; dee ahead.
    static func room() throws -> RoomBoard {
        var board = try board()
        board.linkChanged(.connected, at: start)
        let at = start.addingTimeInterval(60)
        for (value, _) in [("tour-a1", "ana"), ("tour-b2", "bob"), ("tour-c3", "cy"), ("tour-d4", "dee"), ("tour-e5", "ana")] {
            board.receive(.presence(id(value), .online), at: at)
        }
        board.receive(.state(id("tour-a1"), state("ana", on: "queue", passed: ["operation"])), at: at)
        board.receive(.state(id("tour-b2"), state("bob", on: "async", passed: ["operation", "queue"])), at: at)
        board.receive(.state(id("tour-c3"), state("cy", on: "operation")), at: at)
        board.receive(.state(id("tour-d4"), state("dee", on: "gcd", passed: ["operation", "queue", "async", "dependencies", "in-practice"])), at: at)
        board.receive(.state(id("tour-e5"), state("ana", on: "queue", passed: ["operation"]) { record in
            failedCheck("queue", "the preview finished after the full-size image")(&record)
            record.apply(.hintShown(page: "queue", exercise: "preview-first", number: 1), at: start)
            failedCheck("queue", "the preview finished after the full-size image")(&record)
        }), at: at.addingTimeInterval(60))
        board.receive(.presence(id("tour-c3"), .offline), at: at.addingTimeInterval(120))
        // The first ana keeps working; bob does nothing more.
        board.receive(.state(id("tour-a1"), state("ana", on: "queue", passed: ["operation"], at: start.addingTimeInterval(600))),
                      at: start.addingTimeInterval(600))
        board.receive(.state(id("tour-d4"), state("dee", on: "gcd", passed: ["operation", "queue", "async", "dependencies", "in-practice"],
                                                  at: start.addingTimeInterval(600))), at: start.addingTimeInterval(600))
        board.tick(start.addingTimeInterval(13 * 60))
        return board
    }

    @Test("Equal names are shown apart, who needs help says why, who left is listed, and the stuck count is of those who reached it")
    func theRoomAsTheBoardSeesIt() throws {
        let board = try Self.room()
        #expect(board.order.compactMap { board.participants[$0]?.label } == ["ana", "ana (2)", "bob", "cy", "dee"])
        let help = board.needingHelp.map { "\($0.participant.label): \($0.need.challenge.name), \($0.need.why(now: board.now))" }
        #expect(help == ["ana (2): queue/preview-first, 2 failed checks", "bob: async/finish, no progress for 12 min"], "\(help)")
        #expect(board.left.map(\.label) == ["cy"])
        #expect(board.present == 4)
        let stuck = board.stuck.map { "\($0.name) \($0.countText)" }
        #expect(stuck.first == "queue/preview-first 2 of 4 who reached it", "\(stuck)")
        #expect(!stuck.contains { $0.hasPrefix("tasks/") }, "nobody reached page 9")
    }

    @Test("A name changed moves only its own rows: the others of the old name close up, the new one is told apart")
    func aRenameRelabelsOnlyTheNamesItTouches() throws {
        var board = try Self.board()
        for value in ["tour-a1", "tour-b2", "tour-c3"] {
            board.receive(.state(Self.id(value), Self.state("ana", on: "operation")), at: Self.start)
        }
        board.receive(.state(Self.id("tour-d4"), Self.state("bob", on: "operation")), at: Self.start)
        #expect(board.order.compactMap { board.participants[$0]?.label } == ["ana", "ana (2)", "ana (3)", "bob"])
        board.receive(.state(Self.id("tour-a1"), Self.state("bob", on: "operation")), at: Self.start)
        #expect(board.order.map(\.value) == ["tour-b2", "tour-c3", "tour-a1", "tour-d4"])
        #expect(board.order.compactMap { board.participants[$0]?.label } == ["ana", "ana (2)", "bob", "bob (2)"],
                "tour-a1 was heard before tour-d4, so it is the first bob")
    }

    @Test("No progress is timed on the leader's clock from the last change seen, whatever the laptop's clock says")
    func idleTimeIsTheLeadersClock() throws {
        var board = try Self.board()
        let bob = Self.id("tour-b2")
        // bob's laptop is a year ahead: his own times say nothing about the leader's now.
        let yearAhead = Self.start.addingTimeInterval(365 * 86_400)
        board.receive(.presence(bob, .online), at: Self.start)
        board.receive(.state(bob, Self.state("bob", on: "async", at: yearAhead)), at: Self.start)
        board.tick(Self.start.addingTimeInterval(9 * 60))
        #expect(board.needingHelp.isEmpty, "9 minutes is not yet 10")
        // Something new on the page: a run. The ten minutes start again.
        board.receive(.state(bob, Self.state("bob", on: "async", at: yearAhead) { record in
            record.apply(.ran(page: "async"), at: yearAhead.addingTimeInterval(60))
        }), at: Self.start.addingTimeInterval(9 * 60))
        board.tick(Self.start.addingTimeInterval(18 * 60))
        #expect(board.needingHelp.isEmpty, "9 minutes since the run")
        board.tick(Self.start.addingTimeInterval(19 * 60))
        #expect(board.needingHelp.map { $0.need.why(now: board.now) } == ["no progress for 10 min"])

        // A state already in the room when the dashboard starts is dated by its own clock: written 7 minutes after
        // its page last changed, it is 3 minutes from needing help.
        var late = try Self.board()
        let cy = Self.id("tour-c3")
        late.receive(.state(cy, Self.state("cy", on: "queue", at: yearAhead, writtenAt: yearAhead.addingTimeInterval(7 * 60))), at: Self.start)
        late.tick(Self.start.addingTimeInterval(2 * 60))
        #expect(late.needingHelp.isEmpty)
        late.tick(Self.start.addingTimeInterval(3 * 60))
        #expect(late.needingHelp.count == 1)
    }

    @Test("--plain says each event on a line: joined, where they are, page opened, the n-th failed check with its finding, a hint, a pass, left, an unreadable message")
    func thePlainLinesOfAScriptedRoom() throws {
        var log = RoomPlainLog(board: try Self.board(), zone: Self.utc)
        let ana = Self.id("tour-a1")
        let second = Self.start.addingTimeInterval(1)
        let script: [RoomFeed] = [
            .status(.connected),
            .event(.presence(ana, .online)),
            .event(.state(ana, Self.state("ana", on: "operation"))),
            .event(.state(ana, Self.state("ana", on: "operation", Self.failedCheck("operation", "it ran past \u{1B}[31mone band")))),
            .event(.state(ana, Self.state("ana", on: "operation") { record in
                Self.failedCheck("operation", "it ran past one band")(&record)
                record.apply(.hintShown(page: "operation", exercise: "stop-within-one-band", number: 1), at: Self.start)
                Self.failedCheck("operation", "still past one band")(&record)
            })),
            .event(.state(ana, Self.state("ana", on: "queue", passed: ["operation"]))),
            .event(.unreadable(ana, problem: "sent a state that is not valid JSON")),
            .event(.unreadable(nil, problem: "the poll message is not a poll with choices")),
            .event(.presence(ana, .offline)),
            .caughtUp,
        ]
        let lines = script.flatMap { log.lines(for: $0, at: second) }
        #expect(log.opening == ["Room 192.168.1.20:41883. To join: tour --room 192.168.1.20:41883 --name YOURNAME (password: tulip-ember-42)"])
        #expect(lines == [
            "00:53:21 link connected",
            "00:53:21 ana: joined: on page 1 (operation), 0 exercises passed",
            "00:53:21 ana: check failed (1st) on operation/stop-within-one-band: it ran past one band",
            "00:53:21 ana: check failed (2nd) on operation/stop-within-one-band: still past one band",
            "00:53:21 ana: took hint 1 on operation/stop-within-one-band",
            "00:53:21 ana: opened page 2 (queue)",
            "00:53:21 ana: passed operation/stop-within-one-band",
            "00:53:21 ana: unreadable message: sent a state that is not valid JSON",
            "00:53:21 unreadable message: the poll message is not a poll with choices",
            "00:53:21 ana: left",
            "00:53:21 caught up with the room: 1 participant heard",
        ], "\(lines)")
    }

    @Test("A hostile room: past 500 participants they are counted, not kept; the log stays bounded; pages and exercises the catalog lacks are ignored")
    func aHostileRoomIsBounded() throws {
        var board = try Self.board()
        for number in 0..<(RoomBoard.participantLimit + 40) {
            board.receive(.presence(Self.id("tour-\(number)"), .online), at: Self.start)
            board.receive(.state(Self.id("tour-\(number)"), Self.state("p\(number)", on: "queue")), at: Self.start)
        }
        #expect(board.participants.count == RoomBoard.participantLimit)
        #expect(board.untrackedMessages == 80)
        #expect(board.log.count == RoomBoard.logLimit)
        var forged = ProgressRecord()
        forged.apply(.opened(page: "made-up"), at: Self.start)
        forged.apply(.passed(page: "made-up", exercise: "x"), at: Self.start)
        forged.apply(.checked(page: "queue", exercise: "not-the-challenge", passed: false), at: Self.start)
        forged.apply(.checked(page: "queue", exercise: "not-the-challenge", passed: false), at: Self.start)
        let id = Self.id("tour-0")
        board.receive(.state(id, ParticipantProgress(participant: "mallory", tourVersion: "x", writtenAt: Self.start, progress: forged)), at: Self.start)
        let participant = try #require(board.participants[id])
        #expect(participant.record?.pages.keys.sorted() == ["queue"], "only the catalog's pages are kept")
        #expect(participant.record?.pages["queue"]?.attempts.isEmpty == true, "only the page's own challenge is kept")
        #expect(participant.standing?.needsHelp.isEmpty == true)
        #expect(participant.standing?.current == nil, "a made-up last page is no page")
    }

    @Test("The room at 120x40: the header with the join command and password, needs help above the grid, who left, stuck on")
    func snapshotWide() throws {
        let lines = RoomBoardView.render(try Self.room(), size: Size(width: 120, height: 40), glyphs: .ascii, zone: Self.utc).lines
        Snapshot.expect(lines, matches: "room-wide")
        #expect(lines[1].contains("Join: tour --room 192.168.1.20:41883 --name YOURNAME   password: tulip-ember-42"))
        let help = try #require(lines.firstIndex(of: " Needs help (2)"))
        let grid = try #require(lines.firstIndex { $0.hasPrefix(" ana ") })
        #expect(help < grid, "needs help comes above the participants")
        #expect(lines.contains(" Latest"), "a wide screen with room to spare shows the latest happenings")
    }

    @Test("Thirty participants at 80x24: the rows that do not fit are said as +N more, and scroll")
    func snapshotCompactScrolls() throws {
        var board = try Self.room()
        for number in 0..<26 {
            let id = Self.id("tour-x\(number)")
            board.receive(.presence(id, .online), at: Self.start)
            board.receive(.state(id, Self.state(String(format: "p%02d", number), on: "queue", passed: ["operation"])), at: Self.start)
        }
        let lines = RoomBoardView.render(board, size: Size(width: 80, height: 24), glyphs: .ascii, zone: Self.utc).lines
        Snapshot.expect(lines, matches: "room-compact")
        #expect(lines[2] == " password: tulip-ember-42", "at 80 columns the password has a line of its own, never cut")
        let more = try #require(lines.first { $0.contains("more below") }, "\(lines)")
        #expect(more.contains(", 0 above"))
        for _ in 0..<100 { _ = board.press(.down, rowsShown: 10) }
        let scrolled = RoomBoardView.render(board, size: Size(width: 80, height: 24), glyphs: .ascii, zone: Self.utc).lines
        #expect(scrolled.contains { $0.hasPrefix(" p25") }, "the last row is reached by scrolling: \(scrolled)")
        #expect(board.press(.character("q"), rowsShown: 10) == .quit)
    }

    @Test("A name in wide characters keeps the page columns in line, and a long one is cut")
    func wideAndLongNamesKeepTheGridInLine() throws {
        var board = try Self.board()
        for (value, name) in [("tour-a1", "明美"), ("tour-b2", "ana"), ("tour-c3", String(repeating: "w", count: 32))] {
            board.receive(.state(Self.id(value), Self.state(name, on: "queue", passed: ["operation"])), at: Self.start)
        }
        let buffer = RoomBoardView.render(board, size: Size(width: 80, height: 24), glyphs: .ascii, zone: Self.utc)
        let rows = (0..<24).map { y in String((0..<80).map { buffer[$0, y] }.filter { !$0.isContinuation }.map(\.character)) }
        let columns = try ["明美", "ana", "wwww"].map { name in
            let row = try #require(rows.first { $0.hasPrefix(" " + name) }, "\(rows)")
            return TextWidth.of(String(try #require(row.firstRange(of: "+ >o").map { row[..<$0.lowerBound] })))
        }
        #expect(Set(columns).count == 1, "the first page's mark is in one column on every row: \(columns)")
        #expect(rows.contains { $0.hasPrefix(" " + String(repeating: "w", count: 17) + "...  ") }, "cut to 20 columns, the ellipsis among them")
    }

    @Test("--json's snapshot holds each participant, who needs help and why, and the stuck exercises")
    func theSnapshotDocument() throws {
        let snapshot = RoomSnapshot(try Self.room())
        let decoded = try JSONDecoder.iso8601.decode(RoomSnapshot.self, from: Data(try snapshot.json().utf8))
        #expect(decoded == snapshot)
        #expect(snapshot.room == "192.168.1.20:41883" && snapshot.link == "connected")
        #expect(snapshot.participants.map(\.name) == ["ana", "ana (2)", "bob", "cy", "dee"])
        let second = try #require(snapshot.participants.first { $0.name == "ana (2)" })
        #expect(second.needsHelp == [RoomSnapshot.Help(exercise: "queue/preview-first", why: "2 failed checks", failedChecks: 2, hintsShown: 1,
                                                       lastFinding: "the preview finished after the full-size image")])
        #expect(snapshot.participants.first { $0.name == "cy" }?.presence == "offline")
        #expect(snapshot.stuck.first == RoomSnapshot.Stuck(exercise: "queue/preview-first", notPassed: 2, reached: 4))
    }
}

private extension JSONDecoder {
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
