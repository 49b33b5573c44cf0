@preconcurrency import Glibc
import Foundation
import PageProtocol

/// Reads one pipe to its end on a thread of its own and hands over complete lines.
///
/// A line longer than `maximumLineBytes` is handed over cut at that length with `truncated` set, and the
/// rest of it is skipped, so a page that writes without newlines cannot make the host's memory grow.
final class PipeLineReader: @unchecked Sendable {
    static let maximumLineBytes = TraceLineParser.maximumLineBytes

    private let fd: Int32
    private let onLine: (ArraySlice<UInt8>, _ truncatedFrom: Int?) -> Void
    private let finished = DispatchSemaphore(value: 0)

    init(fd: Int32, name: String, onLine: @escaping (ArraySlice<UInt8>, _ truncatedFrom: Int?) -> Void) {
        self.fd = fd
        self.onLine = onLine
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
                let newline = buffer[start..<count].firstIndex(of: 10)
                let end = newline ?? count
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
        }
        if !partial.isEmpty || skippedLength != nil {
            onLine(partial[...], skippedLength)
        }
    }
}
