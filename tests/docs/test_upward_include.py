#!/usr/bin/env python3
"""check_architecture.py must fail on an upward include and name its file and line.

Usage: test_upward_include.py REPO_ROOT

Builds two small trees in a temporary directory, the same but for one line: a core file
that includes a bounds header (upward: core is layer 1, bounds layer 4) and a checker file
that includes a core header. The clean tree must pass, the other must fail naming both.
"""
import subprocess
import sys
import tempfile
from pathlib import Path

DOC = """# Architecture

1. **core** (`src/core/`): the bottom layer;
2. **bounds** (`src/bounds/`): above core.

| Files | What it owns |
|---|---|
| `core/token.{hpp,cpp}` | tokens |
| `bounds/rank_bound.{hpp,cpp}` | bounds |
| `check/reader.cpp` | the checker |
"""

FILES = {
    "include/kernelrank/core/token.hpp": "#pragma once\n",
    "include/kernelrank/bounds/rank_bound.hpp": '#pragma once\n#include "kernelrank/core/token.hpp"\n',
    "src/bounds/rank_bound.cpp": '#include "kernelrank/bounds/rank_bound.hpp"\n',
    "src/check/reader.cpp": "// the checker\n#include <string>\n",
    "src/core/token.cpp": '// tokens\n#include "kernelrank/core/token.hpp"\n',
}

# The deliberate faults, each with the line the checker must name.
FAULTS = {
    "src/core/token.cpp": ('// tokens\n#include "kernelrank/core/token.hpp"\n'
                           '#include "kernelrank/bounds/rank_bound.hpp"\n',
                           "src/core/token.cpp:3: upward include"),
    "src/check/reader.cpp": ('// the checker\n#include "kernelrank/core/token.hpp"\n',
                             "src/check/reader.cpp:2: the checker includes producer code"),
}


def make_tree(root, faulty):
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "architecture.md").write_text(DOC)
    for path, text in FILES.items():
        if faulty and path in FAULTS:
            text = FAULTS[path][0]
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def run(checker, root):
    result = subprocess.run([sys.executable, str(checker), str(root)], capture_output=True,
                            text=True)
    return result.returncode, result.stdout + result.stderr


def main():
    checker = Path(sys.argv[1]) / "tests" / "docs" / "check_architecture.py"
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        clean, faulty = Path(tmp) / "clean", Path(tmp) / "faulty"
        make_tree(clean, False)
        make_tree(faulty, True)
        code, output = run(checker, clean)
        if code != 0:
            failures.append(f"the clean tree should pass, got exit {code}:\n{output}")
        code, output = run(checker, faulty)
        if code != 1:
            failures.append(f"the faulty tree should fail with exit 1, got {code}:\n{output}")
        for _, expected in FAULTS.values():
            if expected not in output:
                failures.append(f"the output should name '{expected}':\n{output}")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print("test_upward_include: the clean tree passes; the upward and checker includes fail "
          "with file and line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
