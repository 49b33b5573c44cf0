@preconcurrency import Glibc
import Foundation
import PageProtocol

/// Reads one pipe to its end on a thread of its own and hands over complete lines (`PipeLines`).
///
/// After the lines of each read, `onReadDone` lets the receiver deliver them together; `onEnd` runs once the pipe is
/// read to its end and closed.
final class PipeLineReader: @unchecked Sendable {
    private let fd: Int32
    private let onLine: (ArraySlice<UInt8>, _ truncatedFrom: Int?) -> Void
    private let onReadDone: () -> Void
    private let onEnd: () -> Void
    private let finished = DispatchSemaphore(value: 0)

    /// `onLine` must not keep the slice it is given: the buffer is read into again.
    init(fd: Int32, name: String, onLine: @escaping (ArraySlice<UInt8>, _ truncatedFrom: Int?) -> Void,
         onReadDone: @escaping () -> Void = {}, onEnd: @escaping () -> Void = {}) {
        self.fd = fd
        self.onLine = onLine
        self.onReadDone = onReadDone
        self.onEnd = onEnd
        let thread = Thread { [self] in self.run() }
        thread.name = "tour-read-\(name)"
        thread.start()
    }

    /// Waits until the pipe reached its end; false if `timeout` passed first.
    func waitUntilDone(timeout: Double) -> Bool {
        finished.wait(timeout: .now() + timeout) == .success
    }

    private func run() {
        defer {
            close(fd)
            finished.signal()
            onEnd()
        }
        var lines = PipeLines(fd: fd)
        while lines.readOnce(onLine: onLine) { onReadDone() }
        onReadDone()
    }
}

/// The lines of one pipe, a read at a time: whoever knows the pipe is readable (a thread blocked in `read`, or a
/// `poll` over several pipes) calls `readOnce`.
///
/// A line that lies whole in one read is handed over in place, a slice of the read buffer with nothing copied; only a
/// line split across reads is gathered first. A line longer than `maximumLineBytes` is handed over cut at that length
/// with `truncated` set, and the rest of it is skipped, so a page that writes without newlines cannot make the host's
/// memory grow.
struct PipeLines {
    static let maximumLineBytes = TraceLineParser.maximumLineBytes

    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private var partial: [UInt8] = []
    /// Set while skipping the rest of an overlong line.
    private var skippedLength: Int? = nil

    init(fd: Int32) {
        self.fd = fd
    }

    /// Reads once (blocking if nothing is there) and hands over the complete lines it brought; false at the end of the
    /// pipe or on an error, after handing over an unfinished last line. `onLine` must not keep the slice it is given.
    mutating func readOnce(onLine: (ArraySlice<UInt8>, _ truncatedFrom: Int?) -> Void) -> Bool {
        var count = 0
        repeat {
            count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        } while count < 0 && errno == EINTR
        guard count > 0 else {
            if !partial.isEmpty || skippedLength != nil {
                onLine(partial[...], skippedLength)
                partial.removeAll()
                skippedLength = nil
            }
            return false
        }
        var start = 0
        while start < count {
            let newline = buffer.withUnsafeBytes { bytes in
                memchr(bytes.baseAddress! + start, 10, count - start).map { $0 - UnsafeMutableRawPointer(mutating: bytes.baseAddress!) }
            }
            let end = newline ?? count
            if newline != nil && partial.isEmpty && skippedLength == nil && end - start <= Self.maximumLineBytes {
                onLine(buffer[start..<end], nil)
                start = end + 1
                continue
            }
            if let skipped = skippedLength {
                skippedLength = skipped + (end - start)
            } else {
                partial.append(contentsOf: buffer[start..<end])
                if partial.count > Self.maximumLineBytes {
                    skippedLength = partial.count
                    partial.removeSubrange(Self.maximumLineBytes...)
                }
            }
            guard newline != nil else { break }
            onLine(partial[...], skippedLength)
            partial.removeAll(keepingCapacity: true)
            skippedLength = nil
            start = end + 1
        }
        return true
    }
}
