@preconcurrency import Glibc
import Foundation

/// What is at a path, looked at without following a symbolic link there.
public enum PathKind: Equatable, Sendable, CustomStringConvertible {
    case missing
    case regularFile
    case directory
    case symbolicLink(to: String)
    case fifo
    case device
    case socket
    /// `lstat` failed for another reason than absence, such as a folder on the way that cannot be searched.
    case unreadable(FileProblem)

    public static func at(_ path: String) -> PathKind {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .unreadable(FileProblem(action: "look at", path: path, code: code))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFLNK:
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "somewhere"
            return .symbolicLink(to: target)
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        default: return .device
        }
    }

    /// "a folder", "a symbolic link to /etc/passwd": what the path is, for a message that says why it was refused.
    public var description: String {
        switch self {
        case .missing: "missing"
        case .regularFile: "a regular file"
        case .directory: "a folder"
        case .symbolicLink(let target): "a symbolic link to \(target)"
        case .fifo: "a named pipe (FIFO)"
        case .device: "a device"
        case .socket: "a socket"
        case .unreadable(let problem): "not readable (\(problem.reason))"
        }
    }
}

/// A file operation the system refused, with its reason in words rather than an error domain and code.
public struct FileProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done, as a verb: "write", "read", "remove".
    public let action: String
    public let path: String
    public let code: Int32

    public init(action: String, path: String, code: Int32) {
        self.action = action
        self.path = path
        self.code = code
    }

    /// A Foundation file error in the same words: the system's reason beneath it, never its domain and number
    /// ("NSCocoaErrorDomain error 512").
    public init(_ error: any Error, action: String, path: String) {
        func posixCode(_ error: any Error) -> Int32? {
            if let posix = error as? POSIXError { return posix.code.rawValue }
            let bridged = error as NSError
            return bridged.domain == NSPOSIXErrorDomain ? Int32(bridged.code) : nil
        }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error
        self.init(action: action, path: path, code: underlying.flatMap(posixCode) ?? posixCode(error) ?? EIO)
    }

    /// The system's words for `code`, such as "No such file or directory".
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "could not \(action) \(path): \(reason)" }
}

/// Writes files so that a reader sees the old content or the new, never half of it: to a new file beside the target,
/// then renamed over it. The rename replaces whatever is at the path, so callers check the path's `PathKind` first.
public enum AtomicFile {
    /// `mode`, when given, is the new file's permissions (0600 for a secret) from its creation on.
    public static func write(_ data: Data, to path: String, mode chosenMode: mode_t? = nil) throws(FileProblem) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tour-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp").path
        // Otherwise the file it replaces keeps its permissions (an executable script stays executable).
        var existing = stat()
        let mode = chosenMode ?? (stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileProblem(action: "write", path: path, code: errno) }
        var written = 0
        var failure: Int32?
        data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += result
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw FileProblem(action: "write", path: path, code: failure)
        }
    }

    /// Reads a regular file whole, refusing anything else (a symbolic link is not followed).
    public static func readRegularFile(_ path: String) throws(FileProblem) -> Data {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileProblem(action: "read", path: path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileProblem(action: "read", path: path, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw FileProblem(action: "read", path: path, code: EINVAL) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileProblem(action: "read", path: path, code: errno)
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[..<count])
        }
    }
}
