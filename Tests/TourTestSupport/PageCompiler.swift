import Foundation
import TourCore

/// Compiles a folder's Swift files as SwiftPM compiles a page, exercise or solution (Swift 6 mode, against the LessonKit
/// these tests were built with), without linking: a fraction of a second each, where a build would take minutes.
public enum PageCompiler {
    /// How far the compiler goes.
    public enum Stage: Sendable {
        /// Type-checking only: every diagnostic of the type checker, as a build's first stage prints them.
        case typecheck
        /// On to SIL, where the diagnostics of data flow come from: region-based isolation's "sending … risks causing
        /// data races" among them, which `-typecheck` never prints.
        case sil
    }

    /// Compiles `files` up to `stage` in a page-run slot and returns the compiler's exit status and all it printed.
    /// Diagnostics are in LLVM's style: one line each, notes included, as `file:line:column: error: message`.
    public static func compile(_ files: [URL], upTo stage: Stage, label: String) async throws -> (status: Int32, output: String) {
        guard let swiftc = SearchPath().find("swiftc") else { throw MissingCompiler() }
        let modes = stage == .typecheck ? ["-typecheck"] : ["-emit-sil", "-o", "/dev/null"]
        // LessonKit imports CLinuxSystem, a C module: loading LessonKit needs its module map, which SwiftPM names in
        // every compile job of a page.
        let moduleMap = PageCatalog.defaultRoot.appendingPathComponent("Sources/CLinuxSystem/module.modulemap").path
        let arguments = modes + ["-swift-version", "6", "-module-name", "Checked", "-diagnostic-style", "llvm",
                                 "-I", BuildProducts.directory.appendingPathComponent("Modules").path,
                                 "-Xcc", "-fmodule-map-file=\(moduleMap)"] + files.map(\.path)
        return try await PageRunSlots.shared.withSlot(label: label) {
            try await runToEnd(swiftc, arguments, label: label)
        }
    }
}

/// What `PageCompiler` throws when `swiftc` is not on `PATH`.
public struct MissingCompiler: Error, CustomStringConvertible {
    public var description: String { "swiftc is not on PATH" }
}
