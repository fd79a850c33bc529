#!/usr/bin/env python3
"""Compares the home tables of two cumap runs on one chip (e.g. home
discovery with every SM at once against --home-serial): whether every line
has the same class and every unit the same side (class numbers are labels:
they are matched by the lines they share), and Pearson r over the table's
cells (unit x line, ns).

usage: bench/analyze_homes.py DIR_A DIR_B"""
import csv, json, sys
from collections import Counter

from analyze_runs import pearson


def load(d):
    homes = json.load(open(f"{d}/homes.json"))
    table = {}
    with open(f"{d}/homes.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["ns"]:
                table[(int(row["unit"]), int(row["line_offset"]))] = float(row["ns"])
    return homes, table


def relabel(a, b):
    """The label of b that most of a's label's members carry."""
    votes = Counter((a[k], b[k]) for k in a if k in b)
    best = {}
    for (la, lb), n in votes.most_common():
        if la not in best and lb not in best.values():
            best[la] = lb
    return best


def main(a_dir, b_dir):
    (ha, ta), (hb, tb) = load(a_dir), load(b_dir)
    la, lb = ha["line_class"], hb["line_class"]
    m = relabel(la, lb)
    same_lines = sum(m.get(la[k]) == lb[k] for k in la if k in lb)
    sa = dict(zip(ha["units"], ha["unit_side"]))
    sb = dict(zip(hb["units"], hb["unit_side"]))
    same_units = sum(m.get(sa[u]) == sb[u] for u in sa if u in sb)
    keys = sorted(set(ta) & set(tb))
    r = pearson([ta[k] for k in keys], [tb[k] for k in keys])
    rel = sorted(abs(ta[k] - tb[k]) / tb[k] for k in keys)
    print(f"classes {ha['class_count']} / {hb['class_count']}; lines in the same class {same_lines} of {len(la)}; "
          f"units on the same side {same_units} of {len(sa)}; table r {r:.4f} over {len(keys)} cells, "
          f"median |relative difference| {100 * rel[len(rel) // 2]:.2f} %")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
