import Foundation
import Testing
@testable import TourCommandLine
@testable import TourCore

/// What `tour --help` and each command's usage say, and the options they parse.
@Suite("Usage and options", .bodiesBelowTheRunner)
struct UsageTests {
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
        #expect(TourCommand.usage.contains("--theme dark (the default), light"))
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
        for talk in ShippedTalks.all { #expect(TourCommand.usage.contains(talk), "tour --help does not name \(talk)") }
    }

    /// `tour --help` is where a newcomer reads what the tour teaches: every part the pages open, by its title.
    @Test func theHelpNamesEveryPartOfTheCheckout() async throws {
        let titles = Set(try PageCatalog.load().pages.compactMap(\.part?.title))
        #expect(titles.count == 2)
        for title in titles {
            #expect(TourCommand.usage.contains(title), "tour --help does not name the part \(title)")
        }
    }
}
