@preconcurrency import Glibc
import Foundation
import Synchronization

/// How one rebuild of a page goes.
public enum BuildRoute: Sendable, Equatable {
    /// Only the jobs the page's program needs, run directly: its compile jobs (no module for others to import, no
    /// index) and a link with `ld.lld`, as `swiftc -###` laid them out from SwiftPM's last plan for the page.
    case direct
    /// `swift build --product`; `reason` says why the direct route could not be taken (nil when it was not asked for).
    case swiftBuild(reason: String?)
}

/// The llbuild plan SwiftPM wrote on its last build (`<scratch>/<configuration>.yaml`), as far as a page's rebuild
/// needs it: the inputs, outputs and arguments of each compile and link command.
struct BuildPlan {
    struct Command {
        var inputs: [String] = []
        var outputs: [String] = []
        var args: [String] = []
    }

    let file: URL
    private(set) var commands: [String: Command] = [:]

    /// Nil when there is no plan to read.
    ///
    /// Read as bytes: split as `Character`s, the plan's 400 KB took most of the 25 ms of CPU a rebuild spent before
    /// its compile job started.
    init?(file: URL) {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        self.file = file
        let commandStart = Array(#"  "C."#.utf8)
        let commandEnd = Array(#"":"#.utf8)
        let fields = ["inputs", "outputs", "args"].map { (name: $0, start: Array("    \($0): [".utf8)) }
        let decoder = JSONDecoder()
        var commands: [String: Command] = [:]
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var name: String?
            for line in raw.split(separator: UInt8(ascii: "\n")) {
                if line.starts(with: commandStart) && line.count > commandStart.count + commandEnd.count && line.suffix(2).elementsEqual(commandEnd) {
                    let command = String(decoding: line.dropFirst(3).dropLast(2), as: UTF8.self)
                    // Only what builds Swift modules and links programs; the plan has hundreds of other entries.
                    name = command.hasSuffix(".module") || command.hasSuffix(".exe") ? command : nil
                    continue
                }
                guard let current = name else { continue }
                guard line.starts(with: [32, 32, 32, 32]) else {
                    name = nil
                    continue
                }
                guard let field = fields.first(where: { line.starts(with: $0.start) }) else { continue }
                // The value is the JSON array that starts with the field's `[`.
                let values = (try? decoder.decode([String].self, from: Data(line.dropFirst(field.start.count - 1)))) ?? []
                switch field.name {
                case "inputs": commands[current, default: Command()].inputs = values
                case "outputs": commands[current, default: Command()].outputs = values
                default: commands[current, default: Command()].args = values
                }
            }
        }
        self.commands = commands
    }

    /// The plans read so far, by file, with the identity of the file they were read from.
    private static let kept = Mutex<[String: (identity: FileIdentity, plan: BuildPlan)]>([:])

    /// The plan in `file`, read again only when the file is not the one last read (SwiftPM rewrites it on each of its
    /// builds, and a rewrite changes its inode, change time or size; the change time moves by the kernel's clock tick,
    /// and a build that rewrites the plan takes far longer than one); nil when there is none. A page's rebuilds after
    /// the first then start their compile job without reading it.
    static func load(file: URL) -> BuildPlan? {
        guard let identity = FileIdentity(path: file.path) else { return nil }
        if let known = kept.withLock({ $0[file.path] }), known.identity == identity { return known.plan }
        guard let plan = BuildPlan(file: file) else { return nil }
        // Changed while it was read: keep nothing, so the next rebuild reads it again.
        if FileIdentity(path: file.path) == identity { kept.withLock { $0[file.path] = (identity, plan) } }
        return plan
    }

    /// `C.<product>-<triple>-<configuration>.<kind>`: `module` compiles it, `exe` links it.
    func command(product: String, configuration: String, kind: String) -> Command? {
        commands.first { $0.key.hasPrefix("C.\(product)-") && $0.key.hasSuffix("-\(configuration).\(kind)") }?.value
    }

    /// The command that writes `output`.
    func command(writing output: String) -> Command? {
        commands.values.first { $0.outputs.contains(output) }
    }

    /// Why the modules `command` imports (LessonKit, and what LessonKit imports) are not what their sources say now,
    /// or nil when every one of their sources is older than its object file and no source was added or removed.
    func staleDependency(of command: Command) -> String? {
        var seen: Set<String> = []
        var pending = command.inputs.filter { $0.hasSuffix(".swiftmodule") }
        while let module = pending.popLast() {
            guard seen.insert(module).inserted, let dependency = self.command(writing: module) else { continue }
            let name = URL(fileURLWithPath: module).deletingPathExtension().lastPathComponent
            if let reason = Self.staleness(of: dependency, named: name) { return reason }
            pending += dependency.inputs.filter { $0.hasSuffix(".swiftmodule") }
        }
        return nil
    }

    /// Compares each source of a module with the object compiled from it (SwiftPM's driver recompiles only the files
    /// that changed, so the module's other outputs can be older than its sources and still be right).
    private static func staleness(of command: Command, named name: String) -> String? {
        guard let mapIndex = command.args.firstIndex(of: "-output-file-map"), mapIndex + 1 < command.args.count,
              let data = FileManager.default.contents(atPath: command.args[mapIndex + 1]),
              let map = try? JSONDecoder().decode([String: [String: String]].self, from: data) else {
            return "\(name) has not been built"
        }
        let sources = map.keys.filter { $0.hasSuffix(".swift") }
        for source in sources.sorted() {
            let file = (source as NSString).lastPathComponent
            guard let sourceTime = modificationTime(source) else { return "\(name)'s \(file) was deleted" }
            guard let object = map[source]?["object"], let objectTime = modificationTime(object), objectTime >= sourceTime else {
                return "\(name) changed (\(file))"
            }
        }
        let known = Set(sources)
        for folder in Set(sources.map { ($0 as NSString).deletingLastPathComponent }).sorted() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if let added = files.sorted().first(where: { $0.hasSuffix(".swift") && !known.contains(folder + "/" + $0) }) {
                return "\(name) has a new file (\(added))"
            }
        }
        return nil
    }
}

