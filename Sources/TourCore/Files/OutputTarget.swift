@preconcurrency import Glibc
import Foundation

/// The file an option such as `--trace` or `--cast` names for tour to write: checked before the page runs, so a
/// mistake costs nothing.
public enum OutputTarget {
    /// Why `path` cannot take the file `option` writes, or nil when it can: a regular file there is replaced, and
    /// nothing else is (a folder, a symbolic link, a named pipe or a device); its folder must exist and be writable.
    /// `writing` names the file in the message: "trace", "recording".
    public static func problem(withTarget path: String, option: String, exampleName: String, writing: String) -> String? {
        let named = "\(option) \(path)"
        let example = "for example \(option) \(exampleName)"
        if path.hasSuffix("/") { return "\(named) names a folder; name a file in it, \(example)" }
        switch PathKind.at(path) {
        case .regularFile, .missing: break
        case .directory: return "\(named) is a folder; name a file in it, for example \(option) \(path)/\(exampleName)"
        case .symbolicLink(let target):
            return "\(named) is a symbolic link to \(target); the \(writing) would replace the link, so name the file itself "
                + "or a new one, \(example)"
        case .unreadable(let problem): return "\(named) cannot be looked at (\(problem.reason)); name a file in a folder you can use, \(example)"
        case let kind: return "\(named) is \(kind), not a regular file; name a regular file, \(example)"
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return "\(named) is in a folder that does not exist, \(folder); create it first (mkdir -p \(folder)) or name a file in a folder that exists"
        }
        // A real attempt rather than access(2): it also answers for root, read-only mounts and full disks.
        let probe = URL(fileURLWithPath: folder).appendingPathComponent(".tour-write-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return "\(named) cannot be written: no new file can be made in \(folder) (\(String(cString: strerror(errno)))); "
                + "name a file in a folder you can write to, \(example)"
        }
        close(descriptor)
        unlink(probe)
        return nil
    }
}
