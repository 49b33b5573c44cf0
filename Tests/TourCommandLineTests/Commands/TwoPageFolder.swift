import Foundation
import TourCore
import TourTestSupport

/// A package of two small pages in a scratch folder of its own (`ScratchSpace`, in memory where it can be), with a file of the learner's beside the pages and one
/// outside the package, for tests that must never touch the checkout. `tree` is everything under the folder, to show
/// that a refused reset changed nothing.
final class TwoPageFolder {
    /// The scratch folder: `package/` and `outside.swift` are in it.
    let folder: URL
    let root: URL
    let catalog: PageCatalog
    var operation: Page { catalog.pages[0] }
    var queue: Page { catalog.pages[1] }
    /// A file of the learner's outside the pages: `Package.swift` in the package root.
    var learnersFile: URL { root.appendingPathComponent("Package.swift") }
    /// A file outside the package altogether.
    var outside: URL { folder.appendingPathComponent("outside.swift") }

    init() throws {
        folder = ScratchSpace.folder.appendingPathComponent("tour-scratch-\(UUID().uuidString)")
        root = folder.appendingPathComponent("package")
        let manager = FileManager.default
        for (page, files) in [("01-Operation", ["main.swift": "//: # Operation\nprint(1)\n", "Helper.swift": "func helper() {}\n"]),
                              ("02-Queue", ["main.swift": "//: # Queue\nprint(2)\n"])] {
            let pageFolder = root.appendingPathComponent("Lessons/\(page)")
            try manager.createDirectory(at: pageFolder, withIntermediateDirectories: true)
            for (name, text) in files { try Data(text.utf8).write(to: pageFolder.appendingPathComponent(name)) }
        }
        catalog = try PageCatalog.load(root: root)
        try Data("// the learner's package manifest\n".utf8).write(to: learnersFile)
        try Data("// a file outside the package\n".utf8).write(to: outside)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func file(_ page: Page, _ name: String) -> URL {
        page.source.deletingLastPathComponent().appendingPathComponent(name)
    }

    func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    func text(_ url: URL) -> String? {
        FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every entry under the folder, by path from it: a file's bytes, "folder", or where a link points.
    func tree() -> [String: String] {
        var entries: [String: String] = [:]
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: folder.path) else { return [:] }
        for case let path as String in walker {
            let full = folder.appendingPathComponent(path).path
            switch PathKind.at(full) {
            case .regularFile: entries[path] = String(decoding: manager.contents(atPath: full) ?? Data(), as: UTF8.self)
            case .directory: entries[path] = "folder"
            case let kind: entries[path] = kind.description
            }
        }
        return entries
    }
}
