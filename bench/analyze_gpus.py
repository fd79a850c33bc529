#!/usr/bin/env python3
"""A map across GPUs against single-GPU maps of the same GPUs.

usage: analyze_gpus.py ACROSS_DIR GPU=SINGLE_DIR [GPU=SINGLE_DIR ...]

For every matrix file of the single-GPU run (matrix-<placement>.csv and the
per-class matrix-<placement>-home<c>.csv), the block of GPU <gpu> in the same
file of the run across GPUs (rows and columns g<gpu>.<sm>) is compared cell by
cell: Pearson r, median relative difference and the median shift (across
minus single, relative). Classes and sides are canonical per GPU (side 0 holds
the GPU's lowest SM), so files compare by name. Then gpus.csv as it is.
Standard library only.
"""
import csv
import math
import statistics
import sys
from pathlib import Path


def read_matrix(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    ids = rows[0][1:]
    cells = {}
    for row in rows[1:]:
        for col, text in zip(ids, row[1:]):
            if text.strip():
                cells[(row[0], col)] = float(text)
    return cells


def pearson(x, y):
    mx, my = statistics.fmean(x), statistics.fmean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    across = Path(argv[1])
    for spec in argv[2:]:
        gpu, single = spec.split("=", 1)
        single = Path(single)
        print(f"## GPU {gpu}: {across} against {single}")
        for path in sorted(single.glob("matrix-*.csv")):
            alone = read_matrix(path)
            if not (across / path.name).exists():
                continue
            both = read_matrix(across / path.name)
            x, y = [], []
            for (r, c), v in alone.items():
                w = both.get((f"g{gpu}.{r}", f"g{gpu}.{c}"))
                if w is not None and r != c:
                    x.append(v)
                    y.append(w)
            if not x:
                print(f"{path.name}: no common cells")
                continue
            rel = [abs(b - a) / a for a, b in zip(x, y)]
            shift = [(b - a) / a for a, b in zip(x, y)]
            print(f"{path.name}: cells {len(x)}  r {pearson(x, y):.4f}  median |diff| {100 * statistics.median(rel):.2f} %"
                  f"  median shift {100 * statistics.median(shift):+.2f} %  medians {statistics.median(x):.1f} / "
                  f"{statistics.median(y):.1f} ns")
    gpus = across / "gpus.csv"
    if gpus.exists():
        print("## gpus.csv")
        print(gpus.read_text(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
