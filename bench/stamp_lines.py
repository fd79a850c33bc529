#!/usr/bin/env python3
"""Runs a command and prints each line it writes (stdout and stderr) with the
seconds since it started, then when it exited: the gap between the last line
and the exit is what the process spends after its last word (freeing memory,
the CUDA runtime tearing down its context).

usage: bench/stamp_lines.py CMD [ARG...]"""
import subprocess, sys, time


def main(argv):
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    for line in p.stdout:
        print(f"[{time.monotonic() - t0:7.3f} s] {line}", end="", flush=True)
    rc = p.wait()
    print(f"[{time.monotonic() - t0:7.3f} s] exit {rc}")
    return rc


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
