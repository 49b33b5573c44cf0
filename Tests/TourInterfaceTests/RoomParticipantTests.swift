import Foundation
import RoomProtocol
import Testing
import TourCore
@testable import TourInterface
import TourTestSupport

/// The tutorial in a room: progress written is published, the status line says how the link stands, and the poll on
/// stage shows over the page, is answered, put away, brought back, told its outcome and taken down.
@Suite("In a room, as a participant", .bodiesBelowTheRunner)
struct RoomParticipantTests {
    static let poll = RoomPoll(id: "stage-1", page: "queue", pageNumber: 2, question: "Which thread runs the `helper` span?",
                               choices: [RoomPoll.Choice(key: "a", text: "the main thread"), RoomPoll.Choice(key: "b", text: "a worker thread")])

    static var answeredPoll: RoomPoll {
        var poll = poll
        poll.outcome = RoomPoll.Outcome(rightChoice: "b", happened: "it ran on T2, a worker", counts: ["a": 3, "b": 9])
        return poll
    }

    /// The fixture tutorial in a room as ana, connected unless told.
    static func model(width: Int = 120, height: Int = 40, status: RoomLinkStatus = .connected) throws -> TourModel {
        var model = try FixturePages.model(width: width, height: height)
        model.room = ParticipantRoom(name: "ana")
        _ = model.update(.room(.status(status)))
        return model
    }

    @Test("Progress as the loop wrote it is published in a room, and nothing is outside one")
    func progressWrittenIsPublished() throws {
        var record = ProgressRecord()
        record.apply(.ran(page: "queue"), at: Date(timeIntervalSince1970: 0))
        var inRoom = try Self.model()
        #expect(inRoom.update(.room(.progressWritten(record))) == [.publishProgress(record)])
        var alone = try FixturePages.model()
        #expect(alone.update(.room(.progressWritten(record))).isEmpty)
        #expect(alone.room == nil)
    }

    @Test("The link's state reaches the status line: connecting, connected as ana, reconnecting and refused with why",
          arguments: [(RoomLinkStatus.connecting, "room: connecting"), (.connected, "room: connected as ana"),
                      (.reconnecting(problem: "broker gone"), "room: reconnecting (broker gone)"),
                      (.refused(problem: "wrong password"), "room: refused (wrong password)")])
    func statusLine(status: RoomLinkStatus, words: String) throws {
        var model = try Self.model(status: .connecting)
        _ = model.update(.room(.status(status)))
        #expect(model.room?.status == status)
        let screen = TourRenderer.render(model)
        let bottom = screen.text(ofRow: 39)
        #expect(bottom.contains(words), "the status line is \(bottom)")
        let at = try #require(screen.find("room:"))
        #expect(screen[at.x, at.y].style.foreground == RoomViews.statusColor(status))
    }

    @Test("A refusal is said whole over the page, once, at 80×24 too: the status line has room for little more than the word")
    func aRefusalIsSaidWhole() throws {
        var model = try Self.model(status: .connecting)
        _ = model.update(.resize(Size(width: 80, height: 24)))
        let problem = "wrong room password: check it and join again"
        _ = model.update(.room(.status(.refused(problem: problem))))
        #expect(model.overlay == .roomRefused(problem: problem))
        let screen = TourRenderer.render(model)
        #expect(screen.find("wrong room password") != nil)
        #expect(screen.find("TOUR_ROOM_PASSWORD") != nil)
        _ = model.update(.key(.character("x")))
        #expect(model.overlay == nil)
        _ = model.update(.room(.status(.refused(problem: problem))))
        #expect(model.overlay == nil)
        // Behind a question of the tutorial's own, it waits as a notice.
        model.overlay = .confirmQuit
        _ = model.update(.room(.status(.connecting)))
        _ = model.update(.room(.status(.refused(problem: problem))))
        #expect(model.overlay == .confirmQuit)
        #expect(model.notice == "Room refused: \(problem).")
    }

