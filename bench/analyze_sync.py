#!/usr/bin/env python3
"""Compares two `cumap barrier` (or two `cumap contention`) runs on one chip:
per case (implementation or op, k, set, counter home) the relative difference
of the medians, and the median and largest over cases; then the table at k =
every unit of the first run.

usage: bench/analyze_sync.py DIR_A DIR_B"""
import csv, os, sys


def load(d):
    name = "barrier.csv" if os.path.exists(f"{d}/barrier.csv") else "contention.csv"
    with open(f"{d}/{name}", newline="") as f:
        rows = list(csv.DictReader(f))
    kind = "implementation" if name == "barrier.csv" else "op"
    return name, kind, {(r[kind], r["k"], r["set"], r["counter_home"]): r for r in rows}


def main(a_dir, b_dir):
    name, kind, a = load(a_dir)
    _, _, b = load(b_dir)
    diffs = []
    for key, ra in a.items():
        rb = b.get(key)
        if rb and ra["median_ns"] and rb["median_ns"]:
            x, y = float(ra["median_ns"]), float(rb["median_ns"])
            diffs.append((abs(x - y) / y, key))
    diffs.sort()
    print(f"{name}: {len(diffs)} cases in both; median |relative difference| of medians "
          f"{100 * diffs[len(diffs) // 2][0]:.2f} %, largest {100 * diffs[-1][0]:.2f} % at {diffs[-1][1]}; "
          f"cases within 2 %: {sum(d < 0.02 for d, _ in diffs)} of {len(diffs)}")
    top = max(int(k) for (_, k, _, _) in a)
    print(f"\nat k = {top}:")
    print(f"| {kind} | set | counter home | median ns (A) | median ns (B) | p05-p95 ns (A) |")
    print("|---|---|---|---|---|---|")
    for key in sorted(a):
        if int(key[1]) != top:
            continue
        ra, rb = a[key], b.get(key, {})
        print(f"| {key[0]} | {key[2]} | {key[3]} | {ra['median_ns'] or ra['note']} | {rb.get('median_ns', '')} | "
              f"{ra['p05_ns']}-{ra['p95_ns']} |")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
