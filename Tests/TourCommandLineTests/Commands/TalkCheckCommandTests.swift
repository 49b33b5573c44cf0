import Foundation
import Testing
import TourCommandLine
import TourCore
import TourTestSupport

/// `tour present --check`, the speaker's pre-flight, run in-process against a scratch package (the rest of its tests
/// run the real `tour`, in `EndToEndTests/TalkCheckTests`).
@Suite("tour present --check, in-process", .bodiesBelowTheRunner)
struct TalkCheckCommandTests {
    @Test("A page of the talk that does not compile is named, number and name, with its first errors on their lines; its run is left out and the check fails")
    func brokenPageIsNamed() async throws {
        let scratch = try await ScratchPackage.make(withTour: false)
        defer { scratch.remove() }
        let catalog = try scratch.catalog()
        let page = try #require(catalog.page(named: "gcd"))
        let text = try String(contentsOf: page.source, encoding: .utf8)
        let broken = text.replacingOccurrences(of: "print(\"main queue:   ", with: "prnt(\"main queue:   ")
            .replacingOccurrences(of: "let worker = DispatchQueue(label:", with: "let worker = DispatchQueue(labl:")
        #expect(broken != text)
        try Data(broken.utf8).write(to: page.source)
        let lines = broken.split(separator: "\n", omittingEmptySubsequences: false)
        let printLine = try #require(lines.firstIndex { $0.hasPrefix("prnt(\"main queue:") }) + 1
        // Page 1 is visited, and built, but not run; page 6, broken, has the talk's one run.
        let talk = scratch.root.appendingPathComponent("broken-page.talk")
        try Data("page operation\nreveal\npage gcd\nrun\n".utf8).write(to: talk)

        let (status, printed) = await PageRunSlots.shared.withSlot(.followUp, label: "talk check: a page that does not compile") {
            await awaitBlocking("talk-check") {
                var printed: [String] = []
                let status = TalkCheckCommand.execute(path: talk.path, catalog: catalog, productsDirectory: scratch.productsDirectory,
                                                      emit: { printed.append($0) }, complain: { printed.append("complained: \($0)") })
                return (status.rawValue, printed)
            }
        }
        #expect(status == 1, "a page that does not compile fails the pre-flight as a failed run does: \(printed)")
        let named = try #require(printed.firstIndex { $0.hasPrefix("page 6 (gcd) does not compile (") }, "\(printed)")
        #expect(printed[named + 1] == "  Lessons/06-GCD/main.swift:\(printLine): error: cannot find 'prnt' in scope", "\(printed)")
        #expect(printed[named + 2] == "      prnt(\"main queue:   \\(DispatchQueue.main.label)\")", "\(printed)")
        #expect(printed.contains { $0.hasPrefix("line 4: run 1 of 1, page 6 (gcd)") && $0.hasSuffix("not run, as the page does not compile") },
                "\(printed)")
        #expect(!printed.contains { $0.contains("page 1 (operation)") }, "page 1 compiles: \(printed)")
        #expect(printed.last == "1 page of the talk does not compile (named above): fix it, or put it back with tour reset, before the talk.")
    }
}
