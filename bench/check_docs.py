#!/usr/bin/env python3
"""Checks the user documents against bench/: run from the repository root.

  python3 bench/check_docs.py

1. README.md has at most 200 lines.
2. README.md and docs/*.md say nothing of chip letters, issues, what was
   done before, sessions or waves (a grep, as the review asks).
3. Every file git tracks under bench/ is named in bench/README.md.
4. Every number in README.md and docs/*.md (outside code spans, links, dates
   and serials, and outside the blocks check 7 holds to a committed run)
   appears as a number in bench/RESULTS.md. Numbers that are
   settings of the tool rather than measurements (defaults, sizes, limits)
   are listed in SETTINGS below, each with where it comes from, and printed;
   anything else that does not trace is printed and fails the check.
5. Every source file a document or a comment names exists: a path or file
   name ending in a source or build suffix, in the Markdown files (but
   bench/RESULTS.md, a record of earlier builds too) and in the comments of
   src/, include/, tests/ and bench/, must be a file of the tree (a full
   path, or a name some tracked file bears).
6. Every symbol those Markdown files name in a code span exists in the code:
   a name with `::`, a call `name()` or a snake_case name of at least two
   words must appear in a tracked source file.
7. Every figure quoted for a committed run is that run's own: in README.md,
   docs/*.md and plots/README.md, a paragraph, caption or table row that
   names a run of plots/ (plots/h200, plots/h200x2/summary.md, ...) may
   quote only serials of that run's meta.json, and only figures (numbers
   with a decimal point) that its summary.md says (a run without one: that
   its meta.json holds at that precision); a figure of another run or a build gone by belongs in
   its own paragraph beside its RESULTS.md entry.
Exit 0 when all hold, 1 otherwise.
"""
import re
import subprocess
import sys
from pathlib import Path

# Numbers in the documents that are settings or versions, not measured
# figures, so RESULTS.md need not hold them: each with where it comes from.
SETTINGS = {
    "130": "exit code of an interrupted run",
    "90": "compute capability 9.0 written as a CMake architecture; the 90 % class recheck threshold",
    "5.2": "the version of Debian's hipcc CI builds with",
    "4096": "the most home lines classified without sampling (--home-lines)",
}

NARRATIVE = re.compile(r"chip [A-Z]\b|issue|before|former|session|wave")
NUMBER = re.compile(r"(?<![\w.])[−-]?\d+(?: \d{3})*(?:\.\d+)?")


