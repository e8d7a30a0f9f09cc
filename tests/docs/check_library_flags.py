#!/usr/bin/env python3
"""No command-line flag in the library's string literals.

Usage: check_library_flags.py REPO_ROOT

The library speaks of its parameters ("{m} must be in 2..4096", core/errors.hpp
ParameterMessage); only the front ends know flags. Fails (exit 1, one FILE:LINE per hit)
when a string literal in src/ or include/ outside the front ends has a flag: "--" followed
by a lowercase letter. The front ends are cli/, python/ and plot/ (figures for the CLI's
`plot`, docs/architecture.md); the checker (check/) is its own program with its own flags.
"""
import re
import sys
from pathlib import Path

FRONT_ENDS = ("src/cli/", "src/python/", "src/plot/", "src/check/")
# Arguments of another program that the library runs, not flags of kernelrank's own.
EXTERNAL = {"src/search/cvc5/cvc5_process.cpp": {"--lang", "--produce-models", "--tlimit",
                                                 "--version"},
            # kernelrank-train's command line, and the cmake command that builds it.
            "src/app/trainer_process.cpp": {"--quiet", "--freeze-constant-features",
                                            "--no-freeze-constant-features",
                                            "--position-dependent", "--last-step", "--build",
                                            "--target"}}
FLAG = re.compile(r"(?<![A-Za-z0-9_-])--[a-z][a-z0-9-]*")


def string_literals(text):
    """(line, contents) of every "..." literal, skipping comments and character literals."""
    i, line, out = 0, 1, []
    while i < len(text):
        c = text[i]
        if c == "\n":
            line += 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            line += text.count("\n", i, end)
            i = end + 2
            continue
        elif c in "\"'":
            j = i + 1
            while j < len(text) and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                out.append((line, text[i + 1:j]))
            i = j + 1
            continue
        i += 1
    return out


def main():
    root = Path(sys.argv[1])
    hits = []
    for top in ("src", "include"):
        for path in sorted((root / top).rglob("*")):
            rel = str(path.relative_to(root))
            if not path.is_file() or not rel.endswith((".cpp", ".hpp", ".h")):
                continue
            if rel.startswith(FRONT_ENDS):
                continue
            for line, literal in string_literals(path.read_text(encoding="utf-8")):
                for flag in FLAG.findall(literal):
                    if flag in EXTERNAL.get(rel, ()):
                        continue
                    hits.append(f"{rel}:{line}: flag {flag} in a library string literal "
                                f"(write the parameter as {{{flag[2:]}}} in a DomainError)")
    for hit in hits:
        print(hit)
    if hits:
        print(f"check_library_flags: {len(hits)} flag(s) in library code")
        return 1
    print("check_library_flags: no flag in the library's string literals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
