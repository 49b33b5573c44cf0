@preconcurrency import Glibc
import Foundation
import Synchronization
import Testing
import TourCore
import TourTestSupport

/// A recording is a valid asciicast v2 file, and replaying it gives the screen it recorded.
@Suite("Asciicast recordings", .bodiesBelowTheRunner)
struct AsciicastRecorderTests {
    static func temporaryFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tour-cast-\(UUID().uuidString)-\(name)").path
    }

    @Test func theFileHasAVersion2HeaderAndEventsInTimeOrder() async throws {
        let path = Self.temporaryFile("a.cast")
        defer { unlink(path) }
        let now = Mutex<UInt64>(5_000_000_000)
        let recorder = try AsciicastRecorder(path: path, width: 80, height: 24, title: "ConcurrencyTour, page 8: Barrier",
                                             environment: ["TERM": "xterm-256color"], clock: { now.withLock { $0 } })
        recorder.mark("run of page 8")
        recorder.record("hello\r\n")
        now.withLock { $0 += 250_000_000 }
        recorder.record("\u{1B}[2;3Hworld \"quoted\" / é")
        recorder.resize(width: 120, height: 40)
        now.withLock { $0 += 1_500_000_000 }
        recorder.record("")
        recorder.record("end\r\n")
        try recorder.finish()
        let (header, events) = try Asciicast.read(path)
        #expect(header["version"] as? Int == 2)
        #expect(header["width"] as? Int == 80)
        #expect(header["height"] as? Int == 24)
        #expect(header["title"] as? String == "ConcurrencyTour, page 8: Barrier")
        #expect(header["idle_time_limit"] as? Int == AsciicastRecorder.idleTimeLimit)
        let all = try Asciicast.readAll(path).events
        #expect(all.map(\.code) == ["m", "o", "o", "r", "o"])
        #expect(all[0].text == "run of page 8" && all[3].text == "120x40")
        let timestamp = try #require(header["timestamp"] as? Int)
        #expect(abs(Double(timestamp) - Date().timeIntervalSince1970) < 3600)
        #expect((header["env"] as? [String: String])?["TERM"] == "xterm-256color")
        // An empty piece of output is no event.
        #expect(events.map(\.text) == ["hello\r\n", "\u{1B}[2;3Hworld \"quoted\" / é", "end\r\n"])
        #expect(events.map(\.time) == [0, 0.25, 1.75])
    }

    @Test func aFolderOrALinkIsRefusedBeforeAnythingIsWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.path
        #expect(AsciicastRecorder.problem(withTarget: folder, option: "--cast")?.contains("is a folder; name a file in it, for example --cast \(folder)/demo.cast") == true)
        let link = Self.temporaryFile("link.cast")
        symlink("/etc/passwd", link)
        defer { unlink(link) }
        #expect(AsciicastRecorder.problem(withTarget: link, option: "--record")?.contains("is a symbolic link to /etc/passwd; the recording would replace the link") == true)
        #expect(throws: AsciicastRecorder.Failure.self) { try AsciicastRecorder(path: link, width: 80, height: 24, title: "refused") }
        #expect(AsciicastRecorder.problem(withTarget: "/no/such/folder/x.cast", option: "--cast")?.contains("folder that does not exist") == true)
    }
}
