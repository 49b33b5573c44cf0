import PageProtocol
import Testing

@Suite("Schedule files", .bodiesBelowTheRunner)
struct ScheduleFileTests {
    @Test("A schedule written out reads back the same, its steps commented with their actions")
    func roundTrip() throws {
        let schedule = ScheduleFile(level: "lost-update", version: 1, fixed: false, threads: [1, 2, 1, 2])
        let text = schedule.text(steps: [LevelStep(thread: 1, action: "load count → 0"), LevelStep(thread: 2, action: "load count → 0")])
        #expect(text.contains("1  # load count → 0\n2  # load count → 0\n1\n2\n"))
        #expect(try ScheduleFile.parse(text) == schedule)
    }

    @Test("A wrong line is refused by its number, saying what was expected", arguments: [
        ("", 1, "the file is empty"),
        ("level lost-update\nfixed no\n1\n", 1, "level NAME VERSION"),
        ("level lost-update 1\nfixed maybe\n", 2, "fixed yes or fixed no"),
        ("level lost-update 1\nfixed no\n1\n2\nthree\n", 5, "one thread number from 1 to 9"),
        ("level lost-update 1\nfixed no\n1\n0\n", 4, "one thread number from 1 to 9"),
        ("level lost-update 1\n", 2, "ends before fixed"),
    ])
    func garbledLines(text: String, line: Int, expected: String) {
        #expect(throws: ScheduleFile.Problem.self) { try ScheduleFile.parse(text) }
        do {
            _ = try ScheduleFile.parse(text)
        } catch {
            #expect(error.line == line)
            #expect(error.description.contains(expected), "\(error)")
        }
    }

    @Test("Comments, blank lines and spaces around a step are ignored")
    func commentsAndBlanks() throws {
        let schedule = try ScheduleFile.parse("# saved by tour explore\n\nlevel lock-order 2 # v2\nfixed yes\n  1 \n\n2 # lock B\n")
        #expect(schedule == ScheduleFile(level: "lock-order", version: 2, fixed: true, threads: [1, 2]))
    }
}
