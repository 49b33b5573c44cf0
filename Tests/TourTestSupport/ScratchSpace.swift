@preconcurrency import Glibc
import Foundation
import TourCore

/// Where tests make the folders that take thousands of files: a copy of the package with its build folder
/// (`ScratchPackage`), a small package that `swift build` builds (`DirectRebuildTests`).
///
/// In memory (`/dev/shm`) where the machine has one that can hold them and run programs from them; the temporary
/// folder otherwise. On this project's machines `/tmp` is ext4, and creating files there costs the kernel far more
/// than in memory: `cp -a` of the 259 MB, 2,350-file build folder took 1.2–1.9 s of system time into `/tmp` and
/// 0.4 s into `/dev/shm`, and the suite makes eight such copies, most of them at its start (a `perf record` of the
/// whole suite found ext4's inode allocation, `find_get_block_common` and `recently_deleted`, in 46 % of the test
/// process's samples in its first 11 seconds).
///
/// Each test process has a folder of its own in memory, `tour-tests-<pid>`; the folders of test processes that are
/// gone (killed half-way, with their copies still inside) are removed when the next one starts, so memory is never
/// held for long by a run that could not clean up.
public enum ScratchSpace {
    /// The folder to make scratch folders in.
    public static let folder: URL = inMemory() ?? FileManager.default.temporaryDirectory

    /// Room the scratch folders may need at once: eight copies of the package's build folder, with space to spare.
    static let neededBytes: UInt64 = 4 << 30

    /// The start of every such folder's name; the rest is its process's pid.
    public static let prefix = "tour-tests-"

    /// `ST_NOEXEC` of `statvfs`'s flags, which Glibc leaves out (it needs `_GNU_SOURCE`).
    static let mountedNoExec: UInt = 8

    /// This process's folder in `/dev/shm`, made anew, or nil if `/dev/shm` is missing, read-only, mounted
    /// `noexec` (as containers often mount it: page programs built there must run) or short of `neededBytes`.
    public static func inMemory(root: String = "/dev/shm") -> URL? {
        var info = statvfs()
        guard statvfs(root, &info) == 0, info.f_flag & UInt(ST_RDONLY) == 0, info.f_flag & mountedNoExec == 0,
              UInt64(info.f_bavail) * UInt64(info.f_frsize) >= neededBytes, access(root, W_OK | X_OK) == 0 else { return nil }
        removeFoldersOfEndedProcesses(in: root)
        let folder = URL(fileURLWithPath: root).appendingPathComponent("\(prefix)\(getpid())")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return nil }
        return folder
    }

    /// Removes `tour-tests-<pid>` folders whose process has ended.
    static func removeFoldersOfEndedProcesses(in root: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if processIsGone(pid) {
                try? FileManager.default.removeItem(atPath: "\(root)/\(name)")
            }
        }
    }

    /// Writes `bytes` to a new file, without the `fsync` that Foundation's writes make: a file in a scratch folder
    /// need not survive a crash, and each sync waits for the disk (seconds on a busy machine, for a scratch package's
    /// 150 plan files; tens of milliseconds for one fixture page, while a Swift Testing thread waited).
    public static func write(_ bytes: some Collection<UInt8>, to target: URL) throws {
        let output = open(target.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw ScratchPackage.Problem(description: "could not create \(target.path): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        let bytes = Array(bytes)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ScratchPackage.Problem(description: "could not write \(target.path): \(String(cString: strerror(errno)))")
            }
            written += count
        }
    }
}
