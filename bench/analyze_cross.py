#!/usr/bin/env python3
"""How many flag lines a pair across GPUs needs, and what its cost follows.

usage: analyze_cross.py RUN_A RUN_B
RUN_x: two `cumap --devices 0,1` runs of the same GPUs (two flag offsets),
pairs.csv and homes.json read. Cells are what the matrices hold: per pair,
home class and flag GPU, the median over its lines of oneway_ns_median minus
line_correction_ns.

Printed, per placement and home class:
- for k = 1, 2, ... lines, the cross-GPU cells of A against B: r and median
  |relative difference|, for ways of spending k lines: the flags on g0
  only, on both GPUs every line (2k values a cell: --flag-on both), the same
  without the line correction (oneway_ns_median as measured), and on both
  GPUs in turn (pass p on a's GPU when p is even, on b's when odd: k values
  a cell);
- the same for the cells on one GPU, for comparison;
- the median cross-GPU cell by the flag's GPU and each SM's side (the
  structure a user acts on), from all lines of run A.
Needs pandas and numpy.
"""
import json
import sys

import numpy as np
import pandas as pd


def sides(run):
    h = json.load(open(f"{run}/homes.json"))
    out = {}
    for d in h.get("devices", [h]):
        for u, s in zip(d["units"], d["unit_side"]):
            out[int(u)] = int(s)
    return out


def unit_ids(column):
    # "g1.17" -> 100017; plain ids stay.
    s = column.astype(str)
    across = s.str.startswith("g")
    dev = np.where(across, s.str.extract(r"g(\d+)\.")[0].fillna(0).astype(int), 0)
    unit = np.where(across, s.str.extract(r"\.(\d+)$")[0].fillna(s).astype(int), s.where(~across, "0").astype(int))
    return dev * 100000 + unit


def load(run):
    p = pd.read_csv(f"{run}/pairs.csv", usecols=["a", "b", "placement", "home_class", "pass", "flags_on",
                                                  "oneway_ns_median", "line_correction_ns", "timed_out"])
    p = p[p["timed_out"] == 0].copy()
    p["a"] = unit_ids(p["a"])
    p["b"] = unit_ids(p["b"])
    p["da"] = p["a"] // 100000
    p["db"] = p["b"] // 100000
    p["v"] = p["oneway_ns_median"] - p["line_correction_ns"].fillna(0.0)
    return p


def cells(rows):
    return rows.groupby(["a", "b"])["v"].median()


def agree(x, y):
    j = pd.concat([x, y], axis=1, join="inner").dropna()
    if len(j) < 3:
        return float("nan"), float("nan"), len(j)
    a, b = j.iloc[:, 0].to_numpy(), j.iloc[:, 1].to_numpy()
    return float(np.corrcoef(a, b)[0, 1]), float(np.median(np.abs(a - b) / ((a + b) / 2))), len(j)


def ways(rows, k):
    first = rows[rows["pass"] < k]
    return {
        "g0 only": first[first["flags_on"] == 0],
        "both every line": first,
        "both every line, uncorrected": first.assign(v=first["oneway_ns_median"]),
        "both in turn": first[np.where(first["pass"] % 2 == 0, first["flags_on"] == first["da"],
                                       first["flags_on"] == first["db"])],
    }


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    A, B = load(sys.argv[1]), load(sys.argv[2])
    side = sides(sys.argv[1])
    passes = int(A["pass"].max()) + 1
    ks = [k for k in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64) if k <= passes]
    for placement in sorted(set(A["placement"])):
        for c in sorted(set(A["home_class"].dropna().astype(int))):
            sel = lambda p: p[(p["placement"] == placement) & (p["home_class"] == c)]
            a, b = sel(A), sel(B)
            xa, xb = a[a["da"] != a["db"]], b[b["da"] != b["db"]]
            oa, ob = a[a["da"] == a["db"]], b[b["da"] == b["db"]]
            print(f"\n{placement}, home class {c}: cells across GPUs, run A against run B (r, median |diff|, cells)")
            for k in ks:
                wa, wb = ways(xa, k), ways(xb, k)
                parts = []
                for name in wa:
                    r, d, n = agree(cells(wa[name]), cells(wb[name]))
                    parts.append(f"{name}: r {r:.4f} {100 * d:.2f} % ({n})")
                ro, do, no = agree(cells(oa[oa["pass"] < k]), cells(ob[ob["pass"] < k]))
                print(f"  k {k:2d}: " + "; ".join(parts) + f" | on one GPU: r {ro:.4f} {100 * do:.2f} % ({no})")
            # The structure: median cell by flag GPU and the sides of the SM on g0 and on g1.
            full = xa.assign(s0=[side.get(int(u), -1) for u in np.where(xa["da"] == 0, xa["a"], xa["b"])],
                             s1=[side.get(int(u), -1) for u in np.where(xa["da"] == 0, xa["b"], xa["a"])])
            by = full.groupby(["flags_on", "a", "b", "s0", "s1"])["v"].median().reset_index()
            table = by.groupby(["flags_on", "s0", "s1"])["v"].median()
            print(f"  median cross-GPU cell (ns) by flag GPU, side on g0, side on g1: " +
                  ", ".join(f"g{f} {s0}{s1} {v:.1f}" for (f, s0, s1), v in table.items()))
            on = cells(oa)
            print(f"  median cell on one GPU {on.median():.1f} ns; across GPUs {cells(xa).median():.1f} ns")


if __name__ == "__main__":
    main()
