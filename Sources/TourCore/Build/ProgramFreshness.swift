import Foundation

/// Whether a page's or an exercise's program can run as it is. `swift run tour` builds no page and no exercise: tour
/// builds each itself, when its program is missing or older than its source, so one that does not compile never keeps
/// the tutorial or another page from starting.
public enum ProgramFreshness {
    /// True when `program` is not there, or is not newer than one of the `.swift` files in `sourceFolder` (saved since
    /// it was built, in tour or in any editor). Only `stat` and `readdir`: `tour run` asks before its page can start.
    ///
    /// A file's time is the kernel's coarse clock, one tick of a few milliseconds (4 ms here: two files written one
    /// after the other read the same nanoseconds), so a page saved in the tick its program was written has the same
    /// time: that page is stale too, or its save would never be built. At worst a program is built once more.
    public static func isStale(program: String, sourceFolder: String) -> Bool {
        guard let built = modificationTime(program) else { return true }
        var notOlder = false
        FolderNames.forEach(in: sourceFolder) { name in
            guard !notOlder, name.hasSuffix(".swift") else { return }
            notOlder = (modificationTime(sourceFolder + "/" + name) ?? 0) >= built
        }
        return notOlder
    }
}

extension Page {
    /// The page's program is missing or older than one of its files, so it is built before it runs.
    public func programIsStale(in productsDirectory: String = BuildProducts.directory.path) -> Bool {
        ProgramFreshness.isStale(program: productsDirectory + "/" + product, sourceFolder: source.deletingLastPathComponent().path)
    }
}