/// What tells one version of a file from the next without reading it: a write changes its change time, a
/// replacement by rename its inode.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var changed: Int
    var modified: Int

    /// Nil when `path` is not there.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        changed = info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec
        modified = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
    }
}

/// The modification time of `path` in nanoseconds, or nil when it is not there.
func modificationTime(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
}

/// The jobs of a page's direct rebuild, derived once from SwiftPM's plan with `swiftc -###` and `clang -###`, and
/// kept on disk beside the plan under a key of the plan's commands and the toolchain's programs.
struct DirectJobs: Codable, Equatable {
    /// Changes when the plan's commands for the page or the toolchain change.
    var key: String
    /// The frontend's compile jobs, run side by side (the driver batches a page's files over the cores).
    var compile: [[String]]
    /// `swift-autolink-extract`, which lists the libraries the objects import, for the link; nil with `link` nil.
    var autolink: [String]?
    /// `ld.lld` called directly; nil when the toolchain has none, and SwiftPM's own link command is used instead.
    var link: [String]?

    /// Bump when what is derived changes, so jobs kept by an older `tour` are derived again.
    static let version = "direct-2"
    /// Stands in for the autolink file in the line `clang -###` prints, to be replaced by a reference to the real one:
    /// clang expands response files, so the libraries of the day would otherwise be frozen into the cached line.
    static let autolinkMarker = "-lTOURDIRECTAUTOLINKMARKER"

    enum DerivationError: Error, CustomStringConvertible {
        case failed(String)
        var description: String {
            switch self { case .failed(let why): why }
        }
    }

