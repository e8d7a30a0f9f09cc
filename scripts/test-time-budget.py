#!/usr/bin/env python3
"""Fails when a test took longer than the budget, so that a slow test is noticed when it is
written and not when CI runs out of time (docs/robustness.md, "Time budget").

Usage: scripts/test-time-budget.py JUNIT_XML [SECONDS]   (default 300)
JUNIT_XML is what `ctest --output-junit FILE` wrote. Prints the five slowest tests."""
import sys
import xml.etree.ElementTree as ET


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    path = sys.argv[1]
    try:
        budget = float(sys.argv[2]) if len(sys.argv) == 3 else 300.0
        cases = ET.parse(path).getroot().iter("testcase")
        times = [(float(c.get("time", "0")), c.get("name", "?")) for c in cases]
    except (OSError, ET.ParseError, ValueError) as err:
        print(f"test-time-budget: {path}: {err}", file=sys.stderr)
        return 2
    if not times:
        print(f"test-time-budget: {path}: no test case", file=sys.stderr)
        return 2
    times.sort(reverse=True)
    print("test-time-budget: slowest: " +
          ", ".join(f"{name} {seconds:.1f} s" for seconds, name in times[:5]))
    over = [(s, n) for s, n in times if s > budget]
    for seconds, name in over:
        print(f"test-time-budget: {name} took {seconds:.1f} s, over the {budget:g} s budget",
              file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
