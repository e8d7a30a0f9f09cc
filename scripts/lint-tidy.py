#!/usr/bin/env python3
"""clang-tidy over every translation unit under src/ except src/train/ (libtorch's headers do
not parse with clang 14 against GCC 12's library), with the checks in .clang-tidy, each
finding an error; docs/robustness.md, "Static checks".

A translation unit that passed is remembered under a key made of everything its result can
depend on: clang-tidy's version, .clang-tidy, the installed packages (/var/lib/dpkg/status),
every header of src/ and include/, the file itself and its compile command (with the
checkout's path taken out, so another clone shares the results). Only the others run again,
so a warm machine re-checks what changed and a fresh one checks everything.

Usage: scripts/lint-tidy.py BUILD_DIR    (the cache: $KERNELRANK_TIDY_CACHE, default
~/.cache/kernelrank/clang-tidy). Writes BUILD_DIR/clang-tidy.log."""
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys


def digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def shared_key(root: str) -> str:
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True).stdout
    parts = [version, read(os.path.join(root, ".clang-tidy")), read("/var/lib/dpkg/status")]
    for top in ("src", "include"):
        for here, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith((".hpp", ".h")):
                    path = os.path.join(here, name)
                    parts += [os.path.relpath(path, root).encode(), read(path)]
    return digest(*parts)


UNITY_INCLUDE = re.compile(r'^#include "([^"]+\.cpp)"', re.M)


def unity_expanded(entries: list) -> list:
    """A unity batch (CMakeLists.txt, kernelrank_unity_batches) compiles several sources as
    one file, including them by paths relative to itself; clang-tidy must see each source on
    its own, with the batch's command."""
    out = []
    for e in entries:
        here = os.path.dirname(e["file"])
        sources = ([os.path.normpath(os.path.join(here, s))
                    for s in UNITY_INCLUDE.findall(read(e["file"]).decode())]
                   if "/unity-batches/" in e["file"] else [])
        if not sources:
            out.append(e)
            continue
        for source in sources:
            copy = dict(e, file=source)
            for field in ("command", "arguments"):
                if field in copy:
                    value = copy[field]
                    copy[field] = (value.replace(e["file"], source) if isinstance(value, str)
                                   else [source if a == e["file"] else a for a in value])
            out.append(copy)
    return out


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: scripts/lint-tidy.py BUILD_DIR", file=sys.stderr)
        return 2
    root = os.getcwd()
    build = os.path.abspath(sys.argv[1])
    cache = os.environ.get("KERNELRANK_TIDY_CACHE",
                           os.path.expanduser("~/.cache/kernelrank/clang-tidy"))
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = unity_expanded(json.load(f))
    # clang-tidy reads the commands from a database: the expanded one, beside the build's.
    tidy_db = os.path.join(build, "tidy")
    os.makedirs(tidy_db, exist_ok=True)
    with open(os.path.join(tidy_db, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    wanted = re.compile("^" + re.escape(root) + "/src/(?!train/)")
    units = sorted({e["file"]: e for e in entries if wanted.match(e["file"])}.values(),
                   key=lambda e: e["file"])
    base = shared_key(root)
    todo = []
    for e in units:
        command = e.get("command", " ".join(e.get("arguments", []))).replace(root, "<root>")
        key = digest(base.encode(), os.path.relpath(e["file"], root).encode(), read(e["file"]),
                     command.encode())
        if not os.path.exists(os.path.join(cache, key)):
            todo.append((e["file"], key))

    def run(item):
        path, key = item
        done = subprocess.run(["clang-tidy", "-p", tidy_db, "--quiet", path],
                              capture_output=True, text=True)
        if done.returncode == 0:
            open(os.path.join(cache, key), "w").close()
        return path, done.returncode, done.stdout + done.stderr

    failed = []
    with open(os.path.join(build, "clang-tidy.log"), "w") as log, \
            concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for path, code, output in pool.map(run, todo):
            log.write(f"== {path} (exit {code})\n{output}\n")
            if code != 0:
                failed.append((path, output))
    for path, output in failed:
        lines = [l for l in output.splitlines() if "error:" in l or "warning:" in l]
        print("\n".join(sorted(set(lines))[:20]) or f"{path}: clang-tidy failed", file=sys.stderr)
    if failed:
        print(f"lint: clang-tidy found problems in {len(failed)} files, see "
              f"{os.path.relpath(build, root)}/clang-tidy.log", file=sys.stderr)
        return 1
    print(f"lint.sh: clang-tidy: {len(units)} translation units clean "
          f"({len(units) - len(todo)} unchanged since a clean run, {len(todo)} checked now)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
