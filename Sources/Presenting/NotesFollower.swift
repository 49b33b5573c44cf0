@preconcurrency import Glibc
import Foundation

/// The `tour notes` side of the notes channel: connects to a presenter's socket and hands on each snapshot it sends.
public enum NotesFollower {
    /// The snapshots the presenter at `socketPath` sends, in order, until it goes away (the stream then finishes);
    /// a line that is not a snapshot ends it with a problem. Reading happens on a dispatch source, never on the
    /// thread that awaits.
    public static func snapshots(from socketPath: String) throws(NotesChannel.Problem) -> AsyncThrowingStream<PresenterSnapshot, Error> {
        let address = try NotesChannel.address(of: socketPath)
        let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard connection >= 0 else {
            throw NotesChannel.Problem(description: "no socket to follow the presenter: \(String(cString: strerror(errno)))")
        }
        guard NotesChannel.withSocketAddress(address, { connect(connection, $0, $1) }) == 0 else {
            let reason = String(cString: strerror(errno))
            close(connection)
            throw NotesChannel.Problem(description: "cannot reach the presenter at \(socketPath): \(reason)")
        }
        _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: PresenterSnapshot.self)
        // Cancelling is safe from any thread; the stream's end may come from the reader or from whoever stops reading.
        nonisolated(unsafe) let source = DispatchSource.makeReadSource(fileDescriptor: connection, queue: DispatchQueue(label: "tour.notes.follower"))
        // Touched only by the source's handlers, on its serial queue.
        nonisolated(unsafe) var pending = Data()
        let decoder = JSONDecoder()
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(connection, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
                guard count > 0 else {
                    continuation.finish()
                    source.cancel()
                    return
                }
                pending.append(contentsOf: buffer[0..<count])
                while let end = pending.firstIndex(of: 0x0A) {
                    let line = pending[pending.startIndex..<end]
                    pending = Data(pending[(end + 1)...])
                    do {
                        continuation.yield(try decoder.decode(PresenterSnapshot.self, from: line))
                    } catch {
                        continuation.finish(throwing: NotesChannel.Problem(description: "the presenter sent a line that is not a snapshot (\(error)); is it the same version of tour?"))
                        source.cancel()
                        return
                    }
                }
            }
        }
        source.setCancelHandler { close(connection) }
        continuation.onTermination = { _ in source.cancel() }
        source.resume()
        return stream
    }
}