    @Test("Without a room the status line says nothing of one")
    func noRoomOnTheStatusLine() throws {
        let screen = TourRenderer.render(try FixturePages.model())
        #expect(!screen.text(ofRow: 39).contains("room"))
    }

    @Test("A poll arrives over the page; a choice sends the answer and says so; another changes it")
    func pollAnsweredAndChanged() throws {
        var model = try Self.model()
        model.go(toPage: 1)
        #expect(model.update(.room(.heard(.poll(Self.poll)))).isEmpty)
        #expect(model.overlay == .roomPoll)
        #expect(model.current == 1, "the poll shows wherever the learner is")
        #expect(TourRenderer.render(model).find("Poll on stage: page 2") != nil)

        #expect(model.update(.key(.character("b"))) == [.answerPoll(PollAnswer(pollID: "stage-1", choice: "b"))])
        #expect(model.room?.poll?.answer == "b")
        #expect(model.room?.poll?.answerSent == true)
        #expect(model.overlay == .roomPoll)
        #expect(TourRenderer.render(model).find("Answer sent: (b).") != nil)
        #expect(model.update(.key(.character("A"))) == [.answerPoll(PollAnswer(pollID: "stage-1", choice: "a"))])
        #expect(model.room?.poll?.answer == "a")
    }

    @Test("An answer given while the room is not connected says it was not sent, and is sent again by its key")
    func answerWhileDisconnected() throws {
        var model = try Self.model(status: .reconnecting(problem: "broker gone"))
        _ = model.update(.room(.heard(.poll(Self.poll))))
        #expect(model.update(.key(.character("a"))) == [.answerPoll(PollAnswer(pollID: "stage-1", choice: "a"))])
        #expect(model.room?.poll?.answerSent == false)
        #expect(TourRenderer.render(model).find("was not sent") != nil)
        _ = model.update(.room(.status(.connected)))
        _ = model.update(.key(.character("a")))
        #expect(model.room?.poll?.answerSent == true)
    }

    @Test("A key that is no choice sends nothing and says which keys answer")
    func otherKeys() throws {
        var model = try Self.model()
        _ = model.update(.room(.heard(.poll(Self.poll))))
        #expect(model.update(.key(.character("z"))).isEmpty)
        #expect(model.notice == "Answer with a or b; Esc puts the poll away (R brings it back).")
        #expect(model.update(.key(.character("q"))).isEmpty, "q does not quit while the poll asks")
        #expect(model.overlay == .roomPoll)
    }

    @Test("Esc puts the poll away and R brings it back; R says why when there is no room or no poll")
    func dismissAndReopen() throws {
        var model = try Self.model()
        model.press(.character("R"))
        #expect(model.notice == "No poll is open on stage.")
        _ = model.update(.room(.heard(.poll(Self.poll))))
        model.press(.escape)
        #expect(model.overlay == nil)
        #expect(model.room?.poll != nil)
        // The same poll heard again (a reconnect) does not push it back over the page.
        _ = model.update(.room(.heard(.poll(Self.poll))))
        #expect(model.overlay == nil)
        model.press(.character("R"))
        #expect(model.overlay == .roomPoll)

        var alone = try FixturePages.model()
        alone.press(.character("R"))
        #expect(alone.overlay == nil)
        #expect(alone.notice == "You are not in a room: tour --room HOST:PORT --name NAME joins one.")
    }

    @Test("The outcome comes back over the page with the counts, the right choice and whether the answer was right")
    func outcome() throws {
        var model = try Self.model()
        _ = model.update(.room(.heard(.poll(Self.poll))))
        _ = model.update(.key(.character("a")))
        model.press(.escape)
        _ = model.update(.room(.heard(.poll(Self.answeredPoll))))
        #expect(model.overlay == .roomPoll)
        #expect(model.room?.poll?.answer == "a", "the answer given is kept with the outcome")
        let screen = TourRenderer.render(model)
        #expect(screen.find("9 of 12 right.") != nil)
        #expect(screen.find("You said (a); the answer was (b).") != nil)
        #expect(screen.find("it ran on T2, a worker") != nil)
        // With the outcome in, a choice's key no longer answers.
        #expect(model.update(.key(.character("b"))).isEmpty)
        #expect(model.notice == "The run has answered this poll; Esc puts it away.")
    }

