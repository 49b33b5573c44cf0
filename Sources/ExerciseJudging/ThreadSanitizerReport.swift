import Foundation
import TourCore

/// One warning Thread Sanitizer wrote on a run's standard error ("WARNING: ThreadSanitizer: data race"), read back
/// as the accesses it names and the first line of the package's own code in each one's stack.
///
/// It reads the frames `ExerciseCheck.threadSanitizerOptions` asks for (`#n function file:line:column`, paths
/// relative to the package), and tolerates the default format too: any `name.swift:line` in a frame is its place.
public struct ThreadSanitizerReport: Sendable, Equatable {
    /// One access the warning names: "Write of size 8 at 0x… by thread T2".
    public struct Access: Sendable, Equatable {
        /// What the access was, in lower case: "write", "previous read", "atomic write".
        public var kind: String
        /// Who made it, in the sanitizer's words: "thread T2", "main thread".
        public var by: String
        /// The first frame in the package's own code (a relative path), else the first with a source line.
        public var place: String?
        /// That frame's function, demangled and shortened ("Person.name.setter"), when the frame names one.
        public var function: String?
    }

    /// The kind of warning: "data race", "heap-use-after-free", "thread leak".
    public var kind: String
    public var accesses: [Access]

    /// One sentence for a failing finding: "Thread Sanitizer found a data race: a write at
    /// Exercises/08-Barrier/main.swift:30 (Person.name.setter) and a previous read at …".
    ///
    /// The sanitizer's thread names are left out: its "T2" counts threads its own way, and would contradict the
    /// lanes ("T2") of the findings beside it.
    public var summary: String {
        let parts = accesses.map { access -> String in
            var text = "a \(access.kind)"
            if let place = access.place { text += " at \(place)" }
            if let function = access.function { text += " (\(function))" }
            return text
        }
        let article = kind.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        return "Thread Sanitizer found \(article) \(kind)" + (parts.isEmpty ? "" : ": " + parts.joined(separator: " and "))
    }

    /// Every warning in `record`'s standard error, in order.
    public static func all(in record: RunRecord) -> [ThreadSanitizerReport] {
        parse(record.output.filter { $0.stream == .stderr && $0.thread == nil }.map(\.text))
    }

    /// Every warning in these lines of standard error, in order.
    public static func parse(_ lines: [String]) -> [ThreadSanitizerReport] {
        var reports: [ThreadSanitizerReport] = []
        var current: ThreadSanitizerReport?
        /// Whether the frames being read still lack a place in the package for the last access.
        var lookingForPlace = false
        for line in lines {
            if let range = line.range(of: "WARNING: ThreadSanitizer: ") {
                if let current { reports.append(current) }
                var kind = String(line[range.upperBound...])
                if let pid = kind.range(of: " (pid=") { kind = String(kind[..<pid.lowerBound]) }
                current = ThreadSanitizerReport(kind: kind.trimmingCharacters(in: .whitespaces), accesses: [])
                lookingForPlace = false
                continue
            }
            guard current != nil else { continue }
            if line.hasPrefix("SUMMARY: ThreadSanitizer:") || line.hasPrefix("==================") {
                if let finished = current { reports.append(finished) }
                current = nil
                continue
            }
            if let access = Self.access(in: line) {
                current?.accesses.append(access)
                lookingForPlace = true
                continue
            }
            if lookingForPlace, let frame = Self.frame(in: line), var report = current, var last = report.accesses.popLast() {
                // A frame in the package (a relative path) is the learner's line; the first frame with a line stands
                // in until one comes.
                let inPackage = !frame.place.hasPrefix("/")
                if last.place == nil || inPackage {
                    last.place = frame.place
                    last.function = frame.function
                }
                report.accesses.append(last)
                current = report
                if inPackage { lookingForPlace = false }
            } else if !line.hasPrefix("    #") {
                lookingForPlace = false
            }
        }
        if let current { reports.append(current) }
        return reports
    }

    /// "  Write of size 8 at 0x7b0c00000010 by thread T2:" as an access.
    static func access(in line: String) -> Access? {
        guard line.hasPrefix("  "), !line.hasPrefix("    "),
              let size = line.range(of: " of size "), let by = line.range(of: " by ", range: size.upperBound..<line.endIndex)
        else { return nil }
        let kind = line[..<size.lowerBound].trimmingCharacters(in: .whitespaces).lowercased()
        // "Location is heap block of size 32 … allocated by main thread" says where the memory is, not who touched it.
        guard kind.hasSuffix("read") || kind.hasSuffix("write") else { return nil }
        var who = String(line[by.upperBound...])
        if let extra = who.range(of: " (") { who = String(who[..<extra.lowerBound]) }
        if who.hasSuffix(":") { who.removeLast() }
        return Access(kind: kind, by: who, place: nil, function: nil)
    }

    /// "    #0 $s4main6PersonC4nameSSvs Exercises/08-Barrier/main.swift:30:13" as a place and a function.
    static func frame(in line: String) -> (place: String, function: String?)? {
        guard line.hasPrefix("    #") else { return nil }
        let words = line.split(separator: " ").map(String.init)
        guard let index = words.firstIndex(where: { Self.sourcePlace($0) != nil }), let place = Self.sourcePlace(words[index]) else {
            return nil
        }
        // The word after `#n` is the function, when the frame has one before its place.
        let function = index >= 2 ? demangled(words[1]) : nil
        return (place, function)
    }

    /// "main.swift:30:13" → "main.swift:30"; nil for a word that is no Swift source place.
    static func sourcePlace(_ word: String) -> String? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasSuffix(".swift"), let line = Int(parts[1]) else { return nil }
        return "\(parts[0]):\(line)"
    }

    /// A Swift symbol's readable name without its module and type signature ("Person.name.setter"); other names as
    /// they are.
    static func demangled(_ symbol: String) -> String {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") else { return symbol }
        guard let pointer = symbol.withCString({ swiftDemangle($0, strlen($0), nil, nil, 0) }) else { return symbol }
        defer { free(pointer) }
        var name = String(cString: pointer)
        if let signature = name.range(of: " : ") { name = String(name[..<signature.lowerBound]) }
        // "closure #1 in Exercise08Barrier.Person.name.setter": drop the module from each dotted name.
        name = name.split(separator: " ").map { word -> String in
            let dotted = word.split(separator: ".", omittingEmptySubsequences: false)
            return dotted.count > 1 ? dotted.dropFirst().joined(separator: ".") : String(word)
        }.joined(separator: " ")
        return name
    }
}

/// The Swift runtime's demangler; the string it returns is `malloc`ed. Declared here, not in `CLinuxSystem`: it is
/// libswiftCore's, not glibc's, and no header a Swift module can import declares it.
@_silgen_name("swift_demangle")
private func swiftDemangle(_ mangledName: UnsafePointer<CChar>?, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
                           _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32) -> UnsafeMutablePointer<CChar>?
