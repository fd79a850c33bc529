#!/usr/bin/env python3
"""Compares two `cumap barrier` (or two `cumap contention`) runs on one chip
(or one set of GPUs): per case (implementation or op, k, set, counter home,
and across GPUs the counter's GPU) the relative difference
of each case's number (a barrier's per_barrier_ns, an operation's median_ns)
and, for barriers, of the episodes' median too; the median and largest over
cases and how many agree within 2 %; then the table at k = every unit of the
first run.

usage: bench/analyze_sync.py DIR_A DIR_B"""
import csv, os, sys


def load(d):
    name = "barrier.csv" if os.path.exists(f"{d}/barrier.csv") else "contention.csv"
    with open(f"{d}/{name}", newline="") as f:
        rows = list(csv.DictReader(f))
    kind = "implementation" if name == "barrier.csv" else "op"
    # counter_gpu: only in a run across GPUs (g0, g1, each; empty for own).
    return name, kind, {(r[kind], r["k"], r["set"], r["counter_home"], r.get("counter_gpu", "")): r for r in rows}


def compare(a, b, column):
    diffs = []
    for key, ra in a.items():
        rb = b.get(key)
        if rb and ra.get(column) and rb.get(column):
            x, y = float(ra[column]), float(rb[column])
            diffs.append((abs(x - y) / y, key))
    diffs.sort()
    if not diffs:
        return f"{column}: no case in both"
    small = [d for d, key in diffs if int(key[1]) >= 16]
    return (f"{column}: {len(diffs)} cases in both; median |relative difference| "
            f"{100 * diffs[len(diffs) // 2][0]:.2f} %, largest {100 * diffs[-1][0]:.2f} % at {diffs[-1][1]}; "
            f"within 2 %: {sum(d < 0.02 for d, _ in diffs)} of {len(diffs)} "
            f"(k >= 16: {sum(d < 0.02 for d in small)} of {len(small)})")


def main(a_dir, b_dir):
    name, kind, a = load(a_dir)
    _, _, b = load(b_dir)
    headline = "per_barrier_ns" if kind == "implementation" else "median_ns"
    print(f"{name}:")
    print(compare(a, b, headline))
    if headline != "median_ns":
        print(compare(a, b, "median_ns"))
    top = max(int(key[1]) for key in a)
    across = any(key[4] for key in a)
    gpu_title, gpu_rule = (" counter GPU |", "---|") if across else ("", "")
    print(f"\nat k = {top}:")
    print(f"| {kind} | set | counter home |{gpu_title} {headline} (A) | {headline} (B) | p05-p95 ns (A) |")
    print(f"|---|---|---|{gpu_rule}---|---|---|")
    for key in sorted(a):
        if int(key[1]) != top:
            continue
        ra, rb = a[key], b.get(key, {})
        gpu = f" {key[4]} |" if across else ""
        print(f"| {key[0]} | {key[2]} | {key[3]} |{gpu} {ra[headline] or ra['note']} | {rb.get(headline, '')} | "
              f"{ra['p05_ns']}-{ra['p95_ns']} |")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
