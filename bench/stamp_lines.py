#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal, as from a shell, and prints each line
it writes (stdout and stderr; a progress bar's \\r-rewritten lines too) with
the seconds since it started, then when it exited: the gap between the last
line and the exit is what the process spends after its last word (freeing
memory, the CUDA runtime tearing down its context). On a terminal a program
writes each line as it ends it; into a pipe it would hold them to the end.

usage: bench/stamp_lines.py CMD [ARG...]"""
import os, pty, re, subprocess, sys, time


def main(argv):
    t0 = time.monotonic()
    leader, follower = pty.openpty()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower, close_fds=True)
    os.close(follower)
    pending = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the follower side closed: the process is gone
            break
        if not chunk:
            break
        now = time.monotonic() - t0
        pending += chunk
        *lines, pending = re.split(rb"[\r\n]+", pending)
        for line in lines:
            if line.strip():
                print(f"[{now:7.3f} s] {line.decode(errors='replace')}", flush=True)
    rc = p.wait()
    if pending.strip():
        print(f"[{time.monotonic() - t0:7.3f} s] {pending.decode(errors='replace')}")
    print(f"[{time.monotonic() - t0:7.3f} s] exit {rc}")
    return rc


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