def numbers(text):
    """Numbers of running text: code spans, link targets, dates, serials and
    commit hashes removed first."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"\d{4}-\d{2}-\d{2}", " ", text)
    text = re.sub(r"\b\d{13}\b", " ", text)
    text = re.sub(r"\b[0-9a-f]{7}\b", " ", text)
    out = []
    for m in NUMBER.finditer(text):
        n = m.group(0).replace("−", "-").replace(" ", "")
        out.append((n, text[max(0, m.start() - 40):m.end() + 20].replace("\n", " ")))
    return out


SOURCE_SUFFIX = r"(?:cpp|hpp|cu|cuh|hip|py|sh|in|cmake|txt)"
PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*\." + SOURCE_SUFFIX + r")(?![\w])")
CPP_COMMENT = re.compile(r"//[^\n]*")
SCRIPT_COMMENT = re.compile(r"^\s*#(?![!]|include)[^\n]*", re.M)
SYMBOL = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_~][A-Za-z0-9_]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\(\))?|[A-Za-z_][A-Za-z0-9_]*\(\))`")
# Files named that no tracked file is, each with why: files cumap and the
# tools write, and other projects' files.
NOT_IN_TREE = {
    "CMakeCache.txt": "CMake writes it",
    "log.txt": "bench/device.sh writes it",
    "shape.txt": "bench/refactor/output-shape.sh writes it",
    "LastTest.log": "ctest writes it",
    "report_page.hpp": "CMake generates it from report_page.hpp.in",
    "compile_commands.json": "CMake writes it",
    "hip-lang-config.cmake": "ROCm's CMake package",
    "lib/matplotlib/_cm_listed.py": "matplotlib's source, where the colormap tables come from",
}


def tracked_files():
    return subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()


def stale_paths(files):
    """Paths and file names named in documents and comments that no tracked file bears."""
    names = {Path(f).name for f in files} | set(files) | set(NOT_IN_TREE)
    found = []
    sources = [f for f in files if (f.endswith(".md") and f != "bench/RESULTS.md") or
               (f.startswith(("src/", "include/", "tests/", "bench/")) and not f.startswith("bench/results/") and
                f.endswith((".cpp", ".hpp", ".cu", ".cuh", ".hip", ".py", ".sh", "CMakeLists.txt")))]
    for f in sources:
        text = Path(f).read_text(errors="replace")
        if f.endswith(".md"):
            parts = [text]
        elif f.endswith((".py", ".sh", "CMakeLists.txt")):
            parts = SCRIPT_COMMENT.findall(text)
        else:
            parts = CPP_COMMENT.findall(text)
        for part in parts:
            for m in PATH.finditer(part):
                p = m.group(1)
                if p in names or Path(p).name in names or any(t.endswith("/" + p) for t in files):
                    continue
                if "<" in p or p.startswith(("out/", "build", "/")) or "*" in p:
                    continue
                found.append((f, p))
    return found


def stale_symbols(files):
    """Code-span symbols of the documents that appear in no source file."""
    code = "\n".join(Path(f).read_text(errors="replace") for f in files
                     if f.endswith((".cpp", ".hpp", ".cu", ".cuh", ".hip", ".py", ".sh", ".in", ".html", ".txt")))
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code))
    found = []
    for f in [f for f in files if f.endswith(".md") and f != "bench/RESULTS.md"]:
        for m in SYMBOL.finditer(Path(f).read_text()):
            sym = m.group(1).rstrip("()")
            if all(part in words for part in sym.split("::") if part):
                continue
            found.append((f, m.group(1)))
    return found


RUN_NAMED = re.compile(r"plots/([\w-]+(?:/[\w-]+)?)")
FIGURE = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.]*\d)")
SERIAL = re.compile(r"\b\d{13}\b")


def run_dirs(name):
    """The committed run a path names (plots/h200/summary.md: plots/h200; a
    sub-run such as plots/h200/barrier is its own run)."""
    for candidate in (Path("plots") / name, Path("plots") / name.split("/")[0]):
        if (candidate / "meta.json").is_file():
            return candidate
    return None


def run_facts(run):
    """The serials, and the numbers a reader can see, of one committed run:
    summary.md's as written, meta.json's at every precision they round to."""
    import json

    meta = json.loads((run / "meta.json").read_text())
    serials, values = set(), set()

    def walk(v, key=""):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, k)
        elif isinstance(v, list):
            for x in v:
                walk(x, key)
        elif isinstance(v, bool):
            return
        elif isinstance(v, (int, float)):
            for digits in range(0, 5):
                values.add(f"{v:.{digits}f}")
        elif isinstance(v, str) and key == "serial":
            serials.add(v)

    walk(meta)
    # A run with a summary is quoted from it: meta.json holds thousands of
    # numbers, enough for a stale figure to match one by chance.
    summary = run / "summary.md"
    if summary.is_file():
        values = set(FIGURE.findall(summary.read_text()))
    return serials, values


def blocks(text):
    """Paragraphs, and each table row on its own, with code removed."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    out = []
    for para in re.split(r"\n\s*\n", text):
        rows = [l for l in para.splitlines() if l.lstrip().startswith("|")]
        out += rows if rows else [para]
    return out


