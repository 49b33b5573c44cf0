@preconcurrency import Glibc

/// The few socket calls the client makes, each with its failure in words.
public enum TCPSocket {
    /// A connected TCP socket to `host`:`port`, trying each address the name has, each for at most `timeout`
    /// seconds; its writes give up after `timeout` too, so a peer that stops reading cannot hold a writer forever.
    public static func connect(host: String, port: UInt16, timeout: Double) -> Result<Int32, SocketProblem> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var addresses: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &addresses)
        guard lookup == 0, let first = addresses else {
            return .failure(SocketProblem("cannot find \(host): \(String(cString: gai_strerror(lookup)))"))
        }
        defer { freeaddrinfo(first) }
        var problem = SocketProblem("\(host) has no address")
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                                    address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                problem = SocketProblem("cannot make a socket: \(String(cString: strerror(errno)))")
                continue
            }
            if let failure = connect(descriptor, to: address.pointee, timeout: timeout) {
                close(descriptor)
                problem = SocketProblem("cannot connect to \(host):\(port): \(failure)")
                continue
            }
            var on: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            return .success(descriptor)
        }
        return .failure(problem)
    }

    /// Connects without blocking, waiting at most `timeout` seconds; nil on success, else what went wrong.
    private static func connect(_ descriptor: Int32, to address: addrinfo, timeout: Double) -> String? {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&waiting, 1, Int32(timeout * 1000))
            guard ready > 0 else { return ready == 0 ? "no answer within \(timeout) s" : String(cString: strerror(errno)) }
            var error: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &size)
            guard error == 0 else { return String(cString: strerror(error)) }
        }
        _ = fcntl(descriptor, F_SETFL, flags)
        return nil
    }

    /// Writes all of `bytes`, or says why it could not.
    static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> SocketProblem? {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
            if result < 0 {
                if errno == EINTR { continue }
                return SocketProblem(errno == EAGAIN ? "the broker stopped reading" : "cannot send: \(String(cString: strerror(errno)))")
            }
            written += result
        }
        return nil
    }
}

public struct SocketProblem: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
