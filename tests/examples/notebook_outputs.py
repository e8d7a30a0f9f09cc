"""The shipped outputs of examples/notebooks/verify-your-head.ipynb against a fresh run.

Usage: notebook_outputs.py check|write EXECUTED.ipynb SHIPPED.ipynb
  check  exit 0 when every code cell of SHIPPED holds the outputs EXECUTED has: text to the
         letter, a figure by its kind (a PNG's bytes depend on the machine's fonts and
         matplotlib build, and check_notebook.py checks the image itself); 1 and the first
         differing cell and line otherwise
  write  replace SHIPPED by EXECUTED (outputs and execution counts, not the run's timing
         metadata), atomically
The notebook's text outputs hold no time, address or absolute path (it prints the files it
writes relative to the folder it runs in), so a run on the same code gives the same text.
"""

import difflib
import json
import os
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def outputs(cell):
    """A cell's outputs as comparable lines; consecutive stream chunks joined as one."""
    lines = []
    stream = None
    for o in cell.get("outputs", []):
        kind = o.get("output_type")
        if kind == "stream":
            if stream != o.get("name"):
                lines.append("[%s]" % o.get("name"))
                stream = o.get("name")
            lines.extend("".join(o.get("text", "")).splitlines())
            continue
        stream = None
        if kind == "error":
            lines.append("[error] %s: %s" % (o.get("ename"), o.get("evalue")))
        else:
            data = o.get("data", {})
            lines.append("[%s] %s" % (kind, " ".join(sorted(data))))
            lines.extend("".join(data.get("text/plain", "")).splitlines())
    return lines


def code_cells(notebook):
    return [c for c in notebook["cells"] if c["cell_type"] == "code"]


def check(executed, shipped, shipped_path):
    fresh, kept = code_cells(executed), code_cells(shipped)
    if [c["source"] for c in fresh] != [c["source"] for c in kept]:
        print("notebook_outputs: FAIL: the executed notebook's code is not the shipped one's")
        return 1
    for number, (a, b) in enumerate(zip(kept, fresh), 1):
        old, new = outputs(a), outputs(b)
        if old != new:
            print("notebook_outputs: FAIL: %s: code cell %d: the shipped outputs are not this run's "
                  "(regenerate: scripts/regenerate-notebook.sh)" % (shipped_path, number))
            for row in list(difflib.unified_diff(old, new, "shipped", "this run", n=1, lineterm=""))[:30]:
                print("  " + row)
            return 1
    if not any(c.get("outputs") for c in kept):
        print("notebook_outputs: FAIL: %s has no outputs" % shipped_path)
        return 1
    print("notebook_outputs: the shipped outputs are this run's")
    return 0


def write(executed, shipped_path):
    for cell in executed["cells"]:
        cell.get("metadata", {}).pop("execution", None)  # the run's timestamps
    text = json.dumps(executed, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    tmp = shipped_path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, shipped_path)
    print("notebook_outputs: wrote %s" % shipped_path)
    return 0


def main(argv):
    if len(argv) != 3 or argv[0] not in ("check", "write"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, executed_path, shipped_path = argv
    executed = load(executed_path)
    if mode == "write":
        return write(executed, shipped_path)
    return check(executed, load(shipped_path), shipped_path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
