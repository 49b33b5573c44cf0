@preconcurrency import Glibc
import CLinuxSystem
import Foundation

/// A pipe whose two ends close on exec, made so atomically (`pipe2`), for a child started with Foundation's `Process`.
///
/// Foundation's `Pipe` is made with `pipe`, without the flag, and `Process` closes the descriptors it finds open in the
/// child only as they were when it looked: a child that another thread starts meanwhile (another test's `tmux`, a page,
/// a build) can inherit the write end and hold the pipe open for as long as it lives, so a reader waiting for the end
/// of the output waits as long. The child's own copy, made by `dup2`, loses the flag and stays open in it.
public struct CloseOnExecPipe: Sendable {
    public let readEnd: Int32
    public let writeEnd: Int32

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws(Failure) {
        var fds: [Int32] = [0, 0]
        guard pipe2(&fds, O_CLOEXEC) == 0 else {
            throw Failure(description: "could not create a pipe: \(String(cString: strerror(errno)))")
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }
}

extension Process {
    /// Runs the process to its end and returns what it wrote on its standard output, and on its standard error too
    /// when `withErrors` (interleaved as written), through a `CloseOnExecPipe`. What it reads is as set before the call.
    public func runCapturingOutput(withErrors: Bool) throws -> Data {
        let pipe = try CloseOnExecPipe()
        let writer = FileHandle(fileDescriptor: pipe.writeEnd, closeOnDealloc: false)
        standardOutput = writer
        if withErrors { standardError = writer }
        let reader = FileHandle(fileDescriptor: pipe.readEnd, closeOnDealloc: true)
        do {
            try run()
        } catch {
            close(pipe.writeEnd)
            throw error
        }
        // Only the child holds the write end now: its end of output is the end of the pipe.
        close(pipe.writeEnd)
        let data = reader.readDataToEndOfFile()
        waitUntilExit()
        return data
    }

    /// Runs the process with `input` on its standard input, through a `CloseOnExecPipe`, and waits for its end.
    public func runFeeding(_ input: Data) throws {
        let pipe = try CloseOnExecPipe()
        standardInput = FileHandle(fileDescriptor: pipe.readEnd, closeOnDealloc: false)
        let writer = FileHandle(fileDescriptor: pipe.writeEnd, closeOnDealloc: true)
        do {
            try run()
        } catch {
            close(pipe.readEnd)
            throw error
        }
        close(pipe.readEnd)
        try writer.write(contentsOf: input)
        try writer.close()
        waitUntilExit()
    }
}
