@preconcurrency import Glibc
import CLinuxSystem
import Foundation
import Synchronization
import TourCore

/// A copy of this package in a scratch folder (`ScratchSpace`, in memory where it can be), with a build folder of its
/// own that starts from this build's products: a test can edit a page there, rebuild it, and run the copy's `tour` or
/// page programs, and the checkout (its pages, its `.tour` folder and its build) is never touched, even by a test
/// killed half-way.
///
/// The sources are copied, and so is the build folder (about 260 MB: what building and running pages needs, without
/// the test bundle, the test targets' objects and the index). Copied, not hard-linked: `swift build` run in a copy
/// whose build folder was hard-linked wrote `build.db`, `debug.yaml`, `description.json` and the compiler's `.dia`
/// files in place, through the links, into the checkout's build folder. The build's text files that name the
/// checkout (SwiftPM's plan `debug.yaml`, output file maps, link and source lists) are rewritten to name the copy, so
/// the commands SwiftPM planned compile the copy's files into the copy's build folder, and a one-page rebuild
/// (`PageBuilder.build(product:sources:)`) takes the same commands as in the checkout.
///
/// The compiler's module cache (`ModuleCache`, prebuilt Clang modules such as Glibc's) stays shared with the checkout's
/// build: a precompiled module records the folder it was built in and is refused anywhere else. It is a cache, read
/// and written under the compiler's own locks, as any two builds on one machine may share one.
///
/// `swift build` itself in the copy is not incremental: SwiftPM plans the copy anew and starts again from its first
/// module. Anything that falls back to it, such as adding a helper file to a page, rebuilds the package.
public struct ScratchPackage: Sendable {
    /// The copy's root folder, holding `Package.swift`, `Sources`, `Lessons`, `Tests` and `.build`.
    public let root: URL
    /// The copy's products folder, `<root>/.build/<triple>/<configuration>`: `tour` and every page's program.
    public let productsDirectory: URL

    /// The copy's `tour`: it reads pages from the copy (pass `environment`) and runs programs from `productsDirectory`.
    /// Missing in a copy made `withTour: false`.
    public var tour: String { productsDirectory.appendingPathComponent("tour").path }

    /// What a `tour` process needs to take its pages from the copy.
    public var environment: [String: String] { ["TOUR_ROOT": root.path] }

    /// The copy's pages.
    public func catalog() throws -> PageCatalog {
        try PageCatalog.load(root: root)
    }

    /// The copy's program for `product`.
    public func executable(named product: String) -> String {
        productsDirectory.appendingPathComponent(product).path
    }

    /// A builder that rebuilds the copy's pages into the copy's products, as the copy's `tour` would.
    public func builder(timeout: Double = 120) -> PageBuilder {
        PageBuilder(packageRoot: root, productsDirectory: productsDirectory, timeout: timeout)
    }

    /// Deletes the copy.
    public func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Copies the package at `checkout`, whose products are in `products`, into a new folder in `ScratchSpace`.
    ///
    /// The copy takes a second or two of file work, done off the caller's thread, and one copy at a time, in the
    /// order they were asked for: the suite's first seconds asked for eight at once, and their eight threads left
    /// Swift Testing's two a quarter of the cores, so that no test could report until they were done. One at a time,
    /// the first copy is also ready sooner; each waits in a task, so the first starts once the pool comes back to it.
    ///
    /// `withTour: false` leaves out the copy's `tour` (86 MB of the 260, in a debug build), for a test that only
    /// rebuilds and runs pages.
    public static func make(of checkout: URL = PageCatalog.defaultRoot, products: URL = BuildProducts.directory,
                            withTour: Bool = true) async throws -> ScratchPackage {
        let copying = lastCopy.withLock { last in
            let previous = last
            let copying = Task {
                await previous?.value
                return await awaitBlocking("scratch-package") {
                    Result { try copy(checkout: checkout, products: products, withTour: withTour) }
                }
            }
            last = Task { _ = await copying.value }
            return copying
        }
        return try await copying.value.get()
    }

    /// The copy asked for last, which the next one waits for.
    private static let lastCopy = Mutex<Task<Void, Never>?>(nil)

    /// The top-level entries of a checkout that are not copied: its git data, its build, and the learner's state.
    static let notCopied: Set<String> = [".git", ".build", ".swiftpm", ".tour"]

