#!/usr/bin/env python3
"""Reads two cumap output directories of one chip (or two chips) and says how
well they agree, matching home classes by the units near them (class numbers
are labels, not ids) and comparing maps cell by cell by unit id.

usage: bench/analyze_runs.py DIR_A DIR_B
Prints, per placement: the headline's Pearson r and median |relative
difference|; per matched class the same; the sides' adjusted Rand index; the
structure tables side by side with their relative difference."""
import csv, json, math, sys
from itertools import combinations


def read_matrix(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    units = [int(x) for x in rows[0][1:]]
    cells = {}
    for row in rows[1:]:
        a = int(row[0])
        for b, v in zip(units, row[1:]):
            if v != "":
                cells[(a, b)] = float(v)
    return cells


def agree(x, y):
    keys = sorted(set(x) & set(y))
    xs, ys = [x[k] for k in keys], [y[k] for k in keys]
    n = len(xs)
    if n < 2:
        return n, float("nan"), float("nan")
    rel = sorted(abs(a - b) / ((a + b) / 2) for a, b in zip(xs, ys))
    return n, pearson(xs, ys), rel[n // 2]


def pearson(xs, ys):
    """Pearson r of two equally long lists; NaN where either is constant."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(xs, ys))
    sxx = sum((a - mx) ** 2 for a in xs)
    syy = sum((b - my) ** 2 for b in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def ari(a, b):
    """Adjusted Rand index of two labelings given as dicts item -> label."""
    items = sorted(set(a) & set(b))
    pairs = lambda n: n * (n - 1) / 2
    cont = {}
    for i in items:
        cont[(a[i], b[i])] = cont.get((a[i], b[i]), 0) + 1
    ra, rb = {}, {}
    for (x, y), n in cont.items():
        ra[x] = ra.get(x, 0) + n
        rb[y] = rb.get(y, 0) + n
    index = sum(pairs(n) for n in cont.values())
    ea, eb, total = sum(pairs(n) for n in ra.values()), sum(pairs(n) for n in rb.values()), pairs(len(items))
    expected = ea * eb / total if total else 0
    top = (ea + eb) / 2 - expected
    return (index - expected) / top if top else 1.0


def homes(d):
    with open(f"{d}/homes.json") as f:
        h = json.load(f)
    side = dict(zip(h["units"], h["unit_side"]))
    near = {c["class"]: set(c["near_units"]) for c in h["classes"]}
    return h, side, near


def main(da, db):
    ma, mb = json.load(open(f"{da}/meta.json")), json.load(open(f"{db}/meta.json"))
    ha, side_a, near_a = homes(da)
    hb, side_b, near_b = homes(db)
    print(f"classes {ha['class_count']} vs {hb['class_count']}; side sizes "
          f"{sorted(len(v) for v in near_a.values())} vs {sorted(len(v) for v in near_b.values())}; "
          f"sides ARI {ari(side_a, side_b):.3f}")
    # Class c of A matches the class of B whose near units overlap it most.
    match = {c: max(near_b, key=lambda k: len(near_a[c] & near_b[k])) for c in near_a}
    moved = sorted(u for u in side_a if u in side_b and match.get(side_a[u]) != side_b[u])
    print(f"class match A->B {match}; units on another side: {moved if moved else 'none'}")
    for m in ma["maps"]:
        p = m["placement"]
        n, r, rel = agree(read_matrix(f"{da}/matrix-{p}.csv"), read_matrix(f"{db}/matrix-{p}.csv"))
        print(f"{p:10s} headline   cells {n:6d}  r {r:.4f}  median rel diff {100 * rel:.2f} %")
        for c, cb in match.items():
            fa, fb = f"{da}/matrix-{p}-home{c}.csv", f"{db}/matrix-{p}-home{cb}.csv"
            try:
                n, r, rel = agree(read_matrix(fa), read_matrix(fb))
            except FileNotFoundError:
                continue
            print(f"{p:10s} class {c}->{cb}  cells {n:6d}  r {r:.4f}  median rel diff {100 * rel:.2f} %")
    sa = {(s["relation"], s["near_units"]): s["median_ns"] for s in ma["structure"]}
    sb = {(s["relation"], s["near_units"]): s["median_ns"] for s in mb["structure"]}
    for k in sorted(set(sa) | set(sb)):
        a, b = sa.get(k), sb.get(k)
        d = f"{100 * (b - a) / a:+.2f} %" if a and b else "-"
        print(f"structure {k[0]:10s} near {k[1]}: {a} vs {b} ns ({d})")


if __name__ == "__main__":
    main(*sys.argv[1:3])
