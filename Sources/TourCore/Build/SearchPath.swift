@preconcurrency import Glibc
import Foundation

/// The folders `PATH` names, and the one lookup of a program in them, as a shell does it: for the editor `e` opens,
/// the `swift` that rebuilds a page, and the tests that need a real tool.
public struct SearchPath: Equatable, Sendable, CustomStringConvertible {
    /// In the order they are searched; an empty entry is the current folder, as POSIX has it.
    public var folders: [String]

    /// Used when `PATH` is unset.
    public static let fallback = "/usr/bin:/bin"

    public init(folders: [String]) {
        self.folders = folders
    }

    /// The folders of `PATH` in `environment`, or of `fallback` when it is unset.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["PATH"] ?? Self.fallback
        self.init(folders: path.split(separator: ":", omittingEmptySubsequences: false).map(String.init))
    }

    /// The executable file `program` names: `program` itself when it has a slash, otherwise the first folder's
    /// that holds an executable regular file of that name (a folder called `swift` is passed over); nil if none does.
    public func find(_ program: String) -> String? {
        if program.contains("/") { return Self.isExecutableFile(program) ? program : nil }
        return folders.lazy.map { ($0.isEmpty ? "." : $0) + "/" + program }.first(where: Self.isExecutableFile)
    }

    /// The folders as `PATH` writes them, for messages.
    public var description: String {
        folders.joined(separator: ":")
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
