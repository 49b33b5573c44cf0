import Foundation

/// A folder's `.swift` files as git's HEAD commit has them, read with `git` run as a child process in the package's
/// folder (never through a shell): in a git checkout, the text the tour shipped with, whoever edited the files since.
struct GitHead: Sendable {
    let packageRoot: URL
    /// The `git` that `PATH` finds, or nil when git is not installed.
    let git: String?

    init(packageRoot: URL, searchPath: SearchPath = SearchPath()) {
        self.packageRoot = packageRoot
        self.git = searchPath.find("git")
    }

    /// The regular `.swift` files directly in `folder` (a path from the package root, `Lessons/01-Operation`), by name, with the bytes a checkout
    /// writes for them (`cat-file --filters`, so line-ending settings are honoured); nil when git is not installed, the
    /// package is not in a git checkout, HEAD has no commit yet, or HEAD has no `.swift` file in `folder`.
    func swiftFiles(in folder: String) -> [(name: String, data: Data)]? {
        guard let listing = run(["ls-tree", "-z", "HEAD", "--", folder + "/"]) else { return nil }
        var files: [(name: String, data: Data)] = []
        for entry in listing.split(separator: 0) {
            // `<mode> <type> <object>\t<path>`; a link (120000), a submodule or a subfolder is not a page's file.
            guard let tab = entry.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let fields = entry[..<tab].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            let path = String(decoding: entry[(tab + 1)...], as: UTF8.self)
            let name = (path as NSString).lastPathComponent
            guard fields.count == 3, ["100644", "100755"].contains(fields[0]), fields[1] == "blob", name.hasSuffix(".swift"),
                  path == "\(folder)/\(name)" else { continue }
            guard let data = run(["cat-file", "--filters", "HEAD:./\(path)"]) else { return nil }
            files.append((name, data))
        }
        return files.isEmpty ? nil : files.sorted { $0.name < $1.name }
    }

    /// What `git -C <package root> <arguments>` printed, or nil when it could not run or did not succeed. Pathspecs are
    /// literal, and the environment's `GIT_DIR` and `GIT_WORK_TREE` are left out, so the package's own folder decides
    /// which repository is read.
    private func run(_ arguments: [String]) -> Data? {
        guard let git else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = ["--literal-pathspecs", "-C", packageRoot.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        for variable in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR"] { environment[variable] = nil }
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard let data = try? process.runCapturingOutput(withErrors: false) else { return nil }
        return process.terminationReason == .exit && process.terminationStatus == 0 ? data : nil
    }
}
