import PageProtocol

/// A picture a page drew into the live view: 8-bit RGB pixels, row by row from the top left.
public struct LiveFrame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes: red, green, blue of each pixel.
    public let pixels: [UInt8]

    /// The largest side accepted; LessonKit sends at most 160×96, so anything far larger is a bad event.
    public static let largestSide = 1024

    /// A frame of the given size; nil unless `pixels` holds exactly `width * height * 3` bytes.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard (1...Self.largestSide).contains(width), (1...Self.largestSide).contains(height),
              pixels.count == width * height * 3 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes a picture as a page sent it in an event's `w`, `h` and `px` fields (`docs/trace-format.md`, Live view).
    public static func decode(_ sent: PagePicture) -> Result<LiveFrame, LiveFrameError> {
        EncodedLiveFrame.check(sent).flatMap { $0.decoded() }
    }

    /// The red, green and blue of the pixel at (`x`, `y`).
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let index = (y * width + x) * 3
        return (pixels[index], pixels[index + 1], pixels[index + 2])
    }
}

/// A picture as a page sent it, past every check that needs no decoding: its size is in range and its base64 is as
/// long as that size needs. Only a byte outside the alphabet or misplaced padding can still make `decoded()` fail.
public struct EncodedLiveFrame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// The pixels in standard base64, `4 * width * height` bytes of it (3 bytes a pixel need no padding).
    public let base64: String

    /// The picture if its size and the length of its base64 fit each other, else why not; reads only the text's length.
    public static func check(_ sent: PagePicture) -> Result<EncodedLiveFrame, LiveFrameError> {
        guard let width = sent.width, let height = sent.height, (1...LiveFrame.largestSide).contains(width),
              (1...LiveFrame.largestSide).contains(height) else {
            return .failure(.badSize(width: sent.width, height: sent.height))
        }
        guard let text = sent.base64 else { return .failure(.missingPixels) }
        guard let length = Base64Decoder.decodedLength(of: text) else { return .failure(.corruptPixels) }
        let expected = width * height * 3
        guard length == expected else { return .failure(.wrongPixelCount(expected: expected, found: length)) }
        return .success(EncodedLiveFrame(width: width, height: height, base64: text))
    }

    /// Decodes the pixels: the one costly step, about 46 KB of output for LessonKit's largest frame.
    public func decoded() -> Result<LiveFrame, LiveFrameError> {
        guard let pixels = Base64Decoder.decode(base64), let frame = LiveFrame(width: width, height: height, pixels: pixels) else {
            return .failure(.corruptPixels)
        }
        return .success(frame)
    }
}

/// Why a `frame` or `row` event's picture could not be used; the event is counted and skipped.
public enum LiveFrameError: Error, Equatable, CustomStringConvertible {
    /// `w` or `h` is missing, not an integer, or outside 1...`LiveFrame.largestSide`.
    case badSize(width: Int?, height: Int?)
    /// `px` is missing or not a string.
    case missingPixels
    /// `px` is not valid base64.
    case corruptPixels
    /// `px` decodes to a different number of bytes than `w`×`h`×3.
    case wrongPixelCount(expected: Int, found: Int)

    public var description: String {
        switch self {
        case .badSize(let width, let height):
            return "bad live view picture size \(width.map(String.init) ?? "?")×\(height.map(String.init) ?? "?")"
        case .missingPixels:
            return "a live view picture without its pixels (px)"
        case .corruptPixels:
            return "a live view picture whose pixels are not valid base64"
        case .wrongPixelCount(let expected, let found):
            return "a live view picture with \(found) bytes of pixels where its size needs \(expected)"
        }
    }
}

/// Strict standard base64 (RFC 4648 with `=` padding): anything else is refused, never half-decoded.
enum Base64Decoder {
    /// 0...63 for the alphabet, 64 for `=`, 255 for every other byte.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        table[Int(UInt8(ascii: "="))] = 64
        return table
    }()

    /// How many bytes `text` decodes to if it is valid, from its length and trailing `=` alone; nil when no valid
    /// base64 has its length.
    static func decodedLength(of text: String) -> Int? {
        let bytes = text.utf8
        guard bytes.count % 4 == 0 else { return nil }
        let padding = bytes.reversed().prefix(2).prefix { $0 == UInt8(ascii: "=") }.count
        return bytes.count / 4 * 3 - padding
    }

    /// The bytes `text` encodes, or nil unless it is strict base64. Writes straight into the result's storage with the
    /// table read once: about 6 instructions a byte, where appending byte by byte through the global took 27.
    static func decode(_ text: String) -> [UInt8]? {
        guard let length = decodedLength(of: text) else { return nil }
        var text = text
        return text.withUTF8 { bytes -> [UInt8]? in
            values.withUnsafeBufferPointer { table -> [UInt8]? in
                var valid = true
                // 0, or the 1 or 2 `=` that end the last four bytes, which then stand for 2 or 1 bytes.
                let padding = bytes.count / 4 * 3 - length
                let whole = padding > 0 ? bytes.count - 4 : bytes.count
                let decoded = [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
                    var index = 0, written = 0
                    while index < whole {
                        let a = table[Int(bytes[index])], b = table[Int(bytes[index + 1])]
                        let c = table[Int(bytes[index + 2])], d = table[Int(bytes[index + 3])]
                        // `=` (64) and bytes outside the alphabet (255) both have a bit at 64 or above.
                        guard (a | b | c | d) < 64 else { valid = false; break }
                        out[written] = a << 2 | b >> 4
                        out[written + 1] = b << 4 | c >> 2
                        out[written + 2] = c << 6 | d
                        index += 4
                        written += 3
                    }
                    if valid, padding > 0 {
                        // The last four: "xx==" is one byte, "xxx=" two.
                        let a = table[Int(bytes[index])], b = table[Int(bytes[index + 1])], c = table[Int(bytes[index + 2])]
                        if (a | b) >= 64 || (padding == 1 && c >= 64) {
                            valid = false
                        } else {
                            out[written] = a << 2 | b >> 4
                            if padding == 1 { out[written + 1] = b << 4 | c >> 2 }
                        }
                    }
                    initialized = valid ? length : 0
                }
                return valid ? decoded : nil
            }
        }
    }
}
