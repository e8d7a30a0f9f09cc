#!/usr/bin/env python3
"""Checks that docs/architecture.md maps the source tree as it is on disk, and that every
#include keeps the layer order it states.

Usage: check_architecture.py REPO_ROOT

Fails (exit 1, one line per problem) when
  (a) a .cpp/.hpp/.h file under src/ or include/ is not named in the first column (Files)
      of some table of docs/architecture.md;
  (b) a source name written in the document names no file: every `backticked` name ending
      in .cpp/.hpp/.h or .{hpp,cpp}, and in the tables also every such name written without
      backticks;
  (c) an #include in src/ or include/ reaches upward: the layers are the document's
      numbered list ("1. **core** (`src/core/`)", bottom first), and a file of one layer may
      include only its own layer's files, lower layers' files and the checker's headers
      (src/check/); the checker may include only its own. Each problem names FILE:LINE.
      Every spelling is read and resolved as the compiler would: a quoted one first next to
      the including file (a bare name "commands.hpp", a relative "../eval/x.hpp"), then from
      the roots include/ and src/ ("kernelrank/eval/x.hpp", "eval/x.hpp"); one in angle
      brackets from the roots only (<kernelrank/eval/x.hpp>, <eval/x.hpp>, <check/x.hpp>).
      An include that names no file is a problem too (it could hide an upward one), except
      an angle one outside the project's folders (<vector>, <z3++.h>: a system header).

Names follow the document's notation ("How to read the tables"): relative to src/ with the
folder, `core/token.cpp` is src/core/token.cpp; a header `core/token.hpp` is
include/kernelrank/core/token.hpp, or src/core/token.hpp for an internal one;
`core/token.{hpp,cpp}` names both the header and src/core/token.cpp. Names that start at the
repository root (include/..., src/..., tests/..., scripts/...) are taken as they are. Inside
a table, a name without a folder ("golay.cpp") is one of the table's folders: those of the
names in the row's Files cell first, then those of the whole table.

Not file names, so skipped: names with placeholders or globs (`<layer>/<name>.hpp`,
cli/cmd_*.cpp), system headers (`<mpi.h>`, `z3++.h`), and include spellings in quotes
(`"commands.hpp"`, `"../plot/plots.hpp"`).
"""
import re
import sys
from pathlib import Path

SOURCE_SUFFIXES = (".cpp", ".hpp", ".h")
BRACES = ".{hpp,cpp}"
BRACES_MARK = ".@HPPCPP@"  # stands for BRACES while a text is cut into words
ROOTED = ("src/", "include/", "tests/", "scripts/")
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./-]*")
WORD = re.compile(r"[^\s,;:()\[\]`'|]+")
BACKTICKED = re.compile(r"`([^`]+)`")


def names_in(text):
    """The source file names written in `text`, brace notation expanded, in order."""
    names = []
    for word in WORD.findall(text.replace(BRACES, BRACES_MARK)):
        if any(c in word for c in '<>*{}+"'):
            continue
        word = word.rstrip(".")  # a name may end a sentence
        if word.endswith(BRACES_MARK):
            base = word[: -len(BRACES_MARK)]
            if NAME.fullmatch(base):
                names += [base + ".hpp", base + ".cpp"]
        elif word.endswith(SOURCE_SUFFIXES) and NAME.fullmatch(word):
            names.append(word)
    return names


def written_names(line, in_table):
    """Names in backticks (not quoted include spellings) and, in a table, the other names."""
    spans = [s for s in BACKTICKED.findall(line) if not s.startswith('"')]
    names = [n for span in spans for n in names_in(span)]
    if in_table:
        names += names_in(BACKTICKED.sub(" ", line))
    return names


def folder_of(name):
    return name.rsplit("/", 1)[0] if "/" in name else None


def resolve(root, name, folders=()):
    """The repository path that `name` denotes, or None when there is no such file."""
    if name.startswith(ROOTED):
        candidates = [name]
    elif "/" in name:
        candidates = ["src/" + name, "include/kernelrank/" + name]
    else:
        candidates = [prefix + folder + "/" + name for folder in folders
                      for prefix in ("src/", "include/kernelrank/")]
    for candidate in candidates:
        if (root / candidate).is_file():
            return candidate
    return None


def table_cells(line):
    """The cells of a markdown table row; None for any other line and for the rule line."""
    stripped = line.strip()
    if not stripped.startswith("|") or re.fullmatch(r"[\s|:-]*", stripped):
        return None
    return [cell.strip() for cell in stripped.strip("|").split("|")]


def read_tables(lines):
    """Maps the line index of every table row to the table (a list of row indices)."""
    tables, current = {}, None
    for index, line in enumerate(lines):
        if line.strip().startswith("|"):
            if current is None:
                current = []
            if table_cells(line) is not None:
                current.append(index)
                tables[index] = current
        else:
            current = None
    return tables


