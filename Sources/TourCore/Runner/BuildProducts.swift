import Foundation

/// Where the programs of this build live: SwiftPM puts every product of one build in one folder,
/// so a page's program sits beside `tour` (and beside the test bundle when tests run).
public enum BuildProducts {
    public static var directory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The path of the program that runs `product`.
    public static func executable(named product: String) -> String {
        directory.appendingPathComponent(product).path
    }
}
