import Foundation

/// Puts a page back to the text the tour shipped with, on request, wherever it was edited; keeps the learner's
/// version that each reset replaces, so the reset can be undone.
///
/// The shipped text is git's: in a git checkout whose HEAD has the page, the page's files as HEAD has them
/// (`GitHead`). So an edit made in any editor, with tour closed, is undone as one made through tour is, and a page
/// updated by `git pull` goes back to its new text, not to a copy taken before the pull. Where there is no git, or HEAD
/// does not have the page (a downloaded zip, a page of the learner's own), it is the copy of the page kept in
/// `.tour/originals/<folder>/` before its first edit through tour. A learner who committed an edit has made it HEAD's
/// text, and gets it back: git keeps the shipped text in the commits before it.
///
/// The replaced versions live in `.tour/before-reset/<folder>/<n>/` (the last `keptVersionLimit` per page), each
/// with a `PageFileManifest`, as the kept originals do.
///
/// Reset and undo check everything before they change anything: the manifest, each kept file against its hash,
/// and that every `.swift` entry in the page's folder is a regular file. They write only the files the manifest
/// names, inside the page's folder, and remove only `.swift` files there, after keeping them.
public struct OriginalPages: Sendable {
    public let packageRoot: URL

    /// How many versions replaced by a reset are kept per page; the oldest goes when a reset keeps one more.
    public static let keptVersionLimit = 5

    /// Why a page could not be kept, reset or undone; the description says what to do, and that nothing changed.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// What `reset` did to one page.
    public enum ResetResult: Equatable, Sendable {
        /// Files rewritten to their original text, and helper files added since then that were removed; the
        /// learner's version was kept first, and `undoReset` puts it back.
        case restored(rewritten: [String], removed: [String])
        /// Every file already had its original text.
        case unchanged
        /// There is no original to put back: git's HEAD does not have the page (or there is no git), and no copy was
        /// kept, as the page was never edited through the tour.
        case noOriginal
    }

    /// What `undoReset` did to one page.
    public enum UndoResult: Equatable, Sendable {
        /// The version the last reset replaced is back: these files were rewritten, these removed.
        case restored(rewritten: [String], removed: [String])
        /// No reset of the page is kept to undo.
        case nothingToUndo
    }

    public init(packageRoot: URL) {
        self.packageRoot = packageRoot
    }

    public func originalsFolder(for page: Page) -> URL {
        packageRoot.appendingPathComponent(".tour/originals").appendingPathComponent(page.folder)
    }

    /// `.tour/before-reset/<folder>`: one numbered folder per version a reset replaced, the newest highest.
    public func keptVersionsFolder(for page: Page) -> URL {
        packageRoot.appendingPathComponent(".tour/before-reset").appendingPathComponent(page.folder)
    }

    private func pageFolder(_ page: Page) -> URL { page.source.deletingLastPathComponent() }
    private static let manifestName = "manifest.txt"

    /// True once the original of `page` has been kept.
    public func hasOriginal(of page: Page) -> Bool {
        PathKind.at(originalsFolder(for: page).path) != .missing
    }

    /// Copies every `.swift` file of the page, unless a copy was kept already; call before the first edit
    /// (before opening the editor, and when `tour watch` starts).
    public func keepOriginal(of page: Page) throws(Problem) {
        guard !hasOriginal(of: page) else { return }
        let files = try currentFiles(of: page, purpose: "keep its original")
        // A copy without the page's main file could never be restored; the first edit must not start from one.
        guard files.contains(where: { $0.name == page.source.lastPathComponent }) else {
            throw Problem(description: "\(relative(page.source)) is missing, so there is no original of page \(page.number) to keep")
        }
        try keepCopy(of: files, page: page, as: originalsFolder(for: page))
    }

    /// The number of resets of `page` that can be undone.
    public func keptVersionCount(of page: Page) -> Int {
        keptVersionNumbers(of: page).count
    }

    /// Puts the page's files back byte for byte, and removes `.swift` files added to the folder since; the version it
    /// replaces is kept first.
    public func reset(_ page: Page) throws(Problem) -> ResetResult {
        guard let original = try shippedCopy(of: page) else { return .noOriginal }
        let current = try currentFiles(of: page, purpose: "reset it")
        if Self.matches(current, original.manifest) { return .unchanged }
        try keepReplacedVersion(current, of: page)
        return try apply(original, over: current, page: page)
    }