    /// The key of `compile` and `link`: their arguments and the identity (size and time) of the programs they run.
    static func key(compile: [String], link: [String]) -> String {
        let toolchain = URL(fileURLWithPath: compile.first ?? "").deletingLastPathComponent().path
        let programs = [compile.first ?? "", "swift-frontend", "clang", "ld.lld", "swift-autolink-extract"].map { program -> String in
            let path = program.hasPrefix("/") ? program : toolchain + "/" + program
            var info = stat()
            guard stat(path, &info) == 0 else { return "\(program):none" }
            return "\(program):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        // A response file's name stays the same when the files it lists change (a helper file added).
        let listed = (compile + link).filter { $0.hasPrefix("@") }.map { argument -> String in
            FileManager.default.contents(atPath: String(argument.dropFirst())).map { String(decoding: $0, as: UTF8.self) } ?? "none"
        }
        let text = ([version] + compile + ["|"] + link + ["|"] + listed + ["|"] + programs).joined(separator: "\u{0}")
        return String(contentHash(Data(text.utf8)), radix: 16)
    }

    /// Reads the jobs kept in `file` if they match `key`, else derives them and keeps them there.
    static func load(from file: URL, compile: [String], link: [String], packageRoot: URL) throws -> DirectJobs {
        let key = key(compile: compile, link: link)
        if let data = FileManager.default.contents(atPath: file.path),
           let kept = try? JSONDecoder().decode(DirectJobs.self, from: data), kept.key == key {
            return kept
        }
        let jobs = try derive(compile: compile, link: link, key: key, packageRoot: packageRoot, scratch: file.deletingLastPathComponent())
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? JSONEncoder().encode(jobs).write(to: file, options: .atomic)
        return jobs
    }

    /// Asks the driver which jobs the plan's commands stand for, and keeps the ones a run of the program needs.
    static func derive(compile: [String], link: [String], key: String, packageRoot: URL, scratch: URL) throws -> DirectJobs {
        guard let driver = compile.first, let linkDriver = link.first else { throw DerivationError.failed("the plan's commands are empty") }
        // Without `-incremental` the driver lists every job, not only those its last build left undone.
        let compileArguments = compile.dropFirst().filter { $0 != "-incremental" && $0 != "-parseable-output" }
        let compileJobs = try jobLines(driver, ["-###"] + compileArguments, in: packageRoot)
            .filter { $0.count > 2 && $0[1] == "-frontend" && $0[2] == "-c" }
            .map(withoutIndexing)
        guard !compileJobs.isEmpty else { throw DerivationError.failed("swiftc -### listed no compile job") }

        let linkJobs = try jobLines(linkDriver, ["-###"] + link.dropFirst() + ["-use-ld=lld"], in: packageRoot)
        guard let autolink = linkJobs.first(where: { $0.first?.hasSuffix("swift-autolink-extract") == true }),
              let autolinkOutput = autolink.firstIndex(of: "-o").map({ autolink[$0 + 1] }),
              let clang = linkJobs.first(where: { $0.first?.hasSuffix("clang") == true }),
              let autolinkReference = clang.firstIndex(of: "@" + autolinkOutput) else {
            // No lld link to be had from this toolchain: SwiftPM's own link command still links.
            return DirectJobs(key: key, compile: compileJobs, autolink: nil, link: nil)
        }
        let marker = scratch.appendingPathComponent("autolink-marker")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try Data((autolinkMarker + "\n").utf8).write(to: marker, options: .atomic)
        var clangArguments = Array(clang.dropFirst())
        clangArguments[autolinkReference - 1] = "@" + marker.path
        let linker = try jobLines(clang[0], ["-###"] + clangArguments, in: packageRoot)
            .first { $0.first?.hasSuffix("ld.lld") == true && $0.contains(autolinkMarker) }
        guard let linker else { return DirectJobs(key: key, compile: compileJobs, autolink: nil, link: nil) }
        return DirectJobs(key: key, compile: compileJobs, autolink: autolink,
                          link: linker.map { $0 == autolinkMarker ? "@" + autolinkOutput : $0 })
    }

    /// The index store is for an editor's cross-references; SwiftPM's next build brings it up to date. Writing it
    /// costs about a sixth of the compile job.
    static func withoutIndexing(_ job: [String]) -> [String] {
        var result: [String] = []
        var skipNext = false
        for argument in job {
            if skipNext {
                skipNext = false
            } else if argument == "-index-store-path" {
                skipNext = true
            } else if argument != "-index-system-modules" {
                result.append(argument)
            }
        }
        return result
    }

    /// Runs a driver with `-###` in the package root (its folder goes into the debug info, as SwiftPM's builds have it)
    /// and splits each printed job into its words.
    static func jobLines(_ executable: String, _ arguments: [String], in folder: URL) throws -> [[String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let data: Data
        do {
            data = try process.runCapturingOutput(withErrors: true)
        } catch {
            throw DerivationError.failed("could not start \(executable): \(error)")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw DerivationError.failed("\((executable as NSString).lastPathComponent) -### failed: \(text.split(separator: "\n").first ?? "")")
        }
        return text.split(separator: "\n").map { shellWords(String($0)) }
    }
}

/// Splits a command line as a POSIX shell would, for what drivers print with `-###`: the Swift driver quotes with
/// single quotes, clang with double quotes and backslashes.
func shellWords(_ line: String) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in line {
        if escaped {
            // Inside double quotes a backslash escapes only these; elsewhere it is kept.
            if quote == "\"" && !"$`\"\\\n".contains(character) { word.append("\\") }
            word.append(character)
            escaped = false
        } else if quote == "'" {
            if character == "'" { quote = nil } else { word.append(character) }
        } else if character == "\\" {
            escaped = true
            inWord = true
        } else if quote == "\"" {
            if character == "\"" { quote = nil } else { word.append(character) }
        } else if character == "'" || character == "\"" {
            quote = character
            inWord = true
        } else if character == " " || character == "\t" {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        } else {
            word.append(character)
            inWord = true
        }
    }
    if inWord { words.append(word) }
    return words
}

/// What `swift-autolink-extract` does for a link, done in this process: the libraries the objects ask to be linked
/// with (`import Foundation` asks for `-lFoundation`, and so on), read from each object's `.swift1_autolink_entries`
/// section and written one a line, in order of first appearance. A process less per rebuild.
enum AutolinkEntries {
    static let section = ".swift1_autolink_entries"

