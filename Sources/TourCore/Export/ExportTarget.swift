@preconcurrency import Glibc
import Foundation

/// The files a run is exported to (`--trace`, `--svg`, `--cast`, `--record`): what may be written where, checked before the page runs,
/// and the write itself, which replaces a regular file and nothing else.
public enum ExportTarget {
    /// What is wrong with `path` as the file `option` writes, or nil when it can be written: checked before the page
    /// runs, so a bad target costs the learner no run. A regular file is replaced; a symbolic link, a named pipe, a
    /// device or a folder is never replaced by one, and the folder it goes in must exist and take a new file.
    /// `example` is a file name the messages suggest, such as `run.json`; `noun` what is written, such as `trace`.
    public static func problem(withTarget path: String, option: String, example file: String, noun: String) -> String? {
        let named = "\(option) \(path)"
        let example = "for example \(option) \(file)"
        if path.hasSuffix("/") { return "\(named) names a folder; name a file in it, \(example)" }
        switch PathKind.at(path) {
        case .regularFile, .missing: break
        case .directory: return "\(named) is a folder; name a file in it, for example \(option) \(path)/\(file)"
        case .symbolicLink(let target):
            return "\(named) is a symbolic link to \(target); the \(noun) would replace the link, so name the file itself "
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
        let probe = URL(fileURLWithPath: folder).appendingPathComponent(".tour-export-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return "\(named) cannot be written: no new file can be made in \(folder) (\(String(cString: strerror(errno)))); "
                + "name a file in a folder you can write to, \(example)"
        }
        close(descriptor)
        unlink(probe)
        return nil
    }

    /// Writes `data` to `path` whole (`AtomicFile`), after checking the target again: the path may have changed
    /// while the page ran.
    public static func write(_ data: Data, to path: String, option: String, example: String, noun: String) throws(WriteFailure) {
        if let problem = problem(withTarget: path, option: option, example: example, noun: noun) { throw WriteFailure(description: problem) }
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            throw WriteFailure(description: error.description)
        }
    }

    /// Why an export was not written, in words.
    public struct WriteFailure: Error, CustomStringConvertible {
        public let description: String
    }
}
