import Foundation
import TourCore

/// Progress files for tests: each in a scratch folder of its own, read and written at a fixed time, so nothing
/// outside the folder is touched and times survive ISO 8601 unchanged.
public enum ProgressFolders {
    /// 2026-12-01 13:45:00 UTC: whole seconds, so times survive ISO 8601 unchanged.
    public static let morning = Date(timeIntervalSince1970: 1_796_132_700)

    /// A fresh folder under `ScratchSpace` for one test.
    public static func scratchFolder() throws -> URL {
        let folder = ScratchSpace.folder.appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The progress store under `folder`, whose clock says `time`.
    public static func store(in folder: URL, at time: Date = morning) throws -> ProgressStore {
        let clock: @Sendable () -> Date = { time }
        guard let store = ProgressStore(environment: ["XDG_STATE_HOME": folder.path, "HOME": "/nonexistent-home"], clock: clock) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: folder.path])
        }
        return store
    }

    /// The copies set aside beside `store`'s file, by name.
    public static func setAsideCopies(in store: ProgressStore) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.file.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("progress.json.") && $0 != "progress.json.lock" }.sorted()
    }
}
