#!/usr/bin/env python3
"""The matrix CSVs load in pandas with both axes unit ids of one type, by
docs/files.md's recipe, for plain ids (plots/h200) and ids across GPUs
(plots/h200x2). Exit 77 (skipped) where pandas is not installed."""
import pathlib
import sys

import os

try:
    import pandas as pd
except ImportError:
    # The interpreter CMake found (a pyenv one, say) may lack the system's
    # pandas (Debian's python3-pandas): try the system's before skipping.
    system_python = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(system_python) and os.path.exists(system_python):
        os.execv(system_python, [system_python, *sys.argv])
    print("pandas is not installed: skipped")
    sys.exit(77)

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
failures = []
checked = 0
for run in ("plots/h200", "plots/h200x2"):
    for path in sorted((root / run).glob("*.csv")):
        if not (path.name.startswith("matrix-") or path.name.startswith("line-spread-")):
            continue
        m = pd.read_csv(path, index_col="unit")
        m.columns = m.columns.astype(m.index.dtype)  # the recipe of docs/files.md
        checked += 1
        if m.index.dtype != m.columns.dtype:
            failures.append(f"{path}: index {m.index.dtype}, columns {m.columns.dtype}")
        elif list(m.index) != list(m.columns):
            failures.append(f"{path}: rows and columns are not the same units in the same order")
        elif m.shape[0] != m.shape[1]:
            failures.append(f"{path}: {m.shape[0]} rows, {m.shape[1]} columns")
        else:
            first = m.index[0]
            if not pd.isna(m.loc[first, first]):
                failures.append(f"{path}: the diagonal ({first}, {first}) is not empty")
for f in failures:
    print(f)
print(f"{checked} matrix CSVs loaded, {len(failures)} failed")
sys.exit(1 if failures or checked == 0 else 0)