    @Test("A new poll replaces the old one and its answer; the poll taken down leaves the screen")
    func newPollAndClosed() throws {
        var model = try Self.model()
        _ = model.update(.room(.heard(.poll(Self.poll))))
        _ = model.update(.key(.character("a")))
        var next = Self.poll
        next.id = "stage-2"
        _ = model.update(.room(.heard(.poll(next))))
        #expect(model.room?.poll == ParticipantPoll(poll: next))
        _ = model.update(.room(.heard(.pollClosed)))
        #expect(model.room?.poll == nil)
        #expect(model.overlay == nil)
        model.press(.character("R"))
        #expect(model.notice == "No poll is open on stage.")
    }

    @Test("A poll that comes while the tutorial asks y or n waits behind the question, and says so")
    func pollWaitsBehindAQuestion() throws {
        var model = try Self.model()
        model.overlay = .confirmQuit
        _ = model.update(.room(.heard(.poll(Self.poll))))
        #expect(model.overlay == .confirmQuit)
        #expect(model.notice == "A poll is open on stage: R shows it once this question is answered.")
    }

    @Test("What the room says that is the leader's (states, presences, answers, garbage) changes nothing on a participant's screen")
    func leadersBusinessIgnored() throws {
        var model = try Self.model()
        let other = try #require(ParticipantID("tour-00000000000000aa"))
        for event in [RoomEvent.presence(other, .offline), .answer(other, PollAnswer(pollID: "stage-1", choice: "a")),
                      .unreadable(other, problem: "sent garbage")] {
            #expect(model.update(.room(.heard(event))).isEmpty)
        }
        #expect(model.overlay == nil)
        #expect(model.room?.poll == nil)
    }

    @Test("A hostile poll (escape sequences, fifty choices, a huge question) shows cleaned and cut, inside the screen")
    func hostilePoll() throws {
        let choices = (0..<50).map { #"{"key":"\#($0 % 10)","text":"\u001b[31mchoice \#($0)\u001b]0;pwned\u0007"}"# }
        let payload = #"{"id":"x","page":"queue","pageNumber":1,"question":"\u001b[2J"# + String(repeating: "why ", count: 2_000)
            + #"","choices":["# + choices.joined(separator: ",") + "]}"
        let event = try #require(RoomMessages.event(topic: RoomTopic.poll.name, payload: Array(payload.utf8)))
        for (width, height) in [(120, 40), (80, 24)] {
            var model = try Self.model(width: width, height: height)
            _ = model.update(.room(.heard(event)))
            #expect(model.overlay == .roomPoll)
            #expect(model.room?.poll?.poll.choices.count == 10)
            let screen = TourRenderer.render(model)
            let text = screen.lines.joined()
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "no control character reaches the screen")
            #expect(screen.lines.count == height)
        }
    }

    @Test("The poll and the room on the status line, by snapshot at 120×40 and 80×24", arguments: [(120, 40), (80, 24)])
    func snapshots(width: Int, height: Int) throws {
        var model = try Self.model(width: width, height: height)
        _ = model.update(.room(.heard(.poll(Self.poll))))
        _ = model.update(.key(.character("b")))
        Snapshot.expect(TourRenderer.render(model).lines, matches: "room-poll-answered-\(width)")
        _ = model.update(.room(.heard(.poll(Self.answeredPoll))))
        Snapshot.expect(TourRenderer.render(model).lines, matches: "room-poll-outcome-\(width)")
        model.press(.escape)
        _ = model.update(.room(.status(.reconnecting(problem: "connection refused"))))
        Snapshot.expect([TourRenderer.render(model).text(ofRow: height - 1)], matches: "room-status-reconnecting-\(width)")
    }
}
