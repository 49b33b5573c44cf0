import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// The manifest of a kept copy: what it accepts is only ever a plain `.swift` name inside the page's folder.
@Suite("Page file manifest", .bodiesBelowTheRunner)
struct PageFileManifestTests {
    func parse(_ text: String) throws(PageFileManifest.Problem) -> PageFileManifest {
        try PageFileManifest.parse(Data(text.utf8), folder: "01-Operation", mainFile: "main.swift")
    }

    @Test func whatItWritesItReadsBack() throws {
        let manifest = PageFileManifest(folder: "01-Operation", entries: [
            .init(hash: 0xcbf2_9ce4_8422_2325, size: 0, name: "main.swift"),
            .init(hash: 1, size: 12, name: "My Helper.swift"),
        ])
        #expect(manifest.text == "tour page files v1 for 01-Operation\ncbf29ce484222325 0 main.swift\n1 12 My Helper.swift\n")
        #expect(try parse(manifest.text) == manifest)
    }

    @Test(arguments: [
        ("", PageFileManifest.Problem.empty),
        (" \n\n", .empty),
        ("tour page files v1 for 01-Operation\n1 1 main.swift\n1 1 ../main.swift\n",
         .unsafeName(line: 3, "../main.swift", why: "a path into another folder; reset writes only inside the page's folder")),
        ("tour page files v1 for 01-Operation\n1 1 /etc/x.swift\n",
         .unsafeName(line: 2, "/etc/x.swift", why: "an absolute path; reset writes only inside the page's folder")),
        ("tour page files v1 for 01-Operation\n1 1 ..\n", .unsafeName(line: 2, "..", why: "not a file name")),
        ("tour page files v1 for 01-Operation\n1 1 main.swift\n1 1 notes.txt\n",
         .unsafeName(line: 3, "notes.txt", why: "not a Swift file; a page's files are .swift files")),
        ("tour page files v1 for 01-Operation\r\n1 1 main.swift\r\n", .otherPage("01-Operation\r")),
        ("tour page files v1 for 02-Queue\n1 1 main.swift\n", .otherPage("02-Queue")),
        ("1 1 main.swift\n", .unknownFirstLine("1 1 main.swift")),
        ("tour page files v1 for 01-Operation\nzz 1 main.swift\n", .damagedLine(number: 2, "zz 1 main.swift")),
        ("tour page files v1 for 01-Operation\n1 -1 main.swift\n", .damagedLine(number: 2, "1 -1 main.swift")),
        ("tour page files v1 for 01-Operation\n1 1\n", .damagedLine(number: 2, "1 1")),
        ("tour page files v1 for 01-Operation\n1 1 main.swift\n2 2 main.swift\n", .listedTwice("main.swift")),
        ("tour page files v1 for 01-Operation\n1 1 Helper.swift\n", .withoutMainFile("main.swift")),
    ])
    func refused(_ text: String, _ problem: PageFileManifest.Problem) {
        #expect(throws: problem) { try parse(text) }
    }

    @Test func bytesThatAreNotTextAreRefused() {
        #expect(throws: PageFileManifest.Problem.notText) {
            try PageFileManifest.parse(Data([0x74, 0x00, 0x0A]), folder: "01-Operation", mainFile: "main.swift")
        }
        #expect(throws: PageFileManifest.Problem.notText) {
            try PageFileManifest.parse(Data([0xFF, 0xFE, 0x0A]), folder: "01-Operation", mainFile: "main.swift")
        }
    }

    @Test func aDamagedLineIsShownShortAndPrintable() {
        let problem = PageFileManifest.Problem.damagedLine(number: 2, String(repeating: "\u{1B}[2J", count: 100))
        #expect(!problem.description.contains("\u{1B}"))
        #expect(problem.description.count <= 160, "one line: the 80 characters EchoedInput shows, and the words around them")
        #expect(problem.description.contains("...' (400 characters)"))
    }
}
