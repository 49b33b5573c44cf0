import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// The direct link's autolink file, read from the objects' `.swift1_autolink_entries` sections in this process, and
/// the entries kept between rebuilds: kept entries must never outlive the object they were read from, or a page that
/// now imports another module would link without it.
@Suite("Autolink entries", .bodiesBelowTheRunner)
struct AutolinkEntriesTests {
    /// A minimal ELF64 little-endian object: a section-name table and one autolink section holding `entries`.
    static func object(_ entries: [String]) -> Data {
        let names = Array("\0.shstrtab\0\(AutolinkEntries.section)\0".utf8)
        let payload = Array(entries.joined(separator: "\0").utf8) + [0]
        let namesOffset = 64, payloadOffset = namesOffset + names.count, tableOffset = payloadOffset + payload.count
        var bytes = [UInt8](repeating: 0, count: tableOffset + 3 * 64)
        func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { for (index, byte) in $0.enumerated() { bytes[offset + index] = byte } }
        }
        bytes[0...5] = [0x7F, 0x45, 0x4C, 0x46, 2, 1]
        put(UInt64(tableOffset), at: 0x28)
        put(UInt16(64), at: 0x3A)
        put(UInt16(3), at: 0x3C)
        put(UInt16(1), at: 0x3E)
        // Section 0 is the null section; 1 the names; 2 the autolink entries.
        for (index, (name, offset, size)) in [(1, namesOffset, names.count), (11, payloadOffset, payload.count)].enumerated() {
            let header = tableOffset + (index + 1) * 64
            put(UInt32(name), at: header)
            put(UInt64(offset), at: header + 0x18)
            put(UInt64(size), at: header + 0x20)
        }
        bytes.replaceSubrange(namesOffset..<(namesOffset + names.count), with: names)
        bytes.replaceSubrange(payloadOffset..<(payloadOffset + payload.count), with: payload)
        return Data(bytes)
    }

    @Test func anObjectReplacedOrRewrittenIsReadAgain() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("autolink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let object = folder.appendingPathComponent("main.swift.o")
        #expect(AutolinkEntries.entries(inObject: Self.object(["-lswiftCore", "-lFoundation"])) == ["-lswiftCore", "-lFoundation"])

        try Self.object(["-lswiftCore", "-lA"]).write(to: object, options: .atomic)
        #expect(AutolinkEntries.entries(inFile: object.path) == ["-lswiftCore", "-lA"])
        // Replaced by rename, as the compiler writes it: the same size, a new file.
        try Self.object(["-lswiftCore", "-lB"]).write(to: object, options: .atomic)
        #expect(AutolinkEntries.entries(inFile: object.path) == ["-lswiftCore", "-lB"])
        // Rewritten in place with another import.
        try Self.object(["-lswiftCore", "-lB", "-lDispatch"]).write(to: object)
        #expect(AutolinkEntries.entries(inFile: object.path) == ["-lswiftCore", "-lB", "-lDispatch"])

        // The file a link reads: every object's entries once, in order of first appearance.
        let other = folder.appendingPathComponent("Kit.swift.o")
        try Self.object(["-lDispatch", "-lKit"]).write(to: other, options: .atomic)
        let output = folder.appendingPathComponent("Page.autolink")
        #expect(AutolinkEntries.write(for: ["/t/swift-autolink-extract", object.path, other.path, "-o", output.path]))
        #expect(try String(contentsOf: output, encoding: .utf8) == "-lswiftCore\n-lB\n-lDispatch\n-lKit\n")
        // The same entries again leave the file as it is; new ones replace it.
        let written = try #require(FileIdentity(path: output.path))
        #expect(AutolinkEntries.write(for: ["/t/swift-autolink-extract", object.path, other.path, "-o", output.path]))
        #expect(FileIdentity(path: output.path) == written)
        try Self.object(["-lswiftCore"]).write(to: object, options: .atomic)
        #expect(AutolinkEntries.write(for: ["/t/swift-autolink-extract", object.path, other.path, "-o", output.path]))
        #expect(try String(contentsOf: output, encoding: .utf8) == "-lswiftCore\n-lDispatch\n-lKit\n")
        // Not an object (an archive, say): the tool itself must run.
        try Data("!<arch>\n".utf8).write(to: other, options: .atomic)
        #expect(!AutolinkEntries.write(for: ["/t/swift-autolink-extract", object.path, other.path, "-o", output.path]))
    }
}
