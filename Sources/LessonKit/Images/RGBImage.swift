/// An 8-bit RGB picture held in memory, the unit of work the image pages pass between operations.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Red, green and blue bytes of each pixel, row by row from the top left: `width * height * 3` bytes.
    public var pixels: [UInt8]

    /// An image of the given size; `pixels` must hold exactly `width * height * 3` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "an image is at least 0×0, not \(width)×\(height)")
        precondition(pixels.count == width * height * 3,
                     "a \(width)×\(height) RGB image has \(width * height * 3) bytes, not \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes a binary PPM (magic `P6`, maxval 255), the format the tutorial's photos are shipped in.
    ///
    /// Comments (`#` to the end of the line) may stand wherever a header field could start. Bytes after
    /// the pixels are ignored, since Netpbm allows several images in one stream.
    public init(ppm data: [UInt8]) throws(PPMError) {
        var reader = PPMHeaderReader(data: data)
        try reader.readMagic()
        let width = try reader.readNumber(.width)
        let height = try reader.readNumber(.height)
        guard (1...PPMError.largestSide).contains(width), (1...PPMError.largestSide).contains(height) else {
            throw .badSize(width: width, height: height)
        }
        let maxval = try reader.readNumber(.maxval)
        guard maxval == 255 else { throw .unsupportedMaxval(maxval) }
        // The header ends with exactly one whitespace byte, which readNumber stopped on; pixels follow it.
        let start = reader.index + 1
        let expected = width * height * 3
        let found = max(data.count - start, 0)
        guard found >= expected else { throw .truncatedPixels(expected: expected, found: found) }
        self.init(width: width, height: height, pixels: Array(data[start..<start + expected]))
    }

    /// Encodes the image as a binary PPM that `init(ppm:)` and common image viewers read.
    public func ppmData() -> [UInt8] {
        Array("P6\n\(width) \(height)\n255\n".utf8) + pixels
    }
}

/// Why bytes could not be decoded as a binary PPM image.
public enum PPMError: Error, Equatable, CustomStringConvertible {
    /// A header field of a PPM file, in the order they come.
    public enum Field: String, Sendable {
        case width, height, maxval
    }

    /// The data does not start with a Netpbm magic number (`P1` to `P7`); `startsWith` holds its first bytes.
    case notPPM(startsWith: [UInt8])
    /// A Netpbm file of another kind, such as `P3` (text PPM) or `P5` (greymap): only `P6` is read.
    case unsupportedKind(magic: String)
    /// The data ends before the header gives `missing`.
    case truncatedHeader(missing: Field)
    /// A header field is not a decimal number; `text` is what stands there, cut short if long.
    case badNumber(field: Field, text: String)
    /// The width or height is 0 or larger than `largestSide`.
    case badSize(width: Int, height: Int)
    /// The maxval is not 255, so samples are not single bytes.
    case unsupportedMaxval(Int)
    /// The data ends before `expected` pixel bytes; only `found` are there.
    case truncatedPixels(expected: Int, found: Int)

    /// The longest side accepted, which also keeps `width * height * 3` far from overflowing.
    public static let largestSide = 65_535

    public var description: String {
        switch self {
        case .notPPM(let bytes) where bytes.isEmpty:
            return "not a PPM image: the data is empty"
        case .notPPM(let bytes):
            let hex = bytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
            return "not a PPM image: it starts with \(hex), where a PPM starts with P6"
        case .unsupportedKind(let magic):
            return "a Netpbm \(magic) file, not a binary colour PPM (P6), the only kind read here"
        case .truncatedHeader(let field):
            return "truncated PPM header: the data ends before the \(field.rawValue)"
        case .badNumber(let field, let text):
            return "bad PPM header: the \(field.rawValue) should be a decimal number, not '\(text)'"
        case .badSize(let width, let height):
            return "bad PPM size \(width)×\(height): each side must be 1 to \(Self.largestSide) pixels"
        case .unsupportedMaxval(let maxval):
            return "unsupported PPM maxval \(maxval): only 255 (one byte per sample) is read"
        case .truncatedPixels(let expected, let found):
            return "truncated PPM pixels: the header promises \(expected) bytes, the data holds \(found)"
        }
    }
}

/// Walks a PPM header field by field, skipping the whitespace and comments between fields.
private struct PPMHeaderReader {
    let data: [UInt8]
    var index = 0

    /// How much of a bad field an error quotes: garbage can run to the end of a large file.
    private static let quoteLength = 16

    init(data: [UInt8]) {
        self.data = data
    }

    mutating func readMagic() throws(PPMError) {
        guard data.count >= 2, data[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(data[1]) else {
            throw .notPPM(startsWith: Array(data.prefix(2)))
        }
        guard data[1] == UInt8(ascii: "6") else {
            throw .unsupportedKind(magic: String(decoding: data.prefix(2), as: UTF8.self))
        }
        index = 2
    }

    /// Reads the next field as a non-negative decimal number and leaves `index` on the byte after it.
    mutating func readNumber(_ field: PPMError.Field) throws(PPMError) -> Int {
        skipWhitespaceAndComments()
        let start = index
        while index < data.count, !Self.isWhitespace(data[index]) {
            index += 1
        }
        guard index > start else { throw .truncatedHeader(missing: field) }
        let token = data[start..<index]
        let text = String(decoding: token.prefix(Self.quoteLength), as: UTF8.self)
        // Int(_:) alone would accept a sign; more than 9 digits cannot be a valid size or maxval anyway.
        guard token.count <= 9, token.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let number = Int(text) else {
            throw .badNumber(field: field, text: text)
        }
        return number
    }

    private mutating func skipWhitespaceAndComments() {
        while index < data.count {
            if Self.isWhitespace(data[index]) {
                index += 1
            } else if data[index] == UInt8(ascii: "#") {
                while index < data.count, data[index] != UInt8(ascii: "\n"), data[index] != UInt8(ascii: "\r") {
                    index += 1
                }
            } else {
                return
            }
        }
    }

    /// Netpbm's whitespace: space, tab, line feed, vertical tab, form feed and carriage return.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
