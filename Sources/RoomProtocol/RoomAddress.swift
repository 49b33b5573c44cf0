/// Where a room's broker listens: `HOST:PORT`, as `tour --room`, `TOUR_ROOM`, `tour room --broker` and
/// `tour present --room` take it.
public struct RoomAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `text` as an address, or what is wrong with it and what would be right, in words.
    ///
    /// Takes `host:port`, `1.2.3.4:port` and `[v6]:port`. A host is letters, digits, `.`, `-` and `_` (or an IPv6
    /// address in brackets); a port is 1 to 65535.
    public static func parse(_ text: String) -> Result<RoomAddress, RoomInputError> {
        let example = "give it as HOST:PORT, for example 192.168.1.20:1883"
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(RoomInputError("'\(text)' is not a room address: an IPv6 host in brackets needs ]:PORT after it; \(example)"))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                return .failure(RoomInputError("'\(text)' is not a room address: it has no port; \(example)"))
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        let hostCharacters = text.hasPrefix("[")
            ? host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
            : host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
        guard !host.isEmpty, host.count <= 253, hostCharacters else {
            return .failure(RoomInputError("'\(text)' is not a room address: '\(host)' is not a host name or address; \(example)"))
        }
        guard let port = UInt16(portText), port > 0 else {
            return .failure(RoomInputError("'\(text)' is not a room address: the port '\(portText)' is not a number from 1 to 65535; \(example)"))
        }
        return .success(RoomAddress(host: String(host), port: port))
    }
}

/// Input about a room that cannot be used, with what was wrong and what would be right.
public struct RoomInputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
