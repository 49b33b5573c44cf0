@preconcurrency import Glibc
import Foundation

/// Where the programs of this build live: SwiftPM puts every product of one build in one folder,
/// so a page's program sits beside `tour` (and beside the test bundle when tests run).
public enum BuildProducts {
    public static var directory: URL { programFile.deletingLastPathComponent() }

    /// This program's own file: the kernel's `/proc/self/exe` names it with every symbolic link followed already,
    /// so one `readlink` does what resolving the path component by component (an `lstat` each) would.
    private static let programFile: URL = {
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else { return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath() }
        return URL(fileURLWithPath: String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self),
                   isDirectory: false)
    }()

    /// The path of the program that runs `product`.
    public static func executable(named product: String) -> String {
        directory.appending(path: product, directoryHint: .notDirectory).path
    }
}
