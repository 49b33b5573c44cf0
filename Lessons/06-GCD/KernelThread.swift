import Foundation

/// What the kernel says about one thread of this process, read from `/proc/self/task/<id>/`.
enum KernelThread {
    /// The thread's name, as `ps -L` and `top -H` show it: libdispatch names its workers after their root queue.
    static func name(of thread: Int32) -> String {
        read("comm", of: thread) ?? "unknown"
    }

    /// The thread's scheduler state and the kernel function it sleeps in, such as `sleeping in sigsuspend`.
    static func whereabouts(of thread: Int32) -> String {
        guard let stat = read("stat", of: thread) else { return "no longer listed in /proc" }
        // The state letter follows the name in parentheses, which may itself contain spaces.
        let afterName = stat.split(separator: ")").last.map(String.init) ?? ""
        let state = afterName.split(separator: " ").first.map(String.init) ?? "?"
        let description = ["R": "running", "S": "sleeping", "D": "waiting for the disk", "Z": "a zombie"][state] ?? "state \(state)"
        // wchan names the kernel function a sleeping thread waits in; it reads 0 when the kernel will not say.
        guard let channel = read("wchan", of: thread), channel != "0", !channel.isEmpty else { return description }
        // The compiler may have suffixed a kernel function it specialised, as in `sigsuspend.isra.0`.
        return "\(description) in \(channel.split(separator: ".").first.map(String.init) ?? channel)"
    }

    private static func read(_ file: String, of thread: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/self/task/\(thread)/\(file)", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
