#!/usr/bin/env python3
"""A step in full-screen play to the frame that shows it: runs `tour play LEVEL` on a pseudo-terminal of 120x40,
presses each thread's digit of one game and times until the last byte of the frame drawn after it (the output then
stays quiet for 0.1 s), over 10 games; prints the median, the 90th percentile and the worst.

Usage, after `swift build --product tour` and a build of the level (`tour levels` builds it):
    scripts/level-screen-bench.py lost-update 1,2,1,2,1,1,1,1,2,2,2
"""
import fcntl
import os
import pty
import select
import statistics
import struct
import sys
import termios
import time

TOUR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "debug", "tour")
QUIET = 0.1


def game(level, steps):
    """One game's step-to-frame times, in milliseconds."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(TOUR, [TOUR, "play", level])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))

    def burst(first_within):
        """Reads the next burst of output; the time its last byte came, or None when none came."""
        last = None
        timeout = first_within
        while True:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return last
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return last
            if not chunk:
                return last
            last = time.monotonic()
            timeout = QUIET

    if burst(30) is None:
        raise SystemExit("no first frame within 30 s")
    times = []
    for thread in steps:
        start = time.monotonic()
        os.write(fd, thread.encode())
        end = burst(10)
        if end is None:
            raise SystemExit(f"no frame after step {thread}")
        times.append((end - start) * 1000)
    os.write(fd, b"q")
    while burst(2) is not None:
        pass
    os.waitpid(pid, 0)
    return times


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    level, steps = sys.argv[1], sys.argv[2].split(",")
    times = sorted(t for _ in range(10) for t in game(level, steps))
    print(f"{level}: {len(times)} steps, median {statistics.median(times):.2f} ms, "
          f"p90 {times[int(len(times) * 0.9)]:.2f} ms, worst {times[-1]:.2f} ms")


main()
