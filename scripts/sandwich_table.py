#!/usr/bin/env python3
"""Renders the "both sides" table of docs/bound-table.md: for every m with a shipped layered
head (instances/upper/summary.tsv), the certified lower bound (docs/data/bound-table.jsonl)
and the verified upper heads, PF and NK, with both rates log2(r)/m. Each head file is checked
again here with build/kernelrank-check, whose verdict, r and max error are the ones printed
(the check time is measured on this run, for display).

Usage: scripts/sandwich_table.py [--check BINARY]   (markdown on stdout)
"""
import json
import math
import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lower_bounds():
    rows = {}
    for line in (ROOT / "docs/data/bound-table.jsonl").read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            rows[row["m"]] = int(row["bound"])
    return rows


def heads():
    table = {}
    lines = (ROOT / "instances/upper/summary.tsv").read_text().splitlines()
    names = lines[0].split("\t")
    for line in lines[1:]:
        row = dict(zip(names, line.split("\t")))
        table[(int(row["m"]), row["class"])] = row
    return table


def check(binary, m, model_class):
    path = ROOT / f"instances/upper/layered-m{m}-{model_class}.model"
    start = time.perf_counter()
    run = subprocess.run([binary, str(path)], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if run.returncode != 0 or "s VERIFIED" not in run.stdout:
        sys.exit(f"sandwich_table: {path} does not verify:\n{run.stdout}{run.stderr}")
    upper = re.search(r"^c upper: r <= (\d+)$", run.stdout, re.M)
    error = re.search(r"max error (\d+(?:/\d+)?)", run.stdout)
    if not upper or not error:
        sys.exit(f"sandwich_table: unexpected checker output for {path}:\n{run.stdout}")
    return int(upper.group(1)), Fraction(error.group(1)), seconds


def slack(max_error):
    gap = Fraction(1, 2) - max_error
    return f"{float(gap):.2e}"


def main():
    binary = str(ROOT / "build/kernelrank-check")
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        binary = sys.argv[2]
    lower, shipped = lower_bounds(), heads()
    widths = sorted({m for (m, c) in shipped if c == "PF"})
    print("""| m | r >= (checked) | PF head: r <= | layers | rate lower | rate PF | 1/2 - max error | find (s) | check (s) | NK head: r <= | NK layers |
|---:|---:|---:|:---|---:|---:|---:|---:|---:|---:|:---|""")
    for m in widths:
        pf = shipped[(m, "PF")]
        r, max_error, seconds = check(binary, m, "PF")
        if str(r) != pf["r"]:
            sys.exit(f"sandwich_table: m = {m}: the checker gives r <= {r}, the summary {pf['r']}")
        low = lower.get(m)
        nk = shipped.get((m, "NK"))
        nk_cells = "- | -"
        if nk:
            nk_r, _, _ = check(binary, m, "NK")
            nk_cells = f"{nk_r:,} | {{{nk['layers'].replace(',', ', ')}}}"
        optimal = "" if pf["optimal"] == "true" else " (best found)"
        print(f"| {m} | {low:,} | {r:,}{optimal} | {{{pf['layers'].replace(',', ', ')}}} | "
              f"{math.log2(low) / m:.3f} | {math.log2(r) / m:.3f} | {slack(max_error)} | "
              f"{float(pf['seconds']):.1f} | {seconds:.2f} | {nk_cells} |")


if __name__ == "__main__":
    main()
