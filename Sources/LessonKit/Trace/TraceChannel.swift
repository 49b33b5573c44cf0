@preconcurrency import Glibc
import Foundation
import Synchronization

/// Where a page's events go: the host's trace pipe on fd 3, or readable text on stdout when the page runs alone.
///
/// Every event is one line written with a single `write(2)` under a lock, so lines from many threads
/// never interleave, whatever their length (pipes only promise atomicity up to `PIPE_BUF`).
final class TraceChannel: Sendable {
    /// The file descriptor the host hands to every page for its events.
    static let hostDescriptor: Int32 = 3

    let fileDescriptor: Int32?
    private let writeLock = Mutex<Void>(())
    /// Set once the host's end has gone away, so a page that outlives its host stops paying for writes.
    private let broken = Atomic<Bool>(false)

    init(fileDescriptor: Int32?) {
        self.fileDescriptor = fileDescriptor
    }

    /// Opens the host's channel when fd 3 is an open pipe or file; nil when the page runs on its own.
    static func fromEnvironment() -> TraceChannel {
        let open = fcntl(hostDescriptor, F_GETFD) != -1
        return TraceChannel(fileDescriptor: open ? hostDescriptor : nil)
    }

    var isConnected: Bool { fileDescriptor != nil }

    /// Writes one complete line (the newline is added here).
    func send(_ line: String) {
        guard let fd = fileDescriptor, !broken.load(ordering: .relaxed) else { return }
        var bytes = line
        bytes.append("\n")
        writeLock.withLock { _ in
            bytes.withUTF8 { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        broken.store(true, ordering: .relaxed)
                        return
                    }
                    offset += written
                }
            }
        }
    }
}
