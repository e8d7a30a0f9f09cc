#!/usr/bin/env python3
"""check_architecture.py must fail on an upward include, in every spelling, and name its file
and line.

Usage: test_upward_include.py REPO_ROOT

Builds small trees in a temporary directory: a clean one, which must pass, and one per fault,
the same but for one line added to one file, which must fail naming that file and line. The
faults reach upward from core (layer 1) to bounds (layer 2) in each spelling the compiler
accepts (quoted or in angle brackets, through include/ or src/, relative to the including
file), reach from the checker into the producer, or name no file.
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
| `core/token.{hpp,cpp}`, `core/bits.hpp` | tokens; *internal*: bits.hpp |
| `bounds/rank_bound.{hpp,cpp}`, `bounds/rank_rows.hpp` | bounds; *internal*: rank_rows.hpp |
| `check/reader.{hpp,cpp}` | the checker |
"""

FILES = {
    "include/kernelrank/core/token.hpp": "#pragma once\n",
    "include/kernelrank/bounds/rank_bound.hpp": '#pragma once\n#include "kernelrank/core/token.hpp"\n',
    "src/core/bits.hpp": "#pragma once\n",
    "src/bounds/rank_rows.hpp": '#pragma once\n#include <core/bits.hpp>\n',
    # Every spelling, each reaching a file it may reach: own folder by bare name, own layer
    # and lower layers by each root, the checker's headers, system headers.
    "src/bounds/rank_bound.cpp": ('#include "kernelrank/bounds/rank_bound.hpp"\n'
                                  '#include "rank_rows.hpp"\n'
                                  '#include "../core/bits.hpp"\n'
                                  '#include <kernelrank/core/token.hpp>\n'
                                  '#include "core/bits.hpp"\n'
                                  '#include <check/reader.hpp>\n'
                                  '#include <vector>\n'),
    "src/check/reader.hpp": "#pragma once\n",
    "src/check/reader.cpp": '// the checker\n#include "reader.hpp"\n#include "check/reader.hpp"\n',
    "src/core/token.cpp": '// tokens\n#include "kernelrank/core/token.hpp"\n#include "bits.hpp"\n',
}

UPWARD = "upward include: core includes"
CHECKER = "the checker includes producer code"
NO_FILE = "names no file"

# The deliberate faults: the file, the line added at its end, and what the checker must say
# about that line.
FAULTS = [
    ("src/core/token.cpp", '#include "kernelrank/bounds/rank_bound.hpp"', UPWARD),
    ("src/core/token.cpp", "#include <kernelrank/bounds/rank_bound.hpp>", UPWARD),
    ("src/core/token.cpp", '#include "bounds/rank_rows.hpp"', UPWARD),
    ("src/core/token.cpp", "#include <bounds/rank_rows.hpp>", UPWARD),
    ("src/core/token.cpp", '#include "../bounds/rank_rows.hpp"', UPWARD),
    ("src/core/token.cpp", '#include "../../include/kernelrank/bounds/rank_bound.hpp"', UPWARD),
    ("src/core/bits.hpp", '  #  include   <bounds/rank_rows.hpp>', UPWARD),
    ("include/kernelrank/core/token.hpp", '#include "../bounds/rank_bound.hpp"', UPWARD),
    ("src/check/reader.cpp", '#include "kernelrank/core/token.hpp"', CHECKER),
    ("src/check/reader.cpp", "#include <core/bits.hpp>", CHECKER),
    ("src/check/reader.cpp", '#include "../core/bits.hpp"', CHECKER),
    # A bare name is looked up next to the includer: bounds' header is not core's.
    ("src/core/token.cpp", '#include "rank_rows.hpp"', NO_FILE),
    ("src/core/token.cpp", "#include <bounds/no_such_header.hpp>", NO_FILE),
    ("src/core/token.cpp", "#include <kernelrank/core/no_such_header.hpp>", NO_FILE),
]


def make_tree(root, fault=None):
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "architecture.md").write_text(DOC)
    for path, text in FILES.items():
        if fault is not None and fault[0] == path:
            text += fault[1] + "\n"
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
        clean = Path(tmp) / "clean"
        make_tree(clean)
        code, output = run(checker, clean)
        if code != 0:
            failures.append(f"the clean tree should pass, got exit {code}:\n{output}")
        for index, fault in enumerate(FAULTS):
            path, line, message = fault
            faulty = Path(tmp) / f"fault{index}"
            make_tree(faulty, fault)
            number = FILES[path].count("\n") + 1
            expected = f"{path}:{number}: "
            code, output = run(checker, faulty)
            named = [l for l in output.splitlines() if l.startswith(expected)]
            if code != 1 or not any(message in l for l in named):
                failures.append(f"'{line}' added to {path} should fail (exit 1) with a line "
                                f"starting '{expected}' and saying '{message}', got exit "
                                f"{code}:\n{output}")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print(f"test_upward_include: the clean tree passes; each of {len(FAULTS)} upward, checker "
          "and unresolved includes fails with its file and line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
