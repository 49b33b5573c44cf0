import Foundation
import RoomProtocol
import Testing
import TourCore
import TourTestSupport

@Suite(.bodiesBelowTheRunner) struct RoomAddressTests {
    @Test func readsHostAndPort() throws {
        #expect(try RoomAddress.parse("192.168.1.20:1883").get() == RoomAddress(host: "192.168.1.20", port: 1883))
        #expect(try RoomAddress.parse("laptop.local:41000").get() == RoomAddress(host: "laptop.local", port: 41000))
        #expect(try RoomAddress.parse("[::1]:1883").get() == RoomAddress(host: "::1", port: 1883))
        #expect(RoomAddress(host: "::1", port: 1883).description == "[::1]:1883")
    }

    @Test(arguments: [
        ("laptop", "it has no port"),
        ("laptop:", "the port '' is not a number from 1 to 65535"),
        ("laptop:0", "the port '0' is not a number from 1 to 65535"),
        ("laptop:70000", "the port '70000' is not a number from 1 to 65535"),
        (":1883", "'' is not a host name or address"),
        ("lap top:1883", "'lap top' is not a host name or address"),
        ("[::1:1883", "an IPv6 host in brackets needs ]:PORT"),
    ])
    func refusesWhatIsNotAnAddress(text: String, problem: String) throws {
        let error = try #require(RoomAddress.parse(text).failure)
        #expect(error.description.contains(problem))
        #expect(error.description.contains("HOST:PORT"))
    }
}

@Suite(.bodiesBelowTheRunner) struct RoomTopicTests {
    @Test func everyTopicReadsBackAsItself() throws {
        let id = try #require(ParticipantID("tour-0123456789abcdef"))
        for topic in [RoomTopic.state(id), .presence(id), .poll, .answer(id)] {
            #expect(RoomTopic(name: topic.name) == topic)
        }
    }

    @Test func otherTopicsAndBadIDsAreNotRoomTopics() {
        #expect(RoomTopic(name: "concurrency-tour/participants/a+b/state") == nil)
        #expect(RoomTopic(name: "concurrency-tour/participants/ana/secrets") == nil)
        #expect(RoomTopic(name: "elsewhere/poll") == nil)
        #expect(RoomTopic(name: "concurrency-tour/poll/extra") == nil)
        #expect(ParticipantID(String(repeating: "a", count: 65)) == nil)
    }
}

@Suite(.bodiesBelowTheRunner) struct RoomMessagesTests {
    let id = ParticipantID("tour-ana")!

    @Test func aStateReadsBackWithItsNameMadePrintable() throws {
        var record = ProgressRecord()
        record.lastPage = "async"
        let progress = ParticipantProgress(participant: "\u{1B}[2Jana\u{7}", tourVersion: "0.1.0",
                                           writtenAt: Date(timeIntervalSince1970: 1_800_000_000), progress: record)
        var expected = progress
        expected.participant = "ana"
        #expect(RoomMessages.event(topic: RoomTopic.state(id).name, payload: try RoomMessages.payload(progress)) == .state(id, expected))
    }

    @Test func tooLargeGarbledAndForeignMessagesAreUnreadableNotLost() throws {
        let huge = [UInt8](repeating: 0x41, count: RoomMessages.maximumPayload + 1)
        let events = [
            RoomMessages.event(topic: RoomTopic.state(id).name, payload: huge),
            RoomMessages.event(topic: RoomTopic.state(id).name, payload: Array("{not json".utf8)),
            RoomMessages.event(topic: RoomTopic.presence(id).name, payload: Array("maybe".utf8)),
            RoomMessages.event(topic: RoomTopic.answer(id).name, payload: Array("{}".utf8)),
        ]
        #expect(events == [
            .unreadable(id, problem: "sent \(huge.count) bytes, more than the \(RoomMessages.maximumPayload) a room message may have"),
            .unreadable(id, problem: "sent a state that is not valid JSON"),
            .unreadable(id, problem: "sent a presence that is neither online nor offline"),
            .unreadable(id, problem: "sent an answer that is not one (a poll id and a choice key)"),
        ])
        #expect(RoomMessages.event(topic: "someone/else", payload: []) == nil)
    }

    @Test func anEmptyPollClosesItAndAPollIsMadePrintable() throws {
        #expect(RoomMessages.event(topic: RoomTopic.poll.name, payload: []) == .pollClosed)
        let poll = RoomPoll(id: "async-1", page: "async", pageNumber: 3, question: "Which \u{1B}]0;x\u{7}first?",
                            choices: [.init(key: "a", text: "the queue"), .init(key: "b", text: "the download")])
        var printable = poll
        printable.question = "Which first?"
        #expect(RoomMessages.event(topic: RoomTopic.poll.name, payload: try RoomMessages.payload(poll)) == .poll(printable))
    }

    @Test func namesAreCutAndNeverEmpty() {
        #expect(RoomMessages.printableName(String(repeating: "x", count: 100)).count == RoomMessages.maximumNameLength)
        #expect(RoomMessages.printableName(" \u{1B}[31m ") == "(no name)")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