    /// Text files of the build folder that may name the checkout and are rewritten to name the copy.
    static func namesPaths(_ name: String) -> Bool {
        [".yaml", ".json", ".LinkFileList", ".resp", ".txt"].contains { name.hasSuffix($0) } || name == "sources"
    }

    static func copy(checkout: URL, products: URL, withTour: Bool) throws -> ScratchPackage {
        let files = FileManager.default
        let checkout = checkout.standardizedFileURL.resolvingSymlinksInPath()
        let products = products.standardizedFileURL.resolvingSymlinksInPath()
        // `<scratch>/<triple>/<configuration>`, as SwiftPM lays out a build folder.
        let configuration = products.lastPathComponent
        let triple = products.deletingLastPathComponent().lastPathComponent
        let buildFolder = products.deletingLastPathComponent().deletingLastPathComponent()
        guard files.fileExists(atPath: buildFolder.appendingPathComponent("\(configuration).yaml").path) else {
            throw Problem(description: "\(products.path) is not in a SwiftPM build folder (no \(configuration).yaml two levels up)")
        }
        let root = ScratchSpace.folder.resolvingSymlinksInPath()
            .appendingPathComponent("tour-scratch-\(getpid())-\(UUID().uuidString.prefix(8))")
        try files.createDirectory(at: root, withIntermediateDirectories: true)
        do {
            for entry in try files.contentsOfDirectory(atPath: checkout.path) where !notCopied.contains(entry) {
                try files.copyItem(at: checkout.appendingPathComponent(entry), to: root.appendingPathComponent(entry))
                keepModificationTimes(of: checkout.appendingPathComponent(entry), on: root.appendingPathComponent(entry))
            }
            let copiedBuild = root.appendingPathComponent(".build")
            let copiedProducts = copiedBuild.appendingPathComponent(triple).appendingPathComponent(configuration)
            try files.createDirectory(at: copiedProducts, withIntermediateDirectories: true)
            let rewrite = PathRewrite(from: [checkout.path, buildFolder.path], to: [root.path, copiedBuild.path],
                                      keeping: products.appendingPathComponent("ModuleCache").path)
            // The plan, beside the triple's folder; SwiftPM's own database and caches stay behind.
            try rewrite.copyText(buildFolder.appendingPathComponent("\(configuration).yaml"),
                                 to: copiedBuild.appendingPathComponent("\(configuration).yaml"))
            try files.createSymbolicLink(atPath: copiedBuild.appendingPathComponent(configuration).path,
                                         withDestinationPath: "\(triple)/\(configuration)")
            try copyTree(products, into: copiedProducts, rewrite: rewrite, skipping: { leftOut($0) || (!withTour && $0 == "tour") })
        } catch {
            try? files.removeItem(at: root)
            throw error
        }
        let copiedProducts = root.appendingPathComponent(".build").appendingPathComponent(triple).appendingPathComponent(configuration)
        return ScratchPackage(root: root, productsDirectory: copiedProducts)
    }

    /// Gives every copied file its original's modification time, as `cp -p` does (`copyItem` gives it the time of the
    /// copy): builds judge freshness by these times, and a library's sources newer than its linked objects would make a
    /// page's rebuild rebuild the library (`PageBuilder.directStages`).
    private static func keepModificationTimes(of original: URL, on copy: URL) {
        var paths = [""]
        if let walk = FileManager.default.enumerator(atPath: original.path) {
            while let relative = walk.nextObject() as? String { paths.append(relative) }
        }
        for relative in paths {
            let from = relative.isEmpty ? original.path : original.path + "/" + relative
            let to = relative.isEmpty ? copy.path : copy.path + "/" + relative
            var info = stat()
            guard lstat(from, &info) == 0 else { continue }
            var times = [info.st_atim, info.st_mtim]
            _ = utimensat(AT_FDCWD, to, &times, AT_SYMLINK_NOFOLLOW)
        }
    }

    /// Whether a products folder's entry is left out of the copy: the test bundle and the test targets' objects
    /// (no page needs them), the index (the copy's compiles do not index, see `PathRewrite`) and the module cache
    /// (shared, see above).
    static func leftOut(_ entry: String) -> Bool {
        ["ModuleCache", "index"].contains(entry) || entry.hasSuffix(".xctest") || entry.hasSuffix("Tests.build")
    }

