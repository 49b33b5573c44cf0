import Foundation
import PageProtocol

/// The `manifest.txt` of a kept copy of a page's files (its original in `.tour/originals/<folder>/`, and each
/// version a reset replaced in `.tour/before-reset/<folder>/<n>/`): which page it belongs to, and each file's hash,
/// size and name.
///
///     tour page files v1 for 01-Operation
///     9a3c5e0f12b4d6e8 12188 main.swift
///
/// Reset writes a file for each entry, so a manifest is trusted only once every name is a plain `.swift` file name
/// that stays inside the page's folder, and the manifest is the page's own.
public struct PageFileManifest: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        /// `contentHash` of the file's bytes.
        public var hash: UInt64
        public var size: Int
        /// A file name in the page's folder, such as `main.swift`.
        public var name: String

        public init(hash: UInt64, size: Int, name: String) {
            self.hash = hash
            self.size = size
            self.name = name
        }
    }

    /// What is wrong with a manifest, in words that name what would be right.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case notText
        case unknownFirstLine(String)
        case otherPage(String)
        case damagedLine(number: Int, String)
        case unsafeName(line: Int, String, why: String)
        case listedTwice(String)
        case withoutMainFile(String)

        public var description: String {
            switch self {
            case .empty: "it is empty"
            case .notText: "it is not text (it is not valid UTF-8, or holds a NUL byte)"
            case .unknownFirstLine(let line): "its first line is \(EchoedInput.quoted(line)), not '\(PageFileManifest.firstLinePrefix) <folder>'"
            case .otherPage(let folder): "it belongs to page folder \(EchoedInput.quoted(folder)), not to this page"
            case .damagedLine(let number, let line): "line \(number) is \(EchoedInput.quoted(line)), not '<hash> <size> <name>'"
            case .unsafeName(let line, let name, let why): "line \(line) names \(EchoedInput.quoted(name)), \(why)"
            case .listedTwice(let name): "it lists \(EchoedInput.quoted(name)) twice"
            case .withoutMainFile(let main): "it does not list the page's \(main)"
            }
        }
    }

    static let firstLinePrefix = "tour page files v1 for"

    /// The page folder under `Lessons/` this manifest belongs to, such as `01-Operation`.
    public var folder: String
    public var entries: [Entry]

    public init(folder: String, entries: [Entry]) {
        self.folder = folder
        self.entries = entries
    }

    /// The manifest as its file holds it.
    public var text: String {
        "\(Self.firstLinePrefix) \(folder)\n" + entries.map { "\(String($0.hash, radix: 16)) \($0.size) \($0.name)\n" }.joined()
    }

    /// Reads a manifest and checks it belongs to the page in `folder` whose main file is `mainFile`.
    public static func parse(_ data: Data, folder: String, mainFile: String) throws(Problem) -> PageFileManifest {
        guard !data.isEmpty, data.contains(where: { !Self.isSpace($0) }) else { throw .empty }
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else { throw .notText }
        // Split on the byte: as Characters, "\r\n" is one, and a line ending in "\r" would swallow the next.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        let first = lines.removeFirst()
        guard first.hasPrefix(firstLinePrefix + " ") else { throw .unknownFirstLine(first) }
        let owner = String(first.dropFirst(firstLinePrefix.count + 1))
        guard owner == folder else { throw .otherPage(owner) }
        var entries: [Entry] = []
        var names: Set<String> = []
        for (offset, line) in lines.enumerated() {
            let number = offset + 2
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count <= 16, parts[0].allSatisfy(\.isHexDigit), let hash = UInt64(parts[0], radix: 16),
                  parts[1].allSatisfy(\.isASCII), let size = Int(parts[1]), size >= 0 else {
                throw .damagedLine(number: number, line)
            }
            let name = String(parts[2])
            if let why = unsafety(of: name) { throw .unsafeName(line: number, name, why: why) }
            guard names.insert(name).inserted else { throw .listedTwice(name) }
            entries.append(Entry(hash: hash, size: size, name: name))
        }
        guard names.contains(mainFile) else { throw .withoutMainFile(mainFile) }
        return PageFileManifest(folder: folder, entries: entries)
    }

    /// Why `name` cannot be one of a page's files, or nil when it can: a plain `.swift` file name in the page's folder.
    static func unsafety(of name: String) -> String? {
        if name.hasPrefix("/") { return "an absolute path; reset writes only inside the page's folder" }
        if name.contains("/") { return "a path into another folder; reset writes only inside the page's folder" }
        if name == ".." || name == "." { return "not a file name" }
        if !name.hasSuffix(".swift") || name == ".swift" { return "not a Swift file; a page's files are .swift files" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "with a control character in it" }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
