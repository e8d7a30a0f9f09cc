"""Checks an executed copy of examples/notebooks/verify-your-head.ipynb, independently of it.

Usage: check_notebook.py EXECUTED.ipynb KERNELRANK KERNELRANK_CHECK

The notebook's own cells compute with the Python module; this script re-derives what it can
through other paths and compares:
  * no cell raised (no error output) and every code cell ran;
  * the certificate the notebook wrote verifies with the kernelrank-check executable, whose
    bound equals the notebook's BOUND and certify's;
  * every trained head with r < BOUND fails the family (the certified bound: a head that
    solved there would refute the checker or the evaluator);
  * the failing instance's target is min_j <x_query, x_j> of its tokens, computed here;
  * the constructed model solves the family by the CLI's eval, with r >= BOUND features;
  * the plot is a PNG file of sensible size, and the notebook shows it (image/png output).
Exit 0 when every check holds, 1 otherwise (each failure printed).
"""

import json
import os
import struct
import subprocess
import sys
from fractions import Fraction


def main(executed, kernelrank, checker):
    with open(executed, encoding="utf-8") as f:
        notebook = json.load(f)
    failures = []

    def expect(condition, message):
        if not condition:
            failures.append(message)

    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    outputs = [o for c in cells for o in c.get("outputs", [])]
    expect(all(c.get("execution_count") for c in cells), "a code cell did not run")
    for o in outputs:
        expect(o.get("output_type") != "error", "a cell raised: %s: %s" % (o.get("ename"), o.get("evalue")))
    expect(any("image/png" in o.get("data", {}) for o in outputs), "the plot is not shown in the notebook")
    text = "".join("".join(o.get("text", "")) for o in outputs if o.get("output_type") == "stream")
    lines = [line for line in text.splitlines() if line.startswith("summary: ")]
    if len(lines) != 1:
        print("check_notebook: FAIL: no summary line in the executed notebook")
        return 1
    summary = json.loads(lines[0][len("summary: "):])
    bound = summary["bound"]
    # The notebook names its files relative to the folder it ran in, the executed copy's.
    for key in ("family", "certificate", "model", "plot"):
        summary[key] = os.path.join(os.path.dirname(os.path.abspath(executed)), summary[key])

    check = subprocess.run([checker, summary["certificate"], summary["family"]], capture_output=True, text=True)
    expect(check.returncode == 0 and "s VERIFIED" in check.stdout,
           "kernelrank-check does not verify %s:\n%s" % (summary["certificate"], check.stdout + check.stderr))
    checked = [line for line in check.stdout.splitlines() if line.startswith("c bound: r >= ")]
    expect(len(checked) == 1 and int(checked[0].split()[4]) == bound,
           "the checker's bound %s is not the notebook's %d" % (checked, bound))
    expect(summary["certify_bound"] == bound, "certify says %s, the checker %d" % (summary["certify_bound"], bound))

    for r, result in summary["results"].items():
        expect(int(r) >= bound or not result["solves"], "a head with r = %s < %d solves the family" % (r, bound))
        expect(result["solves"] == (result["failing"] == 0), "r = %s: solves and failing disagree" % r)

    failing = summary["failing_instance"]
    expect(failing is not None, "no failing head was shown (r = 1 cannot solve: the bound is %d)" % bound)
    if failing is not None:
        tokens = [[int(c) for c in t] for t in failing["tokens"]]
        query = tokens[failing["query"] - 1]
        target = min(sum(a * b for a, b in zip(query, t)) for t in tokens)
        expect(target == failing["target"], "the failing instance's target is %d, not %d" % (target, failing["target"]))
        if failing["output"] is not None:
            expect(abs(Fraction(failing["output"]) - target) >= Fraction(1, 2),
                   "the failing instance's error is below 1/2")

    proc = subprocess.run([kernelrank, "--json", "--quiet", "eval", "--model", summary["model"],
                           "--family", summary["family"]], capture_output=True, text=True)
    report = json.loads(proc.stdout)["report"] if proc.returncode == 0 else {}
    expect(report.get("failing") in (0, "0"), "the constructed model does not solve the family (CLI eval)")
    with open(summary["model"], encoding="utf-8") as f:
        header = f.readline().split()
    r_model = int([h for h in header if h.startswith("r=")][0][2:])
    expect(r_model == summary["upper"] and r_model >= bound,
           "the constructed model has r = %d (notebook: %d, bound %d)" % (r_model, summary["upper"], bound))

    with open(summary["plot"], "rb") as f:
        png = f.read()
    expect(png[:8] == b"\x89PNG\r\n\x1a\n", "the plot is not a PNG")
    if png[:8] == b"\x89PNG\r\n\x1a\n":
        width, height = struct.unpack(">II", png[16:24])
        expect(400 <= width <= 2000 and 300 <= height <= 1500 and len(png) > 10000,
               "the plot is %dx%d, %d bytes" % (width, height, len(png)))

    for message in failures:
        print("check_notebook: FAIL:", message)
    print("check_notebook: %d checks failed; bound %d, constructed r %d"
          % (len(failures), bound, summary["upper"]))
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
