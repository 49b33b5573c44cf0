import Foundation

/// Reads asciicast v2 files as asciinema does, for tests of recordings.
public enum Asciicast {
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    /// The header and the `[time, "o", text]` events of the file at `path`; a line that is neither is an error.
    public static func read(_ path: String) throws -> (header: [String: Any], events: [(time: Double, text: String)]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        guard let first = lines.first, let header = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any] else {
            throw Malformed(description: "no header line in \(path)")
        }
        var events: [(Double, String)] = []
        for line in lines.dropFirst() {
            guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], event.count == 3,
                  event[1] as? String == "o", let text = event[2] as? String,
                  let time = (event[0] as? NSNumber)?.doubleValue else {
                throw Malformed(description: "not an output event: \(line)")
            }
            events.append((time, text))
        }
        return (header, events)
    }
}
