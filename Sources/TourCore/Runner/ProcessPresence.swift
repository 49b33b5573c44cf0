@preconcurrency import Glibc

/// True once `pid` no longer exists, not even as a zombie: what a file or folder left by a process that is gone (a
/// crash, a reboot) is known by.
public func processIsGone(_ pid: pid_t) -> Bool {
    kill(pid, 0) == -1 && errno == ESRCH
}
