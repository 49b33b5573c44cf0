#!/usr/bin/env python3
"""A step in play to its lines: writes each thread number of one game to `tour play LEVEL --plain` and times how long
its "Step N." line takes to come back, over 10 games; prints the median, the 90th percentile and the worst.

Usage, after `swift build --product tour` and a build of the level (`tour levels` builds it):
    scripts/level-step-bench.py lost-update 1,2,1,2,1,1,1,1,2,2,2
"""
import os
import select
import statistics
import subprocess
import sys
import time

TOUR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "debug", "tour")


def game(level, steps):
    """One game's step times, in milliseconds."""
    process = subprocess.Popen([TOUR, "play", level, "--plain"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    output = b""

    def read_until(token, seconds=10):
        nonlocal output
        deadline = time.monotonic() + seconds
        while token not in output:
            ready, _, _ = select.select([process.stdout], [], [], max(0, deadline - time.monotonic()))
            if not ready:
                raise SystemExit(f"no {token!r} within {seconds} s: is every step of the game enabled when it comes?")
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                raise SystemExit(f"tour ended before {token!r}")
            output += chunk

    read_until(b"Locks:")
    times = []
    for number, thread in enumerate(steps, 1):
        start = time.monotonic()
        process.stdin.write(f"{thread}\n".encode())
        read_until(b"Step %d." % number)
        times.append((time.monotonic() - start) * 1000)
    process.stdin.close()
    process.wait()
    return times


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    level, steps = sys.argv[1], sys.argv[2].split(",")
    times = [t for _ in range(10) for t in game(level, steps)]
    times.sort()
    print(f"{level}: {len(times)} steps, median {statistics.median(times):.2f} ms, "
          f"p90 {times[int(len(times) * 0.9)]:.2f} ms, worst {times[-1]:.2f} ms")


main()
