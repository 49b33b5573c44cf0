import Foundation

/// What the kernel says about one thread of this process, read from `/proc/self/task/<id>/`.
enum KernelThread {
    /// The thread's name, as `ps -L` and `top -H` show it: libdispatch names its workers after their root queue.
    static func name(of thread: Int32) -> String {
        read("comm", of: thread) ?? "unknown"
    }

    /// Where the thread settles: its state and the kernel function it sleeps in, such as `sleeping in sigsuspend`.
    ///
    /// A thread on its way to sleep (the main thread running its exit destructors, say) is running for a moment
    /// first, and may wait on a lock on the way; on a loaded machine that moment is long. So a thread that is running,
    /// or sleeping anywhere but in `expected`, is looked at again every millisecond, for up to `patience` seconds;
    /// what it is doing then is the answer, whatever it is.
    static func whereabouts(of thread: Int32, expected: String, patience: Double = 2) -> String {
        let deadline = DispatchTime.now() + patience
        var answer = whereaboutsNow(of: thread)
        while answer != "sleeping in \(expected)" && answer != "no longer listed in /proc" && DispatchTime.now() < deadline {
            usleep(1_000)
            answer = whereaboutsNow(of: thread)
        }
        return answer
    }

    /// The thread's state and, when it sleeps, the kernel function it sleeps in, as it is at this moment.
    private static func whereaboutsNow(of thread: Int32) -> String {
        guard let state = self.state(of: thread) else { return "no longer listed in /proc" }
        let description = ["R": "running", "S": "sleeping", "D": "waiting for the disk", "Z": "a zombie"][state] ?? "state \(state)"
        // wchan names the kernel function a sleeping thread waits in; it reads 0 when the kernel will not say.
        guard let channel = read("wchan", of: thread), channel != "0", !channel.isEmpty else { return description }
        // The compiler may have suffixed a kernel function it specialised, as in `sigsuspend.isra.0`.
        return "\(description) in \(channel.split(separator: ".").first.map(String.init) ?? channel)"
    }

    /// The state letter of `/proc/…/stat` (R running, S sleeping, …), or nil once the thread is gone.
    private static func state(of thread: Int32) -> String? {
        guard let stat = read("stat", of: thread) else { return nil }
        // The letter follows the name in parentheses, which may itself contain spaces.
        let afterName = stat.split(separator: ")").last.map(String.init) ?? ""
        return afterName.split(separator: " ").first.map(String.init) ?? "?"
    }

    private static func read(_ file: String, of thread: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/self/task/\(thread)/\(file)", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
