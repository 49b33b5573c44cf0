import Foundation
import Testing

/// Screen snapshots kept as text files in `Snapshots/`, one row per line, compared exactly.
///
/// `TOUR_RECORD_SNAPSHOTS=1 swift test --filter TourInterfaceTests` writes them afresh, and every snapshot test then
/// fails, saying what it recorded, so a recording run never passes for a checked one: read the diff (`git diff
/// Tests/TourInterfaceTests/Snapshots`), then run the tests again without the variable.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots")

    static var isRecording: Bool { ProcessInfo.processInfo.environment["TOUR_RECORD_SNAPSHOTS"] == "1" }

    static func expect(_ lines: [String], matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent(name + ".txt")
        let actual = lines.joined(separator: "\n") + "\n"
        if isRecording {
            let previous = try? String(contentsOf: file, encoding: .utf8)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try actual.write(to: file, atomically: true, encoding: .utf8)
            } catch {
                Issue.record("could not record snapshot \(name).txt: \(error)", sourceLocation: sourceLocation)
                return
            }
            let what = previous == nil ? "new" : previous == actual ? "unchanged" : "changed"
            Issue.record("recorded snapshot \(name).txt (\(what)), as TOUR_RECORD_SNAPSHOTS=1 asks; run again without it to check",
                         sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no snapshot \(name).txt; record it with TOUR_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        let expectedLines = expected.components(separatedBy: "\n")
        let actualLines = actual.components(separatedBy: "\n")
        let differences = (0..<max(expectedLines.count, actualLines.count)).filter { index in
            expectedLines.indices.contains(index) ? !actualLines.indices.contains(index) || expectedLines[index] != actualLines[index] : true
        }
        let report = differences.prefix(6).map { index in
            let expectedLine = expectedLines.indices.contains(index) ? expectedLines[index] : "(none)"
            let actualLine = actualLines.indices.contains(index) ? actualLines[index] : "(none)"
            return "row \(index):\n  expected \(expectedLine)\n  actual   \(actualLine)"
        }.joined(separator: "\n")
        Issue.record("snapshot \(name) differs in \(differences.count) rows:\n\(report)", sourceLocation: sourceLocation)
    }
}
