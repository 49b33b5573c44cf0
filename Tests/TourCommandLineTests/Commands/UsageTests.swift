import Foundation
import Presenting
import Testing
@testable import TourCommandLine
@testable import TourCore

/// What `tour --help` and each command's usage say, and the options they parse.
@Suite("Usage and options", .bodiesBelowTheRunner)
struct UsageTests {
    /// `tour --help`'s words, each run of spaces and line breaks made one space, so a phrase is found wherever it wraps.
    static let help = words(TourCommand.usage(pageCount: nil))

    static func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    @Test("--theme is taken by the tutorial, the presenter and the notes; a wrong or missing name is named with the themes")
    func themeOption() throws {
        var tutorial = TourCommand.InteractiveOptions(page: "3")
        tutorial.theme = .light
        #expect(try TourCommand.parse(["--theme", "light", "--page", "3"]) == .interactive(tutorial))
        var present = TourCommand.PresentOptions()
        present.script = "assets/talks/part-one.talk"
        present.theme = .contrast
        #expect(try TourCommand.parse(["present", "--theme", "contrast", "assets/talks/part-one.talk"]) == .present(present))
        #expect(try TourCommand.parse(["notes", "--theme", "dark", "--session", "42"]) == .notes(session: "42", theme: .dark))
        #expect(throws: TourCommand.UsageError(description: "--theme takes dark, light or contrast, not 'pink'")) {
            try TourCommand.parse(["--theme", "pink"])
        }
        #expect(throws: TourCommand.UsageError(description: "--theme needs a theme: dark, light or contrast, for example --theme light")) {
            try TourCommand.parse(["present", "--theme"])
        }
        #expect(Self.help.contains("--theme NAME the colours: dark (the default), light"))
    }

    @Test("--svg needs a file, and watch takes none; a target refused as --trace's is refused before the run")
    func svgOnTheCommandLine() throws {
        let folder = FileManager.default.temporaryDirectory
        let problem = try #require(TimelineSVG.problem(withTarget: folder.path))
        #expect(throws: TourCommand.UsageError(description: "--svg needs a file name, for example --svg timeline.svg")) {
            try TourCommand.parse(["run", "1", "--svg", "--plain"])
        }
        #expect(throws: TourCommand.UsageError(description: "watch draws no picture, since it reruns the page at every save; "
                                               + "use tour run <page> --svg FILE.svg")) {
            try TourCommand.parse(["watch", "1", "--svg", "a.svg"])
        }
        var options = TourCommand.RunOptions(page: "1")
        options.svgFile = folder.path
        let page = Page(number: 1, folder: "01-Fixture", title: "Fixture", summary: "", product: "RunnerFixture",
                        source: folder.appendingPathComponent("main.swift"))
        #expect(throws: TourCommand.UsageError(description: problem)) {
            try PlainRun.validate(options, catalog: PageCatalog(pages: [page], root: folder))
        }
    }

    @Test("The help names every shipped talk")
    func helpNamesTheShippedTalks() {
        for talk in ShippedTalks.all { #expect(Self.help.contains(talk), "tour --help does not name \(talk)") }
    }

    /// `tour --help` is where a newcomer reads what the tour teaches: every part the pages open, by its title.
    @Test func theHelpNamesEveryPartOfTheCheckout() async throws {
        let titles = Set(try PageCatalog.load().pages.compactMap(\.part?.title))
        #expect(titles.count == 2)
        for title in titles {
            #expect(Self.help.contains(title), "tour --help does not name the part \(title)")
        }
    }

    /// The arguments that start `command` with whatever it needs before an option: a page, for those that take one.
    static func start(_ command: CommandName) -> [String] {
        command == .tutorial ? [] : [command.rawValue] + (command.takesPage ? ["3"] : [])
    }

    @Test("Every command's --help and -h parse to its own usage, wherever they stand", arguments: CommandName.allCases)
    func everyCommandHasItsHelp(command: CommandName) throws {
        let expected: TourCommand = command == .tutorial ? .help : .commandHelp(command)
        for help in ["--help", "-h"] {
            #expect(try TourCommand.parse(Self.start(command) + [help]) == expected, "\(help)")
        }
        #expect(try TourCommand.parse((command == .tutorial ? ["--speed", "2"] : [command.rawValue]) + ["--help"]) == expected)
    }

    @Test("A command's usage lists exactly the options the table gives it, and no other", arguments: CommandName.allCases)
    func eachUsageListsItsOwnOptions(command: CommandName) throws {
        let usage = TourCommand.usage(of: command, pageCount: nil)
        for option in CommandOption.all where command != .tutorial {
            let listed = usage.contains("\n  \(option.synopsis) ")
            #expect(listed == option.commands.contains(command), "\(option.synopsis) \(listed ? "listed" : "not listed") in tour \(command.rawValue) --help")
        }
        for form in command.forms { #expect(usage.contains("  \(form.synopsis) "), "\(form.synopsis)") }
    }

    @Test("Every option in the table is in the top-level usage, with the commands that take it")
    func theTopLevelUsageListsEveryOption() throws {
        let usage = TourCommand.usage(pageCount: nil)
        for option in CommandOption.all {
            let row = try #require(usage.components(separatedBy: "\n  \(option.synopsis) ").dropFirst().first, "\(option.synopsis)")
            let takers = option.commands.map { $0 == .tutorial ? "tour" : $0.rawValue }.joined(separator: ", ")
            #expect(Self.words(row).hasPrefix(Self.words(option.help) + " [\(takers)]"), "\(option.synopsis)")
        }
        // The presenter's own: once left out of the help by hand.
        for name in ["--record", "--seed", "--speed"] {
            let option = try #require(CommandOption.all.first { $0.name == name })
            #expect(option.commands.contains(.present))
        }
    }

    @Test("An unknown option is refused with the options the command takes, from the table", arguments: CommandName.allCases)
    func anUnknownOptionNamesWhatTheCommandTakes(command: CommandName) throws {
        let arguments = command == .tutorial ? ["--speed", "2", "--bogus"] : Self.start(command) + ["--bogus"]
        let error = try #require(throws: TourCommand.UsageError.self) { try TourCommand.parse(arguments) }
        #expect(error.description.hasPrefix("unknown option '--bogus' for \(command.spoken) ("), "\(error)")
        let taken = CommandOption.taken(by: command)
        for option in taken { #expect(error.description.contains(option.synopsis), "\(option.synopsis)") }
        let others = CommandOption.all.filter { option in !taken.contains { $0.name == option.name } }
        for option in others { #expect(!error.description.contains("\(option.synopsis),") && !error.description.contains("\(option.synopsis);")) }
    }

    @Test("The page range comes from the catalog's count; without a catalog the help still says what a page is")
    func thePageRangeComesFromTheCatalog() throws {
        #expect(TourCommand.usage(pageCount: 14).contains("<page> is a page's number in tour list (1-14), or a name"))
        #expect(TourCommand.usage(of: .run, pageCount: 9).contains("tour list (1-9), or a name"))
        let unread = TourCommand.usage(pageCount: nil)
        #expect(unread.contains("<page> is a page's number in tour list, or a name"))
        #expect(!unread.contains("(1-"))
    }
}
