#!/usr/bin/env python3
"""How many flag lines per home class a map needs, and whether correcting
each value by its line's home-table entries does better.

usage: analyze_lines.py RUN_A RUN_B [RUN_C ...]
RUN_x: cumap output directories of one chip, measured with many lines per
class (--rotating-count 64); pairs.csv and homes.csv are read. Every run is
compared with every later one: per placement and home class, the maps from
the first k lines of each run (r and median |relative difference|), plain
median and corrected, and the headline (classes weighted equally).

Correction: a value measured on line L is moved by what the home table
predicts for L against the class average,
  v' = v - beta * (P(a,b,L) - Pbar_c(a,b)),  P = T[a][L] + T[b][L]
(split-line: the mean of P over both flag lines), beta 1 and beta fitted
within pairs. Needs numpy (pandas if present, for speed).
"""
import csv
import itertools
import sys

import numpy as np

LINE = 128


def read_csv(path, columns):
    try:
        import pandas as pd
        frame = pd.read_csv(path, usecols=columns)
        return {c: frame[c].to_numpy() for c in columns}
    except ImportError:
        cols = {c: [] for c in columns}
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                for c in columns:
                    cols[c].append(row[c])
        out = {}
        for c, values in cols.items():
            try:
                out[c] = np.array([float(v) if v != "" else np.nan for v in values])
            except ValueError:
                out[c] = np.array(values)
        return out


