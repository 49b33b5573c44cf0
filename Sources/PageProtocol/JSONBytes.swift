/// Byte tests eight at a time for JSON strings, shared by the page's encoder (`EventLine`) and the host's decoder
/// (`TraceLineDecoder`): names and labels are nearly always plain ASCII, and checking a word at a time is several
/// times cheaper than a byte at a time.
enum JSONBytes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any of the eight bytes in `word` is a control character, a quote or a backslash: the classic
    /// bit tricks for "has a byte below n" and "has a zero byte" (after XOR with the byte looked for).
    @inline(__always) static func anyNeedsEscaping(_ word: UInt64) -> Bool {
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let belowSpace = (word &- ones &* 0x20) & ~word & highBits != 0
        return belowSpace || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// Whether any of the eight bytes in `word` is beyond ASCII (part of a multi-byte UTF-8 sequence).
    @inline(__always) static func anyBeyondASCII(_ word: UInt64) -> Bool {
        word & highBits != 0
    }
}