LAYER_ITEM = re.compile(r"^\d+\. \*\*(\w+)\*\* \(`src/(\w+)/`\)")
INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)')
CHECKER = "check"


def layer_order(lines):
    """The layers of the document's numbered list, bottom first: {folder: rank}."""
    order = {}
    for line in lines:
        match = LAYER_ITEM.match(line)
        if match and match.group(1) == match.group(2):
            order.setdefault(match.group(2), len(order))
    return order


def layer_of(path):
    """The folder a repository path belongs to: src/<layer>/... or include/kernelrank/<layer>/..."""
    parts = path.split("/")
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if parts[:2] == ["include", "kernelrank"] and len(parts) > 3:
        return parts[2]
    return None


def resolve_include(root, includer, spelling, quoted):
    """The repository path an #include spelling reaches, searched as the compiler searches:
    a quoted one first in the includer's folder, then (any one) from the roots include/ and
    src/. None when it names no file."""
    candidates = [str(Path(includer).parent / spelling)] if quoted else []
    candidates += ["include/" + spelling, "src/" + spelling]
    for candidate in candidates:
        full = (root / candidate).resolve()
        if full.is_file():
            try:
                return str(full.relative_to(root))
            except ValueError:
                return None
    return None


def project_folders(root):
    """The first folders of angle-bracket spellings that name project files: kernelrank/ and
    the folders of src/ (<eval/x.hpp>); any other angle include is a system header."""
    return {"kernelrank"} | {p.name for p in (root / "src").iterdir() if p.is_dir()}


def include_problems(root, files, order):
    """Upward includes and includes of no file, as 'FILE:LINE: ...' lines."""
    problems = []
    ours = project_folders(root)
    for path in files:
        mine = layer_of(path)
        lines = (root / path).read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            quoted = match.group(1) is not None
            spelling = match.group(1) if quoted else match.group(2)
            target = resolve_include(root, path, spelling, quoted)
            if target is None:
                if quoted or spelling.split("/")[0] in ours:
                    problems.append(f"{path}:{number}: #include \"{spelling}\" names no file")
                continue
            theirs = layer_of(target)
            if theirs == mine or theirs == CHECKER and mine != CHECKER:
                continue
            if mine == CHECKER:
                problems.append(f"{path}:{number}: the checker includes producer code "
                                f"\"{spelling}\" ({target})")
            elif mine not in order or theirs not in order:
                unknown = mine if mine not in order else theirs
                problems.append(f"{path}:{number}: '{unknown}' is no layer of the numbered list "
                                f"in docs/architecture.md (#include \"{spelling}\")")
            elif order[theirs] > order[mine]:
                problems.append(f"{path}:{number}: upward include: {mine} includes "
                                f"\"{spelling}\" of the higher layer {theirs}")
    return problems


def main():
    if len(sys.argv) != 2:
        print("usage: check_architecture.py REPO_ROOT", file=sys.stderr)
        return 2
    root = Path(sys.argv[1]).resolve()
    doc = "docs/architecture.md"
    lines = (root / doc).read_text(encoding="utf-8").splitlines()
    tables = read_tables(lines)
    problems = []

    def files_cell(index):
        cells = table_cells(lines[index])
        return [] if cells[0] == "Files" else names_in(cells[0])

    def folders(names):
        return [f for f in dict.fromkeys(folder_of(n) for n in names) if f is not None]

    named_in_tables = set()
    for index, line in enumerate(lines):
        in_table = index in tables
        search = []
        if in_table:
            row_files = files_cell(index)
            table_files = [n for row in tables[index] for n in files_cell(row)]
            search = folders(row_files + table_files)
            for name in row_files:
                path = resolve(root, name, search)
                if path is not None:
                    named_in_tables.add(path)
        for name in written_names(line, in_table):
            if resolve(root, name, search) is None:
                where = (f"the table's folders ({', '.join(search) or 'none'})"
                         if "/" not in name and in_table else "src/ and include/kernelrank/")
                problems.append(f"{doc}:{index + 1}: '{name}' names no file (looked in {where})")

    on_disk = sorted(str(p.relative_to(root)) for top in ("src", "include")
                     for p in (root / top).rglob("*")
                     if p.is_file() and p.name.endswith(SOURCE_SUFFIXES))
    for path in on_disk:
        if path not in named_in_tables:
            problems.append(f"{doc}: {path} is not named in the Files column of any table")

    order = layer_order(lines)
    if not order:
        problems.append(f"{doc}: no numbered list of layers (\"1. **core** (`src/core/`)\")")
    problems += include_problems(root, on_disk, order)

    for problem in problems:
        print(problem)
    if problems:
        print(f"check_architecture: {len(problems)} problem(s)")
        return 1
    print(f"check_architecture: all {len(on_disk)} source files are mapped, every named file "
          f"exists and every include keeps the layer order ({', '.join(order)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