    /// Writes the autolink file `command` (a `swift-autolink-extract` job) would write; false when it cannot (an input
    /// that is not a 64-bit little-endian ELF object, such as an archive), and the tool itself must run.
    static func write(for command: [String]) -> Bool {
        guard command.first?.hasSuffix("swift-autolink-extract") == true,
              let outputIndex = command.firstIndex(of: "-o"), outputIndex + 1 < command.count else { return false }
        let inputs = command[1...].enumerated().filter { $0.offset + 1 != outputIndex && $0.offset + 1 != outputIndex + 1 }.map(\.element)
        var entries: [String] = []
        var seen: Set<String> = []
        for input in inputs {
            guard let found = Self.entries(inFile: input) else { return false }
            for entry in found where seen.insert(entry).inserted { entries.append(entry) }
        }
        let text = Data(entries.map { $0 + "\n" }.joined().utf8)
        let output = command[outputIndex + 1]
        // Nearly always what the last link read: the page's imports did not change. An atomic write syncs the file to
        // disk first, which took 9 ms between the compile job's end and the link's start.
        if FileManager.default.contents(atPath: output) == text { return true }
        return (try? text.write(to: URL(fileURLWithPath: output), options: .atomic)) != nil
    }

    /// The entries read so far, by object file, with the identity of the file they were read from.
    private static let kept = Mutex<[String: (identity: FileIdentity, entries: [String])]>([:])

    /// The entries of the object at `path`, read again only when the file is not the one last read: of a page's
    /// 4.8 MB of objects, a rebuild changes only the page's own, and LessonKit's stay as they were.
    static func entries(inFile path: String) -> [String]? {
        guard let identity = FileIdentity(path: path) else { return nil }
        if let known = kept.withLock({ $0[path] }), known.identity == identity { return known.entries }
        guard let data = FileManager.default.contents(atPath: path), let found = entries(inObject: data) else { return nil }
        // Changed while it was read: keep nothing, so the next link reads it again.
        if FileIdentity(path: path) == identity { kept.withLock { $0[path] = (identity, found) } }
        return found
    }

    /// The section's NUL-separated entries, empty when the object has no such section; nil when `data` is not an ELF64
    /// little-endian object.
    static func entries(inObject data: Data) -> [String]? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [String]? in
            guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
                  bytes[4] == 2, bytes[5] == 1 else { return nil }
            func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Int? {
                guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else { return nil }
                return Int(exactly: T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self)))
            }
            guard let sectionTable = integer(0x28, UInt64.self), let entrySize = integer(0x3A, UInt16.self),
                  let count = integer(0x3C, UInt16.self), let namesIndex = integer(0x3E, UInt16.self),
                  entrySize >= 64, namesIndex < count,
                  let namesOffset = integer(sectionTable + namesIndex * entrySize + 0x18, UInt64.self) else { return nil }
            for index in 0..<count {
                let header = sectionTable + index * entrySize
                guard let nameOffset = integer(header, UInt32.self), let offset = integer(header + 0x18, UInt64.self),
                      let size = integer(header + 0x20, UInt64.self) else { return nil }
                let nameStart = namesOffset + nameOffset
                guard nameStart < bytes.count else { return nil }
                let name = bytes[nameStart...].prefix { $0 != 0 }
                guard name.elementsEqual(section.utf8) else { continue }
                guard offset + size <= bytes.count else { return nil }
                return bytes[offset..<(offset + size)].split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            }
            return []
        }
    }
}