    /// Puts back the version the last reset of `page` replaced. The text it replaces in turn is kept as the newest
    /// version unless it is the original, so undoing twice returns to it: nothing the learner wrote is lost.
    public func undoReset(_ page: Page) throws(Problem) -> UndoResult {
        guard let newest = keptVersionNumbers(of: page).last else { return .nothingToUndo }
        let folder = keptVersionsFolder(for: page).appendingPathComponent(String(newest))
        let recovery = "Nothing was changed. The versions reset replaced are in \(relative(keptVersionsFolder(for: page))), "
            + "newest last; remove \(relative(folder)) to undo the reset before it instead."
        let version = try loadCopy(folder, of: page, recovery: recovery)
        let current = try currentFiles(of: page, purpose: "undo its reset")
        let original = try? shippedCopy(of: page)
        let currentIsOriginal = original.map { Self.matches(current, $0.manifest) } ?? false
        if !Self.matches(current, version.manifest) && !currentIsOriginal {
            try keepReplacedVersion(current, of: page)
        }
        let (rewritten, removed) = try apply(version, over: current, page: page).changes
        do {
            try FileManager.default.removeItem(at: folder)
        } catch {
            throw Problem(description: "put back the version the last reset replaced, but could not remove its copy "
                          + "\(relative(folder)) (\(FileProblem(error, action: "remove", path: folder.path).reason)); "
                          + "remove it by hand, or undo will put it back again")
        }
        return .restored(rewritten: rewritten, removed: removed)
    }

    // MARK: - Copies of a page's files

    /// A page's `.swift` files as they are now, by name.
    private typealias Files = [(name: String, data: Data)]

    /// A kept copy, checked: its manifest and the bytes of each file it lists.
    private struct Copy {
        let manifest: PageFileManifest
        let contents: [String: Data]
    }

    /// Every `.swift` file in the page's folder; refuses if one is not a regular file, since reset would replace it.
    private func currentFiles(of page: Page, purpose: String) throws(Problem) -> Files {
        let folder = pageFolder(page)
        let refusal = "Nothing was changed."
        switch PathKind.at(folder.path) {
        case .missing: return []
        case .directory: break
        case let kind:
            throw Problem(description: "\(relative(folder)) is \(kind), not the page's folder, so tour will not \(purpose). "
                          + "\(refusal) Put the page's folder back there, for example with git checkout -- \(relative(folder)).")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        } catch {
            throw Problem(description: "\(words(FileProblem(error, action: "list", path: folder.path))), so tour will not \(purpose). \(refusal)")
        }
        var files: Files = []
        for name in names {
            let file = folder.appendingPathComponent(name)
            switch PathKind.at(file.path) {
            case .regularFile: break
            case .missing: continue
            case let kind:
                throw Problem(description: "\(relative(file)) is \(kind), not a regular file, so tour will not \(purpose): "
                              + "it writes only regular files inside the page's folder. \(refusal) "
                              + "Replace it with a regular file, or move it out of the folder, and try again.")
            }
            do {
                files.append((name, try AtomicFile.readRegularFile(file.path)))
            } catch {
                throw Problem(description: "\(words(error)), so tour will not \(purpose). \(refusal)")
            }
        }
        return files
    }

    /// The text the page shipped with (see the type's comment): HEAD's files when git has the page's main file, else
    /// the kept copy, checked; nil when there is neither.
    private func shippedCopy(of page: Page) throws(Problem) -> Copy? {
        if let files = GitHead(packageRoot: packageRoot).swiftFiles(in: relative(pageFolder(page))),
           files.contains(where: { $0.name == page.source.lastPathComponent }) {
            let entries = files.map { PageFileManifest.Entry(hash: contentHash($0.data), size: $0.data.count, name: $0.name) }
            return Copy(manifest: PageFileManifest(folder: page.folder, entries: entries),
                        contents: Dictionary(files.map { ($0.name, $0.data) }, uniquingKeysWith: { first, _ in first }))
        }
        guard hasOriginal(of: page) else { return nil }
        return try loadCopy(originalsFolder(for: page), of: page, recovery: originalRecovery(page))
    }

    /// Reads and checks the copy in `folder`; any problem is refused with `recovery`, which says how to get out of it.
    private func loadCopy(_ folder: URL, of page: Page, recovery: String) throws(Problem) -> Copy {
        let manifestFile = folder.appendingPathComponent(Self.manifestName)
        func refuse(_ what: String) -> Problem {
            Problem(description: "\(what). \(recovery)")
        }
        guard PathKind.at(folder.path) == .directory else { throw refuse("\(relative(folder)) is \(PathKind.at(folder.path)), not a folder") }
        guard PathKind.at(manifestFile.path) == .regularFile else {
            throw refuse("\(relative(manifestFile)) is \(PathKind.at(manifestFile.path)), not a regular file")
        }
        let manifest: PageFileManifest
        do {
            let data = try AtomicFile.readRegularFile(manifestFile.path)
            manifest = try PageFileManifest.parse(data, folder: page.folder, mainFile: page.source.lastPathComponent)
        } catch let problem as PageFileManifest.Problem {
            throw refuse("\(relative(manifestFile)) cannot be trusted: \(problem)")
        } catch let problem as FileProblem {
            throw refuse(words(problem))
        } catch {
            throw refuse("\(relative(manifestFile)) cannot be read: \(error)")
        }
        var contents: [String: Data] = [:]
        for entry in manifest.entries {
            let file = folder.appendingPathComponent(entry.name)
            let kind = PathKind.at(file.path)
            guard kind == .regularFile else { throw refuse("the kept copy \(relative(file)) is \(kind), not a regular file") }
            guard let data = try? AtomicFile.readRegularFile(file.path), data.count == entry.size, contentHash(data) == entry.hash else {
                throw refuse("the kept copy \(relative(file)) is damaged: it does not match its manifest")
            }
            contents[entry.name] = data
        }
        return Copy(manifest: manifest, contents: contents)
    }