def foreign_run_figures(docs):
    """(document, run, what) for each serial or figure a block quotes that
    none of the runs it names holds."""
    found, facts = [], {}
    for d in docs:
        section = ""  # plots/README.md: a heading "## `h200/` ..." names the run of its section
        for block in blocks(d.read_text()):
            heading = re.match(r"#+ `([\w-]+)/`", block.strip())
            if block.lstrip().startswith("#"):
                section = f"plots/{heading.group(1)}" if heading and d.parts[0] == "plots" else ""
            named = RUN_NAMED.findall(block + " " + section)
            if section:  # its sub-runs by their folder: `barrier/`
                named += [f"{section[len('plots/'):]}/{sub}" for sub in re.findall(r"`([\w-]+)/`", block)]
            runs = {r for r in (run_dirs(n) for n in named) if r}
            if not runs:
                continue
            for r in runs:
                facts.setdefault(r, run_facts(r))
            serials = set().union(*(facts[r][0] for r in runs))
            values = set().union(*(facts[r][1] for r in runs))
            plain = re.sub(r"`[^`]*`", " ", re.sub(r"\]\([^)]*\)", "]", block))
            names = ", ".join(sorted(str(r) for r in runs))
            for serial in SERIAL.findall(plain):
                if serial not in serials:
                    found.append((d, names, f"serial {serial}"))
            for figure in FIGURE.findall(re.sub(r"\d{4}-\d{2}-\d{2}", " ", plain)):
                if figure not in values and figure not in SETTINGS:
                    found.append((d, names, f"figure {figure}"))
    return found


def main():
    ok = True
    root = Path(".")
    docs = [root / "README.md"] + sorted((root / "docs").glob("*.md"))

    lines = len((root / "README.md").read_text().splitlines())
    print(f"README.md: {lines} lines")
    if lines > 200:
        ok = False
        print("  more than 200")

    for d in docs:
        for i, line in enumerate(d.read_text().splitlines(), 1):
            # Option rows say "before each round": what a flag does, not history.
            if d.name == "options.md" and line.startswith("| `--"):
                continue
            if NARRATIVE.search(line):
                ok = False
                print(f"narrative? {d}:{i}: {line.strip()}")

    tracked = subprocess.run(["git", "ls-files", "bench"], capture_output=True, text=True, check=True).stdout.split()
    readme = (root / "bench/README.md").read_text()
    unnamed = [f for f in tracked if f"`{f[len('bench/'):]}`" not in readme]
    print(f"bench/: {len(tracked)} files tracked, {len(tracked) - len(unnamed)} named in bench/README.md")
    for f in unnamed:
        ok = False
        print(f"  not named: {f}")

    results = (root / "bench/RESULTS.md").read_text()
    known = {n.replace("−", "-").replace(" ", "") for n in NUMBER.findall(results)}
    known |= {n.lstrip("+-") for n in known}
    checked = untraced = 0
    for d in docs:
        # Blocks that name a committed run quote that run's files (check 7).
        text = "\n\n".join(b for b in blocks(d.read_text()) if not any(run_dirs(n) for n in RUN_NAMED.findall(b)))
        for n, context in numbers(text):
            checked += 1
            if n in known or n.lstrip("+-") in known:
                continue
            if n in SETTINGS:
                print(f"setting, not a figure: {n} in {d} ({SETTINGS[n]})")
                continue
            untraced += 1
            ok = False
            print(f"untraced number {n} in {d}: ...{context}...")
    print(f"numbers: {checked} checked in README.md and docs/, {untraced} not in bench/RESULTS.md")

    files = tracked_files()
    paths = stale_paths(files)
    for f, p in paths:
        ok = False
        print(f"no such file: {p} (named in {f})")
    symbols = stale_symbols(files)
    for f, sym in symbols:
        ok = False
        print(f"no such symbol: {sym} (named in {f})")
    print(f"names: {len(paths)} file name(s) and {len(symbols)} symbol(s) named that do not exist")

    foreign = foreign_run_figures(docs + [root / "plots/README.md"])
    for d, run, what in foreign:
        ok = False
        print(f"not the run's own: {what} in {d}, beside {run}")
    print(f"runs: {len(foreign)} serial(s) or figure(s) quoted beside a committed run that it does not hold")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
