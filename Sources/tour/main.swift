@preconcurrency import Glibc
import Foundation
import TourCore
import TourTerminal

/// `tour`: a thin front over TourCore (plain mode) and TourTerminal (the full-screen tutorial).
setvbuf(stdout, nil, _IOLBF, 0)

func fail(_ message: String, status: PlainRun.Status = .usage) -> Never {
    FileHandle.standardError.write(Data("tour: \(message)\n".utf8))
    exit(status.rawValue)
}

let command: TourCommand
do {
    command = try TourCommand.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)")
}

/// The pages, found on disk: only the commands that show or run pages wait for them.
func loadCatalog() -> PageCatalog {
    do {
        return try PageCatalog.load()
    } catch {
        fail("\(error)", status: .couldNotStart)
    }
}

/// The page `options` names, once its knob settings are known to be valid; from then on no page outlives `tour`.
func checkedPage(_ options: TourCommand.RunOptions, catalog: PageCatalog) -> Page {
    do {
        let page = try PlainRun.validate(options, catalog: catalog)
        LiveProcessGroups.stopAllOnExit(beforeExit: { SharedTerminal.restore() })
        return page
    } catch {
        fail("\(error)")
    }
}

switch command {
case .help:
    print(TourCommand.usage)
case .version:
    print("tour \(TourVersion.current) (ConcurrencyTour, trace format v\(TourVersion.traceFormat))")
case .list:
    // One write for the whole list (stdout is line-buffered): a reader on a pipe wakes once, not once a line.
    let lines = loadCatalog().pages.map { page in
        "\(page.number)  \(page.slug.padding(toLength: 13, withPad: " ", startingAt: 0)) \(page.title): \(page.summary)\n"
    }
    FileHandle.standardOutput.write(Data(lines.joined().utf8))
case .run(let options):
    let catalog = loadCatalog()
    let page = checkedPage(options, catalog: catalog)
    let status = PlainRun.execute(options, page: page, catalog: catalog, style: .detect(forceBare: options.plain)) { line in
        print(line)
    }
    LiveProcessGroups.exitHost(status.rawValue)
case .watch(let options):
    let catalog = loadCatalog()
    let page = checkedPage(options, catalog: catalog)
    WatchCommand.execute(options, page: page, catalog: catalog, style: .detect(forceBare: options.plain)) { line in
        print(line)
    }
case .reset(let query):
    let (lines, status) = ResetCommand.execute(query, catalog: loadCatalog())
    if status == .usage { fail(lines.joined(separator: "\n")) }
    for line in lines { print(line) }
    exit(status.rawValue)
case .undoReset(let query):
    let (lines, status) = ResetCommand.undo(query, catalog: loadCatalog())
    if status == .usage { fail(lines.joined(separator: "\n")) }
    for line in lines { print(line) }
    exit(status.rawValue)
case .interactive(let speed):
    exit(InteractiveTour.run(catalog: loadCatalog(), speed: speed))
}
