#!/usr/bin/env python3
"""bench/check_docs.py's check 7 on a tree of its own: a figure or serial
beside a committed run must be that run's, and a stale one is named.
  check_docs_runs_test.py SOURCE_DIR"""
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(sys.argv[1]) / "bench"))
import check_docs  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)
    run = Path("plots/chip")
    (run / "barrier").mkdir(parents=True)
    (run / "meta.json").write_text(json.dumps({"device": {"serial": "1653824018219"}, "wall_seconds": 2.3267}))
    (run / "summary.md").write_text("| near | 267.8 | 261.3–274.7 |\n")
    (run / "barrier/meta.json").write_text(json.dumps({"device": {"serial": "1653924118968"}}))
    readme = Path("README.md")
    readme.write_text(
        "A caption of [the run](plots/chip/summary.md): serial 1653824018219, near 267.8 ns.\n\n"
        "Stale, beside plots/chip: serial 1653724059025, near 274.9 ns.\n\n"
        "| a row of plots/chip | 261.3 | 999.9 |\n\n"
        "A paragraph that names no run: 274.9 ns is RESULTS.md's to check.\n")
    plots_readme = Path("plots/README.md")
    plots_readme.write_text("## `chip/` — its section\n\nSerial 1653824018219.\n\n"
                            "| `barrier/` | serial 1653924118968 |\n\n| `barrier/` | serial 1111111111111 |\n")
    found = sorted((str(d), what) for d, _, what in check_docs.foreign_run_figures([readme, plots_readme]))
    expected = sorted([("README.md", "serial 1653724059025"), ("README.md", "figure 274.9"),
                       ("README.md", "figure 999.9"), ("plots/README.md", "serial 1111111111111")])
    if found != expected:
        print(f"found {found}\nexpected {expected}")
        sys.exit(1)
print("check 7 names the stale serials and figures, and only those")
