import Foundation
import TourCore

/// Four small pages in two parts, in a scratch folder of their own (`ScratchSpace`), removed when this goes: page 1 opens part one,
/// page 3 part two, and pages 2 and 4 open none.
public final class PartedCatalog {
    public let root: URL
    public let catalog: PageCatalog

    public static let pages: [(folder: String, text: String)] = [
        ("01-Operation", "/*:\n # Operation\n\n Part one: Operations and Dispatch\n\n One unit of work. More.\n */\n"),
        ("02-Queue", "//: # Queue\n//: Runs operations.\n"),
        ("03-Tasks", "/*:\n # Tasks\n\n Part two: Swift Concurrency\n\n Suspend, do not block.\n */\n"),
        ("04-TaskGroups", "//: # Task groups\n//: Families of tasks.\n"),
    ]

    /// `pages` written as `Lessons/<folder>/main.swift` and loaded as a catalog.
    public init(_ pages: [(folder: String, text: String)] = PartedCatalog.pages) throws {
        root = ScratchSpace.folder.appendingPathComponent("tour-parts-\(UUID().uuidString)")
        for (folder, text) in pages {
            let pageFolder = root.appendingPathComponent("Lessons/\(folder)")
            try FileManager.default.createDirectory(at: pageFolder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: pageFolder.appendingPathComponent("main.swift"))
        }
        catalog = try PageCatalog.load(root: root)
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}