    /// Copies the folder `source` into the existing `target`, rewriting path-naming text.
    private static func copyTree(_ source: URL, into target: URL, rewrite: PathRewrite, skipping skipped: (String) -> Bool = { _ in false }) throws {
        let files = FileManager.default
        for entry in try files.contentsOfDirectory(atPath: source.path) where !skipped(entry) {
            let from = source.appendingPathComponent(entry)
            let to = target.appendingPathComponent(entry)
            var status = stat()
            guard lstat(from.path, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                try files.createDirectory(at: to, withIntermediateDirectories: false)
                try copyTree(from, into: to, rewrite: rewrite)
            case S_IFLNK:
                try files.createSymbolicLink(atPath: to.path, withDestinationPath: try files.destinationOfSymbolicLink(atPath: from.path))
            case S_IFREG:
                if namesPaths(entry) {
                    try rewrite.copyText(from, to: to)
                } else {
                    try copyFile(from, to: to, mode: status.st_mode & 0o7777)
                }
            default:
                continue
            }
        }
    }

    /// Copies one regular file in the kernel (`copy_file_range`), with its permissions.
    ///
    /// Foundation's `copyItem` sends a file 4 KB at a time; the build folder is about 160 MB, most of it programs.
    private static func copyFile(_ source: URL, to target: URL, mode: mode_t) throws {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Problem(description: "could not read \(source.path): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(target.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard output >= 0 else { throw Problem(description: "could not create \(target.path): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        // `copy_file_range` refuses to copy between two file systems (EXDEV), as from the checkout's disk into a scratch
        // folder in memory; `sendfile` copies in the kernel too, between any two.
        var acrossFileSystems = false
        while true {
            let copied = acrossFileSystems ? sendfile(output, input, nil, 1 << 30)
                : copy_file_range(input, nil, output, nil, 1 << 30, 0)
            if copied == 0 { return }
            if copied < 0 {
                if errno == EINTR { continue }
                if errno == EXDEV && !acrossFileSystems {
                    acrossFileSystems = true
                    continue
                }
                throw Problem(description: "could not copy \(source.path) to \(target.path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// A copy that could not be made.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }
}

/// Replaces the checkout's paths with the copy's in a text file as it is copied, except one path kept as it is.
/// Works on bytes with TourCore's `firstOffset` (`memmem`): Foundation's string replacement takes a quarter of a
/// second on a 300 KB plan, and this module is not optimised.
private struct PathRewrite {
    /// Longest first, so a path inside another is replaced whole.
    let pairs: [(from: [UInt8], to: [UInt8])]
    let kept: [UInt8]
    /// Stands for `kept` while the pairs are replaced; control characters no path in a build plan holds.
    private let placeholder = Array("\u{1}kept\u{1}".utf8)
    /// Planned compiles index as they build; into an empty store that means indexing the standard library and
    /// Foundation too, several times the compile itself. Nothing in the copy reads an index, so the option goes.
    private let indexOption = Array(#""-index-store-path",""#.utf8)
    private let nextArgument = Array(#"","#.utf8)

    init(from: [String], to: [String], keeping kept: String) {
        pairs = zip(from, to).sorted { $0.0.count > $1.0.count }.map { (from: Array($0.0.utf8), to: Array($0.1.utf8)) }
        self.kept = Array(kept.utf8)
    }

    func copyText(_ source: URL, to target: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: source))
        bytes = Self.replacing(kept, with: placeholder, in: bytes)
        for pair in pairs { bytes = Self.replacing(pair.from, with: pair.to, in: bytes) }
        bytes = Self.replacing(placeholder, with: kept, in: bytes)
        // `"-index-store-path","<folder>",` out of every argument list.
        while let option = Self.find(indexOption, in: bytes, from: 0),
              let valueEnd = Self.find(nextArgument, in: bytes, from: option + indexOption.count) {
            bytes.removeSubrange(option..<(valueEnd + nextArgument.count))
        }
        try ScratchSpace.write(bytes, to: target)
    }

    /// Where `needle` first occurs in `bytes` at or after `start`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBytes { haystack in needle.withUnsafeBytes { firstOffset(of: $0, in: haystack, from: start) } }
    }

    /// `bytes` with every `needle` replaced by `replacement`.
    static func replacing(_ needle: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard var found = find(needle, in: bytes, from: 0) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var copied = 0
        while true {
            result.append(contentsOf: bytes[copied..<found])
            result.append(contentsOf: replacement)
            copied = found + needle.count
            guard let next = find(needle, in: bytes, from: copied) else { break }
            found = next
        }
        result.append(contentsOf: bytes[copied...])
        return result
    }
}
