import Foundation
import Presenting
import Testing
import TourCore
import TourTestSupport

/// `tour notes` as a speaker starts it: a real process following a real presenter's socket, its output read back.
@Suite("tour notes following a presenter", .bodiesBelowTheRunner)
struct NotesTerminalTests {
    /// Off a terminal `tour notes` writes each snapshot as the screen's text. It once handed write(2) a pointer to a
    /// one-byte temporary, and sent whatever memory followed it: NUL bytes and fragments of its own structs.
    @Test func followsAPresenterInTextAndEndsWhenThePresenterGoes() async throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("notes-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: runtime) }
        let environment = ["XDG_RUNTIME_DIR": runtime.path]
        // A session is named by its presenter's process id, and `tour notes` clears sockets whose process is dead:
        // this test's process is the presenter.
        let session = String(getpid())
        let publisher = try NotesPublisher(session: session, environment: environment)
        // A follower that connects late gets the latest snapshot at once.
        publisher.publish(PresenterSnapshot(page: 2, pageTitle: "Queue", block: 3, blockCount: 12, current: "Each filter becomes an operation.",
                                            next: "Adding is asynchronous.", notes: ["Point at the two lanes that fill at once."],
                                            elapsedSeconds: 75, upcomingKnobChanges: ["maxConcurrentOperationCount 1 → 3"]))

        let outcome = try await awaitBlocking("tour-notes") { () throws -> (status: Int32, output: Data) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: "tour"))
            process.arguments = ["notes"]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // A safety net, not a wait: a follower that never prints is ended, and the expectations below say so.
            let guardTimer = DispatchWorkItem { if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: guardTimer)
            var read = Data()
            let reader = output.fileHandleForReading
            while !(String(decoding: read, as: UTF8.self).contains("NEXT")) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                read += chunk
            }
            // The presenter quits: the follower must see it go and end by itself.
            publisher.close()
            read += reader.readDataToEndOfFile()
            process.waitUntilExit()
            guardTimer.cancel()
            return (process.terminationStatus, read)
        }

        #expect(outcome.status == 0, "tour notes ended by itself when the presenter went away")
        #expect(!outcome.output.contains(0), "no NUL byte: only the screen's text was written")
        let text = try #require(String(data: outcome.output, encoding: .utf8), "the output is UTF-8")
        #expect(text.contains("Notes for presenter \(session)"))
        #expect(text.contains("Each filter becomes an operation."))
        #expect(text.contains("Point at the two lanes that fill at once."))
        #expect(text.contains("maxConcurrentOperationCount 1 → 3"))
    }

    /// A speaker opens both windows at once: `tour notes` started before the presenter waits for it, then follows it.
    /// Off a terminal it prints each change once: a snapshot that moved only the clock is left out of the log.
    @Test func waitsForAPresenterStartedAfterItAndLogsEachChangeOnce() async throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("notes-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: runtime) }
        let environment = ["XDG_RUNTIME_DIR": runtime.path]
        let session = String(getpid())
        let first = PresenterSnapshot(page: 3, pageTitle: "Async", block: 1, blockCount: 9, current: "Returning is not finishing.",
                                      next: "The operation says when it is done.", notes: ["Point at the loader's span."],
                                      elapsedSeconds: 10, upcomingKnobChanges: [])
        var ticked = first
        ticked.elapsedSeconds = 11
        var next = first
        next.block = 2
        next.current = "The operation says when it is done."
        next.next = nil
        let (clockOnly, second) = (ticked, next)

        let outcome = try await awaitBlocking("tour-notes-waiting") { () throws -> (status: Int32, output: String, errors: String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: "tour"))
            process.arguments = ["notes"]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // A safety net, not a wait: a follower that never prints is ended, and the expectations below say so.
            let guardTimer = DispatchWorkItem { if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: guardTimer)
            func read(_ pipe: Pipe, into text: inout String, until needle: String) {
                while !text.contains(needle) {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { return }
                    text += String(decoding: chunk, as: UTF8.self)
                }
            }
            var said = ""
            read(errors, into: &said, until: "waiting for a presenter")
            // Only now does the presenter start.
            let publisher = try NotesPublisher(session: session, environment: environment)
            var printed = ""
            publisher.publish(first)
            read(output, into: &printed, until: "Point at the loader's span.")
            publisher.publish(clockOnly)
            publisher.publish(second)
            read(output, into: &printed, until: "block 3 of 9")
            publisher.close()
            printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            said += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guardTimer.cancel()
            return (process.terminationStatus, printed, said)
        }

        #expect(outcome.status == 0, "tour notes ended by itself when the presenter went away: \(outcome.errors)")
        #expect(outcome.errors.hasPrefix("tour notes: waiting for a presenter in \(runtime.path)/tour; start one with tour present, or Ctrl-C ends this\n"),
                "\(outcome.errors)")
        #expect(outcome.output.contains("Returning is not finishing."))
        #expect(outcome.output.components(separatedBy: "Notes for presenter \(session)").count - 1 == 2,
                "the first snapshot and the next block, once each; the clock's tick alone printed nothing: \(outcome.output)")
    }
}
