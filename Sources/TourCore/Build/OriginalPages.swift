import Foundation

/// Keeps the original text of each page, taken before its first edit, and puts it back on request.
///
/// The copies live in `.tour/originals/<folder>/` under the package root, with a manifest of each file's
/// size and hash, so reset never depends on git (a learner may have downloaded a zip, or committed their edits).
public struct OriginalPages: Sendable {
    public let packageRoot: URL

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// What `reset` did to one page.
    public enum ResetResult: Equatable, Sendable {
        /// Files rewritten to their original text, and helper files added since then that were removed.
        case restored(rewritten: [String], removed: [String])
        /// Every file already had its original text.
        case unchanged
        /// No original was ever kept: the page was never edited through the tour.
        case noOriginal
    }

    public init(packageRoot: URL) {
        self.packageRoot = packageRoot
    }

    public func originalsFolder(for page: Page) -> URL {
        packageRoot.appendingPathComponent(".tour/originals").appendingPathComponent(page.folder)
    }

    private func pageFolder(_ page: Page) -> URL { page.source.deletingLastPathComponent() }
    private var manifestName: String { "manifest.txt" }

    /// True once the original of `page` has been kept.
    public func hasOriginal(of page: Page) -> Bool {
        FileManager.default.fileExists(atPath: originalsFolder(for: page).appendingPathComponent(manifestName).path)
    }

    /// Copies every `.swift` file of the page, unless a copy was kept already; call before the first edit
    /// (before opening the editor, and when `tour watch` starts).
    public func keepOriginal(of page: Page) throws {
        guard !hasOriginal(of: page) else { return }
        let source = pageFolder(page)
        let target = originalsFolder(for: page)
        let manager = FileManager.default
        // Written beside the final folder and renamed, so an interrupted copy never passes for a complete one.
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(page.folder).partial")
        try? manager.removeItem(at: partial)
        do {
            try manager.createDirectory(at: partial, withIntermediateDirectories: true)
            var manifest = ""
            for name in try swiftFiles(in: source) {
                let data = try Data(contentsOf: source.appendingPathComponent(name))
                try data.write(to: partial.appendingPathComponent(name))
                manifest += "\(String(contentHash(data), radix: 16)) \(data.count) \(name)\n"
            }
            try manifest.write(to: partial.appendingPathComponent(manifestName), atomically: true, encoding: .utf8)
            try? manager.removeItem(at: target)
            try manager.moveItem(at: partial, to: target)
        } catch {
            try? manager.removeItem(at: partial)
            throw Problem(description: "could not keep the original of page \(page.number) (\(page.folder)) in \(target.path): \(error.localizedDescription)")
        }
    }

    /// Puts the page's files back byte for byte, and removes `.swift` files added to the folder since.
    public func reset(_ page: Page) throws -> ResetResult {
        guard hasOriginal(of: page) else { return .noOriginal }
        let kept = originalsFolder(for: page)
        let folder = pageFolder(page)
        let manager = FileManager.default
        let entries = try manifest(in: kept)
        for entry in entries {
            let data = try Data(contentsOf: kept.appendingPathComponent(entry.name))
            guard contentHash(data) == entry.hash, data.count == entry.size else {
                throw Problem(description: "the kept original of \(page.folder)/\(entry.name) in \(kept.path) is damaged; restore it with git or a fresh copy")
            }
        }
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        var rewritten: [String] = []
        for entry in entries {
            let path = folder.appendingPathComponent(entry.name)
            if let current = manager.contents(atPath: path.path), contentHash(current) == entry.hash, current.count == entry.size { continue }
            // Atomic: an editor or the watcher never sees a half-written page.
            try Data(contentsOf: kept.appendingPathComponent(entry.name)).write(to: path, options: .atomic)
            rewritten.append(entry.name)
        }
        let originalNames = Set(entries.map(\.name))
        let added = try swiftFiles(in: folder).filter { !originalNames.contains($0) }
        for name in added { try manager.removeItem(at: folder.appendingPathComponent(name)) }
        return rewritten.isEmpty && added.isEmpty ? .unchanged : .restored(rewritten: rewritten, removed: added)
    }

    private func swiftFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
    }

    private func manifest(in folder: URL) throws -> [(hash: UInt64, size: Int, name: String)] {
        let text = try String(contentsOf: folder.appendingPathComponent(manifestName), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, let hash = UInt64(parts[0], radix: 16), let size = Int(parts[1]) else {
                throw Problem(description: "the manifest in \(folder.path) is damaged at '\(line)'")
            }
            return (hash, size, String(parts[2]))
        }
    }
}
