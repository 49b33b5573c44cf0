import Foundation
import TourCore

/// A script that could not be written or made executable.
public struct ExecutableWriteFailure: Error, CustomStringConvertible {
    public let description: String
}

/// Writes `text` to `file` and makes it executable, from a short-lived `sh` rather than from this process.
///
/// Tests run in parallel in one multi-threaded process: a file this process had open for writing could still be open
/// in a child another test is forking at that moment, and exec of it would then fail with ETXTBSY ("Text file busy").
public func writeExecutable(_ text: String, to file: URL) throws {
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", file.path]
    try shell.runFeeding(Data(text.utf8))
    guard shell.terminationStatus == 0 else {
        throw ExecutableWriteFailure(description: "could not write \(file.path): sh exited with \(shell.terminationStatus)")
    }
}
