@preconcurrency import Glibc

/// The names in a folder, read with `opendir` and `readdir`. FileManager's listing cost `tour run` about a quarter of
/// a millisecond before its page could start; the source watcher, the thread sampler and the process sweep list
/// folders many times a second.
enum FolderNames {
    /// Calls `body` with the name of each entry of the folder at `path`, `.` and `..` left out; false when the folder
    /// cannot be opened.
    @discardableResult
    static func forEach(in path: String, _ body: (String) -> Void) -> Bool {
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { body(name) }
        }
        return true
    }
}
