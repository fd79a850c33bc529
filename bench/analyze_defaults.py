#!/usr/bin/env python3
"""Chooses the default map's counts: for each configuration, two runs at two
flag offsets, and one long-sample reference run. Per configuration: kernel
seconds per placement and wall seconds (meta.json), the lowest Pearson r
across the offsets over the per-class matrix files (compared by file name,
as the issue does), and against the reference the median signed and
absolute relative difference of every cell of those files.

usage: bench/analyze_defaults.py REFERENCE_DIR NAME:DIR_OFFSET_A:DIR_OFFSET_B ..."""
import glob, json, os, sys

from analyze_runs import pearson, read_matrix


def class_files(d):
    return sorted(os.path.basename(p) for p in glob.glob(f"{d}/matrix-*-home*.csv"))


def paired(a, b):
    keys = sorted(set(a) & set(b))
    return [a[k] for k in keys], [b[k] for k in keys]


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else float("nan")


def main(ref, configs):
    print("| configuration | kernel s per placement | wall s | r across offsets (lowest class file) | vs reference: median signed | median abs |")
    print("|---|---|---|---|---|---|")
    for spec in configs:
        name, d0, d1 = spec.split(":")
        meta = json.load(open(f"{d0}/meta.json"))
        kernel = "/".join(f"{m['stats']['device_seconds']:.2f}" for m in meta["maps"])
        rs, signed, absolute = [], [], []
        for f in class_files(d0):
            if os.path.exists(f"{d1}/{f}"):
                rs.append(pearson(*paired(read_matrix(f"{d0}/{f}"), read_matrix(f"{d1}/{f}"))))
            if os.path.exists(f"{ref}/{f}"):
                x, y = paired(read_matrix(f"{d0}/{f}"), read_matrix(f"{ref}/{f}"))
                signed += [(p - q) / q for p, q in zip(x, y)]
                absolute += [abs(p - q) / q for p, q in zip(x, y)]
        print(f"| {name} | {kernel} | {meta['wall_seconds']:.2f} | {min(rs) if rs else float('nan'):.4f} | "
              f"{100 * median(signed):+.2f} % | {100 * median(absolute):.2f} % |")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
