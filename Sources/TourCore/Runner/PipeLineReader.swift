@preconcurrency import Glibc
import Foundation
import PageProtocol

/// Reads one pipe to its end on a thread of its own and hands over complete lines.
///
/// A line that lies whole in one read is handed over in place, a slice of the read buffer with nothing copied; only a
/// line split across reads is gathered first. After the lines of each read, `onReadDone` lets the receiver deliver
/// them together. A line longer than `maximumLineBytes` is handed over cut at that length with `truncated` set,
/// and the rest of it is skipped, so a page that writes without newlines cannot make the host's memory grow.
final class PipeLineReader: @unchecked Sendable {
    static let maximumLineBytes = TraceLineParser.maximumLineBytes

    private let fd: Int32
    private let onLine: (ArraySlice<UInt8>, _ truncatedFrom: Int?) -> Void
    private let onReadDone: () -> Void
    private let finished = DispatchSemaphore(value: 0)

    /// `onLine` must not keep the slice it is given: the buffer is read into again.
    init(fd: Int32, name: String, onLine: @escaping (ArraySlice<UInt8>, _ truncatedFrom: Int?) -> Void,
         onReadDone: @escaping () -> Void = {}) {
        self.fd = fd
        self.onLine = onLine
        self.onReadDone = onReadDone
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
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var partial: [UInt8] = []
        var skippedLength: Int? = nil   // set while skipping the rest of an overlong line
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
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
            onReadDone()
        }
        if !partial.isEmpty || skippedLength != nil {
            onLine(partial[...], skippedLength)
            onReadDone()
        }
    }
}
