import Foundation
import Testing
import TourCore
import TourTestSupport

/// `tour present --check`, the speaker's pre-flight, as a speaker runs it before a talk.
@Suite("tour present --check", .bodiesBelowTheRunner)
struct TalkCheckTests {
    /// The shipped talk, copied into a scratch folder with `change` made to its text: the checkout is never edited.
    static func scratchCopy(_ change: (String) -> String) throws -> URL {
        let shipped = try String(contentsOf: PageCatalog.defaultRoot.appendingPathComponent("assets/talks/part-one.talk"), encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("talk-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("broken.talk")
        try change(shipped).write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("A broken copy of the shipped talk is refused before anything runs, each wrong line named with what would be right")
    func brokenScriptNamesItsLine() async throws {
        var brokenLines: [Int] = []
        let file = try Self.scratchCopy { text in
            var lines = text.components(separatedBy: "\n")
            let knob = try! #require(lines.firstIndex(of: "set maxConcurrentOperationCount 1"))
            lines[knob] = "set maxConcurrentOperationCount"
            let page = try! #require(lines.firstIndex(of: "page gcd"))
            lines[page] = "page dispatch"
            brokenLines = [knob + 1, page + 1]
            return lines.joined(separator: "\n")
        }
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let outcome = try await PlainModeTests.tour(["present", "--check", file.path])
        #expect(outcome.status == 2)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(file.path): line \(brokenLines[0]): `set` needs a knob and a value, for example `set maxConcurrentOperationCount 3`, but got 'maxConcurrentOperationCount'")
        #expect(lines.count == 1, "a line that does not parse is reported before the pages are checked: \(lines)")
        #expect(!outcome.output.contains("ended as expected"), "nothing ran")

        // With that line mended, the next problem is found against the pages.
        let mended = try Self.scratchCopy { text in text.replacingOccurrences(of: "page gcd", with: "page dispatch") }
        defer { try? FileManager.default.removeItem(at: mended.deletingLastPathComponent()) }
        let second = try await PlainModeTests.tour(["present", "--check", mended.path])
        #expect(second.status == 2)
        #expect(second.output.hasPrefix("\(mended.path): line \(brokenLines[1]): there is no page 'dispatch'; the pages are "))
    }

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
                let status = TalkCheckCommand.execute(path: talk.path, catalog: catalog, productsDirectory: scratch.productsDirectory) {
                    printed.append($0)
                }
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

    @Test("A script that is not there is named, with the shipped one to try")
    func missingScript() async throws {
        let outcome = try await PlainModeTests.tour(["present", "--check", "/nonexistent/talk.talk"])
        #expect(outcome.status == 2)
        #expect(outcome.output.contains("there is no script file '/nonexistent/talk.talk'; the shipped ones are assets/talks/part-one.talk and assets/talks/part-two.talk"))
        // Presenting it is refused in the same words, before the screen changes, never in Foundation's.
        let presented = try await PlainModeTests.tour(["present", "/nonexistent/talk.talk"])
        #expect(presented.status == 2)
        #expect(presented.errors == "tour: there is no script file '/nonexistent/talk.talk'; the shipped ones are assets/talks/part-one.talk and assets/talks/part-two.talk\n",
                "\(presented.errors)")
    }
}
