@preconcurrency import Glibc
import Testing
import TourCore
import TourTestSupport

/// The one wait-status decoder, checked against statuses the kernel itself produced for real children.
@Suite("Process exit", .bodiesBelowTheRunner)
struct ProcessExitTests {
    /// Runs `script` with `/bin/sh -c` and reaps it; SIGTERM gets its default action and is not blocked, whatever
    /// the test runner did with it, so that `kill -TERM $$` ends the shell.
    private func run(_ script: String) throws -> ProcessExit {
        let pid = try ProcessSpawn("/bin/sh", arguments: ["-c", script], signals: .unblocked(atDefault: [SIGTERM])).start()
        return ProcessExit.reap(pid)
    }

    @Test("An exit code comes back as it was given, 0 to 255")
    func exitCodes() throws {
        #expect(try run("exit 0") == .exited(code: 0))
        #expect(try run("exit 7") == .exited(code: 7))
        #expect(try run("exit 255") == .exited(code: 255))
        #expect(try run("exit 0").succeeded)
        #expect(!(try run("exit 1").succeeded))
    }

    @Test("A signal that ended the process is named")
    func signals() throws {
        #expect(try run("kill -TERM $$") == .killed(signal: SIGTERM))
        #expect(try run("kill -KILL $$") == .killed(signal: SIGKILL))
        #expect(!(try run("kill -TERM $$").succeeded))
    }

    /// A real core dump would write a file into the test's folder, so the core bit is checked on a raw status.
    @Test("Raw statuses decode as Linux encodes them: signal in bits 0–6, core dump in bit 7, exit code in bits 8–15")
    func rawStatuses() {
        #expect(ProcessExit(waitStatus: 3 << 8) == .exited(code: 3))
        #expect(ProcessExit(waitStatus: SIGSEGV | 0x80) == .killed(signal: SIGSEGV))
        #expect(ProcessExit(waitStatus: SIGILL) == .killed(signal: SIGILL))
    }

    @Test("The shell status is the exit code, or 128 plus the signal, as $? shows it")
    func shellStatus() throws {
        #expect(try run("exit 3").shellStatus == 3)
        #expect(try run("kill -TERM $$").shellStatus == 128 + SIGTERM)
    }
}