class Run:
    def __init__(self, path):
        self.path = path
        h = read_csv(f"{path}/homes.csv", ["unit", "line_offset", "home_class", "ns"])
        self.units = np.unique(h["unit"].astype(int))
        self.lines = np.unique(h["line_offset"].astype(np.int64))
        ui = {u: i for i, u in enumerate(self.units)}
        li = {l: i for i, l in enumerate(self.lines)}
        self.T = np.full((len(self.units), len(self.lines)), np.nan)
        self.line_class = np.zeros(len(self.lines), dtype=int)
        for u, l, c, ns in zip(h["unit"].astype(int), h["line_offset"].astype(np.int64), h["home_class"].astype(int),
                               h["ns"].astype(float)):
            self.T[ui[u], li[l]] = ns
            self.line_class[li[l]] = c
        self.ui, self.li = ui, li
        classes = sorted(set(self.line_class.tolist()))
        self.Tbar = {c: np.nanmean(self.T[:, self.line_class == c], axis=1) for c in classes}
        p = read_csv(f"{path}/pairs.csv", ["a", "b", "placement", "home_class", "pass", "first_flag", "second_flag",
                                            "rtt_ns_median", "timed_out"])
        self.pairs = {}
        for placement in ("same-line", "split-line"):
            m = (p["placement"] == placement) & (p["timed_out"].astype(int) == 0)
            if not m.any():
                continue
            a = np.array([ui[int(x)] for x in p["a"][m]])
            b = np.array([ui[int(x)] for x in p["b"][m]])
            l1 = np.array([li[int(x) // LINE * LINE] for x in p["first_flag"][m]])
            l2 = np.array([li[int(x) // LINE * LINE] for x in p["second_flag"][m]])
            pred = (self.T[a, l1] + self.T[b, l1] + self.T[a, l2] + self.T[b, l2]) / 2
            cls = p["home_class"][m].astype(int)
            base = np.array([self.Tbar[c][i] + self.Tbar[c][j] for c, i, j in zip(cls, a, b)])
            self.pairs[placement] = dict(a=a, b=b, cls=cls, pas=p["pass"][m].astype(int),
                                         rtt=p["rtt_ns_median"][m].astype(float), dev=pred - base)

    def beta(self, placement):
        """Slope of value on predicted deviation, within pairs (pooled)."""
        d = self.pairs[placement]
        key = (d["a"] * 100000 + d["b"]) * 64 + d["cls"]
        _, inv = np.unique(key, return_inverse=True)
        def centred(x):
            return x - (np.bincount(inv, x) / np.bincount(inv))[inv]
        x, y = centred(d["dev"]), centred(d["rtt"])
        return float((x * y).sum() / (x * x).sum())

    def class_map(self, placement, cls, passes, beta):
        """pair (a,b) -> median over `passes` of the (corrected) value."""
        d = self.pairs[placement]
        m = (d["cls"] == cls) & np.isin(d["pas"], passes)
        v = d["rtt"][m] - beta * d["dev"][m]
        key = d["a"][m] * 100000 + d["b"][m]
        order = np.argsort(key, kind="stable")
        key, v = key[order], v[order]
        bounds = np.flatnonzero(np.diff(key)) + 1
        return dict(zip(key[np.r_[0, bounds]].tolist(), [float(np.median(g)) for g in np.split(v, bounds)]))


def agree(x, y):
    keys = sorted(set(x) & set(y))
    a = np.array([x[k] for k in keys])
    b = np.array([y[k] for k in keys])
    r = float(np.corrcoef(a, b)[0, 1])
    rel = float(np.median(np.abs(a - b) / ((a + b) / 2)))
    return r, rel, len(keys)


def headline(maps):
    keys = set.intersection(*(set(m) for m in maps))
    return {k: float(np.mean([m[k] for m in maps])) for k in keys}


def matched_class(x, y, c):
    """y's class whose per-unit latency profile is x's class c's (labels are not ids)."""
    return max(y.Tbar, key=lambda d: np.corrcoef(x.Tbar[c], y.Tbar[d])[0, 1])


def report(runs):
    for run in runs:
        print(f"\n# {run.path}: {len(run.units)} units, {len(run.lines)} lines, classes "
              f"{np.bincount(run.line_class).tolist()}")
        for placement in run.pairs:
            d = run.pairs[placement]
            print(f"  {placement}: {len(d['rtt'])} values, passes {d['pas'].max() + 1}, fitted beta "
                  f"{run.beta(placement):.3f}")
    for x, y in itertools.combinations(runs, 2):
        print(f"\n## {x.path} against {y.path}")
        if len(x.lines) == len(y.lines):
            same_lines = np.isfinite(x.T) & np.isfinite(y.T)
            print(f"  home table cell r {np.corrcoef(x.T[same_lines], y.T[same_lines])[0, 1]:.4f}; "
                  f"line classes identical {np.mean(x.line_class == y.line_class) * 100:.1f} %")
        for placement in x.pairs:
            if placement not in y.pairs:
                continue
            passes = min(x.pairs[placement]["pas"].max(), y.pairs[placement]["pas"].max()) + 1
            classes = sorted(set(x.pairs[placement]["cls"].tolist()))
            for label, bx, by in (("plain", 0.0, 0.0), ("beta=1", 1.0, 1.0),
                                  ("beta fit", x.beta(placement), y.beta(placement))):
                k = 1
                while k <= passes:
                    cells = []
                    heads_x, heads_y = [], []
                    for c in classes:
                        mx = x.class_map(placement, c, list(range(k)), bx)
                        my = y.class_map(placement, matched_class(x, y, c), list(range(k)), by)
                        heads_x.append(mx)
                        heads_y.append(my)
                        r, rel, n = agree(mx, my)
                        cells.append(f"class {c}/{matched_class(x, y, c)} r {r:.4f} {rel * 100:.2f} %")
                    r, rel, n = agree(headline(heads_x), headline(heads_y))
                    cells.append(f"headline r {r:.4f} {rel * 100:.2f} % ({n} pairs)")
                    print(f"  {placement} {label:8s} k={k:3d}: " + "; ".join(cells))
                    k *= 2
            # Within one run: two disjoint line sets of half the passes each.
            half = passes // 2
            for label, b in (("plain", 0.0), ("beta=1", 1.0)):
                cells = []
                for c in classes:
                    r, rel, n = agree(x.class_map(placement, c, list(range(half)), b),
                                      x.class_map(placement, c, list(range(half, 2 * half)), b))
                    cells.append(f"class {c} r {r:.4f} {rel * 100:.2f} %")
                print(f"  {placement} {label:8s} within {x.path}, {half} vs {half} lines: " + "; ".join(cells))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    report([Run(p) for p in sys.argv[1:]])