    /// Whether the files on disk are exactly those of the manifest, byte for byte.
    private static func matches(_ files: Files, _ manifest: PageFileManifest) -> Bool {
        files.count == manifest.entries.count && zip(files, manifest.entries.sorted { $0.name < $1.name }).allSatisfy { file, entry in
            file.name == entry.name && file.data.count == entry.size && contentHash(file.data) == entry.hash
        }
    }

    /// Writes `files` and their manifest into `target`, through a partial folder renamed at the end, so an
    /// interrupted copy never passes for a complete one.
    private func keepCopy(of files: Files, page: Page, as target: URL) throws(Problem) {
        let manager = FileManager.default
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial")
        do {
            try? manager.removeItem(at: partial)
            try manager.createDirectory(at: partial, withIntermediateDirectories: true)
            var entries: [PageFileManifest.Entry] = []
            for file in files {
                try AtomicFile.write(file.data, to: partial.appendingPathComponent(file.name).path)
                entries.append(.init(hash: contentHash(file.data), size: file.data.count, name: file.name))
            }
            let manifest = PageFileManifest(folder: page.folder, entries: entries)
            try AtomicFile.write(Data(manifest.text.utf8), to: partial.appendingPathComponent(Self.manifestName).path)
            try manager.moveItem(at: partial, to: target)
        } catch {
            try? manager.removeItem(at: partial)
            let reason = (error as? FileProblem ?? FileProblem(error, action: "write", path: target.path)).reason
            throw Problem(description: "could not keep a copy of page \(page.number) (\(page.folder)) in \(relative(target)): \(reason)")
        }
    }

    /// Keeps the learner's version before it is replaced, and lets the oldest kept versions go past the limit.
    private func keepReplacedVersion(_ files: Files, of page: Page) throws(Problem) {
        let numbers = keptVersionNumbers(of: page)
        let target = keptVersionsFolder(for: page).appendingPathComponent(String((numbers.last ?? 0) + 1))
        do {
            try keepCopy(of: files, page: page, as: target)
        } catch {
            throw Problem(description: "\(error.description), so the reset would not be undoable. Nothing was changed; "
                          + "free some space or make .tour writable, and try again.")
        }
        for old in numbers.dropLast(Self.keptVersionLimit - 1) {
            try? FileManager.default.removeItem(at: keptVersionsFolder(for: page).appendingPathComponent(String(old)))
        }
    }

    /// The numbers of the kept versions of `page`, oldest first.
    private func keptVersionNumbers(of page: Page) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: keptVersionsFolder(for: page).path)) ?? []
        return names.compactMap { name in Int(name).flatMap { String($0) == name && $0 > 0 ? $0 : nil } }.sorted()
    }

    /// Makes the page's folder hold exactly the files of `copy`: writes those that differ, removes other `.swift` files.
    private func apply(_ copy: Copy, over current: Files, page: Page) throws(Problem) -> ResetResult {
        let folder = pageFolder(page)
        let manager = FileManager.default
        let undo = "Your version was kept first: \(page.undoResetCommand) puts it back."
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw Problem(description: "\(words(FileProblem(error, action: "create", path: folder.path))). Nothing was changed.")
        }
        let now = Dictionary(current.map { ($0.name, $0.data) }, uniquingKeysWith: { first, _ in first })
        var rewritten: [String] = []
        for entry in copy.manifest.entries {
            guard let data = copy.contents[entry.name], now[entry.name] != data else { continue }
            let path = folder.appendingPathComponent(entry.name).path
            do {
                try AtomicFile.write(data, to: path)
            } catch {
                throw Problem(description: "\(words(error)). \(undo)")
            }
            rewritten.append(entry.name)
        }
        let names = Set(copy.manifest.entries.map(\.name))
        let removed = current.map(\.name).filter { !names.contains($0) }
        for name in removed {
            let path = folder.appendingPathComponent(name).path
            guard unlink(path) == 0 || errno == ENOENT else {
                throw Problem(description: "\(words(FileProblem(action: "remove", path: path, code: errno))). \(undo)")
            }
        }
        return rewritten.isEmpty && removed.isEmpty ? .unchanged : .restored(rewritten: rewritten, removed: removed)
    }

    private func originalRecovery(_ page: Page) -> String {
        "Nothing was changed. To start afresh, remove \(relative(originalsFolder(for: page))): "
            + "the page's text as it is then becomes its original at the next edit."
    }

    /// The problem with its path from the package root.
    private func words(_ problem: FileProblem) -> String {
        "could not \(problem.action) \(relative(URL(fileURLWithPath: problem.path))): \(problem.reason)"
    }

    /// `path` from the package root, as a learner would type it there.
    private func relative(_ url: URL) -> String {
        let root = packageRoot.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}

private extension OriginalPages.ResetResult {
    var changes: (rewritten: [String], removed: [String]) {
        if case .restored(let rewritten, let removed) = self { return (rewritten, removed) }
        return ([], [])
    }
}
