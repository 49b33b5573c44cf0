import Foundation

/// Reads asciicast v2 files as asciinema does, for tests of recordings.
public enum Asciicast {
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    /// The header and the `[time, "o", text]` events of the file at `path`; a line that is no event is an error, and
    /// the resize (`"r"`) and marker (`"m"`) events are left out (`readAll` has them).
    public static func read(_ path: String) throws -> (header: [String: Any], events: [(time: Double, text: String)]) {
        let (header, events) = try readAll(path)
        return (header, events.filter { $0.code == "o" }.map { ($0.time, $0.text) })
    }

    /// The header and every event of the file at `path`, with its code: `o` output, `r` resize ("120x40"), `m` marker.
    public static func readAll(_ path: String) throws -> (header: [String: Any], events: [(time: Double, code: String, text: String)]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        guard let first = lines.first, let header = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any] else {
            throw Malformed(description: "no header line in \(path)")
        }
        var events: [(Double, String, String)] = []
        for line in lines.dropFirst() {
            guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], event.count == 3,
                  let code = event[1] as? String, ["o", "r", "m"].contains(code), let text = event[2] as? String,
                  let time = (event[0] as? NSNumber)?.doubleValue else {
                throw Malformed(description: "not an event: \(line)")
            }
            events.append((time, code, text))
        }
        return (header, events)
    }
}
