@preconcurrency import Glibc
import CLinuxSystem
import Foundation
import TourCore

/// A short command run to its end on the calling thread, its output collected in a file.
///
/// posix_spawn and a blocking waitpid rather than Foundation's `Process`: `Process`'s wait never returned here for the
/// tmux client that starts the server, and the checkout guard also runs while the test process exits. The output goes
/// to a file rather than a pipe, because a program the command starts (a tmux server) inherits the descriptor and
/// would keep a pipe open for as long as it lives. The test runner's threads block most signals and a spawned program
/// inherits that mask, so the command starts with none blocked and every signal at its default: a tmux server started
/// with SIGCHLD and SIGTERM blocked never sees its panes end and ignores kill-server.
struct BlockingCommand {
    /// How the command ended, and what it wrote.
    struct Finished {
        var exit: ProcessExit
        var output: String
    }

    /// The command could not be started, or did not end in time and was killed (`timedOut`).
    struct Failure: Error, CustomStringConvertible {
        let description: String
        var timedOut = false
    }

    let executable: String
    let arguments: [String]
    /// Whether standard error goes to the same file as standard output, or stays the test process's own.
    var collectsStandardError = true
    /// A command still running after this many seconds is killed, and the run fails with `timedOut`: a test waiting on
    /// a client that never ends would otherwise hang the whole suite (once, a full suite sat idle for ten minutes with a
    /// tmux session open and its test never ending).
    var timeout: Double = 20

    /// Runs the command and blocks until it ends, or until `timeout`; standard input is `/dev/null`.
    func run() throws(Failure) -> Finished {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("tour-command-\(getpid())-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        var fileActions: [ProcessSpawn.FileAction] = [.open(outputPath, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600, as: 1)]
        if collectsStandardError { fileActions.append(.duplicate(1, as: 2)) }
        fileActions.append(.open("/dev/null", flags: O_RDONLY, as: 0))
        // Nothing else of this process: a tmux server the command starts lives on, and a pipe another test had open at
        // that moment (Foundation's `Pipe` is not close-on-exec) would stay open in it, its reader waiting for an end.
        fileActions.append(.closeAll(from: 3))
        let pid: pid_t
        do throws(ProcessSpawn.Failure) {
            pid = try ProcessSpawn(executable, arguments: arguments, fileActions: fileActions, signals: .pristine).start()
        } catch {
            throw Failure(description: error.description)
        }
        // The end is watched through a pidfd, so the wait can give up; where the kernel gives none, it is waited for.
        let pidfd = pidfd_open(pid, 0)
        if pidfd >= 0 {
            defer { close(pidfd) }
            var watched = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            var ready: Int32
            repeat { ready = poll(&watched, 1, Int32(timeout * 1000)) } while ready < 0 && errno == EINTR
            if ready == 0 {
                kill(pid, SIGKILL)
                _ = ProcessExit.reap(pid)
                throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) did not end within \(timeout) s and was killed",
                              timedOut: true)
            }
        }
        let exit = ProcessExit.reap(pid)
        return Finished(exit: exit, output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }
}
