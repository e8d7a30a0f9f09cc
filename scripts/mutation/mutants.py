#!/usr/bin/env python3
"""Mutant generator for scripts/mutate-checker.sh (Python 3, standard library only).

It reads the C++ sources named in TARGETS, finds mutation sites with regular expressions
on the code (string and character literals and comments are masked first, so nothing
inside them is ever mutated), and lists the mutants in a fixed order: group (checker,
then core), file in TARGETS order, line, column, operator. Each mutant changes exactly
one site; line numbers are kept (a deleted multi-line statement leaves its newlines).

Operators (docs/robustness.md, "Mutation testing"):
  flip     a relational operator by its negation: < >=, <= >, > <=, >= <, == !=, != ==
  relax    a strict comparison made non-strict: < to <=, > to >=
  tighten  a non-strict comparison made strict: <= to <, >= to >
  negate   an if/while condition that is not a single comparison: C to !(C)
  delete   a statement that rejects: a call of fail, fail_check, fail_malformed,
           malformed, malformed_at_end or X.malformed; a throw; return false;
           return std::nullopt; continue (which skips a candidate); replaced by {}
  obo      an integer literal k by k+1 and by k-1, where it is an operand of a
           comparison, of + or -, part of a for header or the value of a return
  const    a computed value by the constant {} (0, false, empty): the value of a
           return statement that is not a literal, or the initializer of a local of
           arithmetic type (int, long, std::size_t, std::uint64_t, std::uint32_t, BigInt,
           Integer, Rational, bool)

Mutant ids: KEY = <group letter><file tag>-<hash>, a hash of the file, the original text
of the line (whitespace-normalised), its occurrence number among identical lines, the
operator, the site's ordinal in the line and the replacement. A key therefore survives
edits elsewhere in the file; it disappears only when its own line changes. The sequence
number (#) is the position in the current list.

Usage:
  mutants.py list [--root DIR] [--group checker|core] [--format text|tsv] [--every K]
      # --every K: only keys whose hash is divisible by K, a sample fixed by the keys
      # alone (so it does not depend on any test result); numbers stay those of the full list
  mutants.py apply KEY [--root DIR]      # mutates the file under DIR in place
  mutants.py show KEY [--root DIR]       # prints the mutant as a unified diff
  mutants.py info KEY [--root DIR]       # group, file, line, operator (tab-separated)
  mutants.py report RESULTS.tsv...     # markdown tables from --results files (later
                                       # files override earlier rows of the same key)
  mutants.py sync --root SRC --to DST [--skip DIR]
      # makes DST a copy of the source tree SRC (without .git, build trees and DIR),
      # rewriting only files whose content differs, so that a reused build stays incremental
"""
import argparse
import difflib
import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

# (group, path, regions[, excluded]). A region is (first-line regex, last-line regex):
# from the first line matching the first regex through the next line matching the
# second, inclusive; None means the whole file. Regions select the producer's exact core;
# `excluded` regions are functions that only format message text.
TARGETS = [
    ("checker", "src/check/amplification.cpp", None),
    ("checker", "src/check/certificate.cpp", None, [
        (r"^std::string quoted\(", r"^}"),
    ]),
    ("checker", "src/check/certificate_v2.cpp", None),
    ("checker", "src/check/check.cpp", None, [
        (r"^std::string rule_text\(", r"^}"),
        (r"^void print_summary\(", r"^}"),
    ]),
    ("checker", "src/check/conclusion.cpp", None),
    ("checker", "src/check/cube_rule.cpp", None),
    ("checker", "src/check/dependence_rule.cpp", None),
    ("checker", "src/check/family.cpp", None),
    ("checker", "src/check/family_chains.cpp", None, [
        (r"^std::string mode_name\(", r"^}"),
        (r"^  std::string keys;", r"^             \"the family has no instance"),
    ]),
    ("checker", "src/check/inherit_rule.cpp", None, [
        (r"^std::string mode_text\(", r"^}"),
        (r"^std::string positions_text\(", r"^}"),
    ]),
    ("checker", "src/check/order_rule.cpp", None),
    ("checker", "src/check/reader.cpp", None, [
        (r"^std::string printable\(", r"^}"),
    ]),
    ("checker", "src/check/tokens.cpp", None, [
        (r"^std::string token_problem\(", r"^}"),
        (r"^std::string token_text\(", r"^}"),
    ]),
    ("checker", "src/check/sha256.cpp", None, [
        (r"^std::string to_hex\(", r"^}"),
    ]),
    ("checker", "src/check/certificate_product.cpp", None),
    ("checker", "src/check/checksum_code.cpp", None),
    ("checker", "src/check/product_rule.cpp", None, [
        (r"^std::string block_name\(", r"^}"),
    ]),
    ("checker", "src/check/shifted_rule.cpp", None),
    ("checker", "src/check/layered_head.cpp", None, [
        (r"^std::string shown\(", r"^}"),
    ]),
    ("checker", "src/check/layered_rule.cpp", None, [
        (r"^std::string layer_list\(", r"^}"),
        (r"^std::string profile_text\(", r"^}"),
    ]),
    ("core", "src/bounds/amplification.cpp", [
        (r"^Rational gap_domination_factor\(", r"^}"),
        (r"^AmplificationTable::AmplificationTable\(", r"^}"),
        (r"^const std::optional<Amplification>& AmplificationTable::at\(", r"^}"),
        (r"^DominationStep domination_step\(", r"^}"),
    ]),
    ("core", "src/bounds/domination_check.cpp", [
        (r"^bool inequality_holds\(", r"^}"),
        (r"^DominationViolation describe_violation\(", r"^}"),
        (r"^  const std::vector<Token> universe = detail::cube_tokens", r"^}"),
        (r"^DominationReport check_domination_family\(", r"^}"),
    ]),
    ("core", "src/bounds/rank_bound.cpp", [
        (r"^GapHistograms histograms\(", r"^}"),
        (r"^RankBoundResult certify_rank_bound\(", r"^}"),
        (r"^Rational trace_bound_value\(", r"^}"),
        (r"^RankBoundResult best_rank_bound\(", r"^}"),
    ]),
    ("core", "src/eval/evaluate.cpp", [
        (r"^bool InstanceOutcome::fails\(\)", r"^bool InstanceOutcome::fails\(\)"),
        (r"^InstanceOutcome outcome_from_sums\(", r"^}"),
        (r"^void ReportBuilder::add\(const InstanceOutcome", r"^}"),
    ]),
    ("core", "src/eval/tabulated_eval.cpp", [
        (r"^\s+if \(2 \* anum >= aden\)", r"^\s+if \(2 \* anum >= aden\)"),
        (r"^\s+if \(error \* 2 >= 1\)", r"^\s+if \(error \* 2 >= 1\)"),
    ]),
    ("core", "src/bounds/order_argument.cpp", [
        (r"^std::vector<DominationFact> domination_facts\(", r"^}"),
        (r"^class OrderGraph", r"^};"),
        (r"^struct OrderSearch", r"^};"),
        (r"^bool separations_consistent\(", r"^}"),
        (r"^OrderArgument order_argument\(", r"^}"),
    ]),
]

GROUP_LETTER = {"checker": "C", "core": "P"}

RELATIONAL = {
    "<": [("flip", ">="), ("relax", "<=")],
    "<=": [("flip", ">"), ("tighten", "<")],
    ">": [("flip", "<="), ("relax", ">=")],
    ">=": [("flip", "<"), ("tighten", ">")],
    "==": [("flip", "!=")],
    "!=": [("flip", "==")],
}

REJECT_CALL = re.compile(
    r"\b(?:fail|fail_check|fail_malformed|malformed|malformed_at_end|"
    r"[A-Za-z_][A-Za-z_0-9]*\.malformed)\s*\(")
REJECT_WORD = re.compile(r"\bthrow\b|\breturn false\s*;|\breturn std::nullopt\s*;|\bcontinue\s*;")
ARITH_TYPES = (r"(?:int|long|std::size_t|std::uint64_t|std::uint32_t|std::int64_t|BigInt|Integer|"
               r"Rational|bool)")
LOCAL_INIT = re.compile(r"^(\s*(?:const\s+)?" + ARITH_TYPES + r"\s+[A-Za-z_][A-Za-z_0-9]*\s*=\s*)(.+);\s*$")
RETURN_VALUE = re.compile(r"\breturn\s+(?!;)")
LITERAL = re.compile(r"(?<![A-Za-z_0-9.'])(\d+(?:'\d+)*)(?![A-Za-z_0-9.'xX])")


def mask_code(text):
    """The text with string/char literals and comments replaced by spaces (newlines kept),
    and preprocessor lines blanked."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for k in range(i, end):
                if text[k] != "\n":
                    out[k] = " "
            i = end
            continue
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            quote = c
            out[i] = quote  # keep the quotes so that a literal stays one token
            i += 1
            while i < n and text[i] != quote:
                if text[i] == "\\":
                    out[i] = " "
                    i += 1
                if i < n and text[i] != "\n":
                    out[i] = " "
                i += 1
            i += 1
            continue
        i += 1
    return "".join(out)


def line_offsets(text):
    offsets = [0]
    for k, c in enumerate(text):
        if c == "\n":
            offsets.append(k + 1)
    return offsets


def region_lines(lines, regions):
    chosen = set()
    for first, last in regions:
        start = next((k for k, line in enumerate(lines) if re.search(first, line)), None)
        if start is None:
            raise SystemExit("mutants.py: region start /%s/ not found" % first)
        stop = next((k for k in range(start, len(lines)) if re.search(last, lines[k])), None)
        if stop is None:
            raise SystemExit("mutants.py: region end /%s/ not found after /%s/" % (last, first))
        chosen.update(range(start, stop + 1))
    return chosen


def selected_lines(lines, target):
    regions = target[2]
    chosen = set(range(len(lines))) if regions is None else region_lines(lines, regions)
    if len(target) > 3:
        chosen -= region_lines(lines, target[3])
    return chosen


def matching(masked, pos, open_c, close_c):
    """Index of the bracket closing the one at `pos`."""
    depth = 0
    for k in range(pos, len(masked)):
        if masked[k] == open_c:
            depth += 1
        elif masked[k] == close_c:
            depth -= 1
            if depth == 0:
                return k
    return None


def statement_end(masked, pos):
    """Index of the ';' ending the statement starting at pos (depth 0)."""
    depth = 0
    for k in range(pos, len(masked)):
        c = masked[k]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif c == ";" and depth == 0:
            return k
    return None


def at_statement_start(masked, pos):
    k = pos - 1
    while k >= 0 and masked[k].isspace():
        k -= 1
    if k < 0 or masked[k] in ";{})":
        return True
    return masked[max(0, k - 3):k + 1] == "else" and (k < 4 or not masked[k - 4].isalnum())


def top_level_split(expr):
    """Top-level relational operators and logical connectives of a condition."""
    depth = 0
    rel, logic, semicolon, assign = 0, 0, False, False
    for m in re.finditer(r"\(|\)|\[|\]|&&|\|\||;|(?<=\s)(?:<=|>=|==|!=|<|>)(?=\s)|(?<![<>=!])=(?!=)", expr):
        tok = m.group(0)
        if tok in "([":
            depth += 1
        elif tok in ")]":
            depth -= 1
        elif depth == 0:
            if tok in ("&&", "||"):
                logic += 1
            elif tok == ";":
                semicolon = True
            elif tok == "=":
                assign = True
            else:
                rel += 1
    return rel, logic, semicolon, assign


class Mutant:
    def __init__(self, group, path, line, col, op, start, end, replacement, original_line, what):
        self.group, self.path, self.line, self.col, self.op = group, path, line, col, op
        self.start, self.end, self.replacement = start, end, replacement
        self.original_line = original_line
        self.what = what
        self.key = None


def sites(group, path, text):
    masked = mask_code(text)
    offsets = line_offsets(text)
    lines = text.split("\n")
    mlines = masked.split("\n")
    chosen = selected_lines(lines, next(t for t in TARGETS if t[1] == path))
    found = []

    # Message text: the arguments of a rejecting call or a throw, std::to_string's
    # argument and std::string locals; and the progress display (progress.update(...)).
    # Only `delete` mutates a rejecting call, as a whole.
    message = []
    for m in re.finditer(REJECT_CALL.pattern + r"|\bthrow\b|\bstd::to_string\s*\(|\bprogress\.\w+\s*\(", masked):
        if m.group(0) == "throw":
            end = statement_end(masked, m.start())
            if end is not None:
                message.append((m.end(), end))
            continue
        close = matching(masked, m.end() - 1, "(", ")")
        if close is not None:
            message.append((m.end(), close))
    for m in re.finditer(r"^\s*(?:const\s+)?std::string\s+[A-Za-z_][A-Za-z_0-9]*\s*=", masked, re.M):
        end = statement_end(masked, m.end())
        if end is not None:
            message.append((m.end(), end))

    def add(op, start, end, replacement, what):
        line = next(k for k in range(len(offsets) - 1, -1, -1) if offsets[k] <= start)
        if line not in chosen:
            return
        if op != "delete" and any(a <= start < b for a, b in message):
            return
        found.append(Mutant(group, path, line + 1, start - offsets[line] + 1, op, start, end,
                            replacement, lines[line], what))

    # Relational operators: binary operators are written with a space on both sides.
    for m in re.finditer(r"(?<=\s)(<=|>=|==|!=|<|>)(?=\s)", masked):
        for op, new in RELATIONAL[m.group(1)]:
            add(op, m.start(1), m.end(1), new, "%s -> %s" % (m.group(1), new))

    # Negation of if/while conditions that are not a single comparison.
    for m in re.finditer(r"\b(if|while)\s*\(", masked):
        open_pos = m.end() - 1
        close = matching(masked, open_pos, "(", ")")
        if close is None:
            continue
        cond = masked[open_pos + 1:close]
        rel, logic, semicolon, assign = top_level_split(cond)
        if semicolon or assign or (rel == 1 and logic == 0):
            continue
        if m.group(1) == "while" and cond.strip() == "true":
            continue
        original = text[open_pos + 1:close]
        add("negate", open_pos + 1, close, "!(" + original + ")",
            "%s (C) -> %s (!(C))" % (m.group(1), m.group(1)))

    # Deletion of rejecting statements.
    for rx in (REJECT_CALL, REJECT_WORD):
        for m in rx.finditer(masked):
            start = m.start()
            if not at_statement_start(masked, start):
                continue
            end = statement_end(masked, start)
            if end is None:
                continue
            newlines = text[start:end + 1].count("\n")
            head = re.sub(r"\s+", " ", text[start:m.end()]).strip()
            add("delete", start, end + 1, "{}" + "\n" * newlines, "delete '%s...'" % head)

    # Off-by-one on integer literals in comparisons, +/- operands, for headers, returns.
    for_headers = []
    for m in re.finditer(r"\bfor\s*\(", masked):
        close = matching(masked, m.end() - 1, "(", ")")
        if close is not None:
            for_headers.append((m.end(), close))
    for m in LITERAL.finditer(masked):
        start, end = m.start(1), m.end(1)
        lit = m.group(1)
        before = masked[max(0, start - 5):start]
        after = masked[end:end + 5]
        in_for = any(a <= start < b for a, b in for_headers)
        # Binary operators are written with a space on both sides (no <<, >>, -> or <...>).
        near_op = re.search(r"\s(?:<=|>=|==|!=|<|>|\+|-)\s+$", before) is not None
        near_op = near_op or re.match(r"^\s+(?:<=|>=|==|!=|<|>|\+|-)\s", after) is not None
        line = next(k for k in range(len(offsets) - 1, -1, -1) if offsets[k] <= start)
        in_return = re.match(r"^\s*return\b", mlines[line]) is not None
        if not (in_for or near_op or in_return):
            continue
        value = int(lit.replace("'", ""))
        for delta in (1, -1):
            new = value + delta
            if new < 0:
                continue
            add("obo", start, end, str(new), "%s -> %d" % (lit, new))

    # Constants for computed values.
    for m in RETURN_VALUE.finditer(masked):
        end = statement_end(masked, m.end())
        if end is None:
            continue
        value = masked[m.end():end].strip()
        if not value or re.fullmatch(r"\d+|true|false|\{\}|std::nullopt|nullptr", value):
            continue
        newlines = text[m.end():end].count("\n")
        add("const", m.end(), end, "{}" + "\n" * newlines, "return E -> return {}")
    for k, mline in enumerate(mlines):
        mm = LOCAL_INIT.match(mline)
        if not mm or "(" in mm.group(1):
            continue
        init = mm.group(2).strip()
        if re.fullmatch(r"\d+|true|false|\{\}", init):
            continue
        start = offsets[k] + len(mm.group(1))
        end = offsets[k] + len(mline.rstrip()) - 1  # the ';'
        add("const", start, end, "{}", "initializer E -> {}")

    found.sort(key=lambda s: (s.line, s.col, s.op, s.replacement))
    # Stable keys: the line's text, which copy of that text it is, and the site in it.
    occurrence = {}
    copies = {}
    for k, line in enumerate(lines):
        norm = " ".join(line.split())
        occurrence[k + 1] = copies.get(norm, 0)
        copies[norm] = occurrence[k + 1] + 1
    ordinal = {}
    tag = os.path.splitext(os.path.basename(path))[0]
    for s in found:
        norm = " ".join(s.original_line.split())
        idx = ordinal.get(s.line, 0)
        ordinal[s.line] = idx + 1
        # The file's name, not its folder: a key survives moving the file.
        digest = hashlib.sha256("\0".join(
            [os.path.basename(path), norm, str(occurrence[s.line]), s.op, str(idx), s.replacement]).encode()).hexdigest()[:6]
        s.key = "%s%s-%s" % (GROUP_LETTER[group], tag, digest)
    return found


def all_mutants(root, group=None):
    result = []
    for target in TARGETS:
        g, path = target[0], target[1]
        if group and g != group:
            continue
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        result.extend(sites(g, path, text))
    keys = [m.key for m in result]
    if len(set(keys)) != len(keys):
        raise SystemExit("mutants.py: duplicate mutant keys")
    return result


def find(root, key):
    for m in all_mutants(root):
        if m.key == key:
            return m
    raise SystemExit("mutants.py: no mutant %s in the sources under %s (its line changed?)" % (key, root))


def mutated_text(root, m):
    with open(os.path.join(root, m.path), encoding="utf-8") as f:
        text = f.read()
    return text, text[:m.start] + m.replacement + text[m.end:]


def is_build_tree(path, name, top):
    return (name == ".git" or name == "__pycache__" or (top and name.startswith("build")) or
            os.path.exists(os.path.join(path, "CMakeCache.txt")))


def sync(src, dst, skip):
    src, dst = os.path.abspath(src), os.path.abspath(dst)
    skips = {os.path.abspath(p) for p in skip} | {dst}
    wanted = set()
    copied = 0
    for here, dirs, files in os.walk(src):
        top = here == src
        dirs[:] = sorted(d for d in dirs if not is_build_tree(os.path.join(here, d), d, top)
                         and os.path.abspath(os.path.join(here, d)) not in skips)
        rel = os.path.relpath(here, src)
        for name in sorted(files):
            source = os.path.join(here, name)
            if not os.path.isfile(source):
                continue
            target = os.path.normpath(os.path.join(dst, rel, name))
            wanted.add(target)
            with open(source, "rb") as f:
                data = f.read()
            try:
                with open(target, "rb") as f:
                    same = f.read() == data
            except OSError:
                same = False
            if not same:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(data)
                os.chmod(target, os.stat(source).st_mode & 0o777)
                copied += 1
    removed = 0
    for here, dirs, files in os.walk(dst):
        # A build tree inside the copy (the CI sample's) is the build's, not a stale source.
        dirs[:] = [d for d in dirs if not is_build_tree(os.path.join(here, d), d, here == dst)]
        for name in files:
            path = os.path.join(here, name)
            if path not in wanted:
                os.remove(path)
                removed += 1
    print("c synced %s: %d files written, %d removed" % (dst, copied, removed), file=sys.stderr)


def report(paths):
    """Markdown for docs/robustness.md from the --results files of scripts/mutate-checker.sh."""
    rows = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#\t") or not line.strip():
                    continue
                number, key, group, op, where, result, by, what = line.rstrip("\n").split("\t")
                rows[key] = (int(number), key, group, op, where, result, by, what)
    ordered = sorted(rows.values())
    files = []
    stats = {}
    for number, key, group, op, where, result, by, what in ordered:
        path = where.split(":")[0]
        if path not in stats:
            files.append(path)
            stats[path] = {"group": group, "killed": 0, "survived": 0, "equivalent": 0, "stillborn": 0}
        stats[path]["equivalent" if result == "equivalent" else result] += 1
    out = ["| group | file | mutants | killed | equivalent | stillborn | score |",
           "|-------|------|--------:|-------:|-----------:|----------:|------:|"]
    totals = {}
    for path in files:
        st = stats[path]
        total = st["killed"] + st["survived"] + st["equivalent"] + st["stillborn"]
        valid = st["killed"] + st["survived"] + st["equivalent"]
        out.append("| %s | `%s` | %d | %d | %d | %d | %.1f%% |" % (
            st["group"], path, total, st["killed"], st["equivalent"] + st["survived"], st["stillborn"],
            100.0 * st["killed"] / valid if valid else 0))
        t = totals.setdefault(st["group"], [0, 0, 0, 0])
        t[0] += total
        t[1] += st["killed"]
        t[2] += st["equivalent"] + st["survived"]
        t[3] += st["stillborn"]
    for group in ("checker", "core"):
        if group in totals:
            t = totals[group]
            out.append("| **%s** | all | **%d** | **%d** | **%d** | **%d** | **%.1f%%** |" % (
                group, t[0], t[1], t[2], t[3], 100.0 * t[1] / (t[1] + t[2]) if t[1] + t[2] else 0))
    out.append("")
    out.append("| # | mutant | operator | file:line | change | result |")
    out.append("|--:|--------|----------|-----------|--------|--------|")
    for number, key, group, op, where, result, by, what in ordered:
        if result == "killed":
            text = "killed by " + by.replace("|", "\\|")
        elif result == "equivalent":
            text = "**equivalent** " + by
        else:
            text = "**" + result + "**"
        out.append("| %d | `%s` | %s | `%s` | `%s` | %s |" % (number, key, op, where,
                                                          what.replace("|", "\\|"), text))
    print("\n".join(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["list", "apply", "show", "info", "sync", "report"])
    parser.add_argument("key", nargs="*")
    parser.add_argument("--root", default=DEFAULT_ROOT)
    parser.add_argument("--group", choices=["checker", "core"])
    parser.add_argument("--format", choices=["text", "tsv"], default="text")
    parser.add_argument("--to")
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("--every", type=int, default=1,
                        help="list only the mutants whose key hash is divisible by K")
    args = parser.parse_args()
    if args.every < 1:
        parser.error("--every needs a positive K")
    if args.command == "sync":
        if not args.to:
            parser.error("sync needs --to DST")
        sync(args.root, args.to, args.skip)
        return
    if args.command == "report":
        report(args.key)
        return
    if args.command == "list":
        for number, m in enumerate(all_mutants(args.root, args.group), 1):
            if int(m.key.rsplit("-", 1)[1], 16) % args.every != 0:
                continue
            if args.format == "tsv":
                print("\t".join([str(number), m.key, m.group, m.op, "%s:%d" % (m.path, m.line), m.what]))
            else:
                print("%4d %-22s %-7s %-8s %s:%d  %s" % (number, m.key, m.group, m.op,
                                                         m.path, m.line, m.what))
        return
    if len(args.key) != 1:
        parser.error("%s needs one KEY" % args.command)
    m = find(args.root, args.key[0])
    if args.command == "info":
        print("\t".join([m.key, m.group, m.op, "%s:%d" % (m.path, m.line), m.what]))
    elif args.command == "show":
        old, new = mutated_text(args.root, m)
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                   "a/" + m.path, "b/" + m.path, n=1))
    else:
        old, new = mutated_text(args.root, m)
        if old == new:
            raise SystemExit("mutants.py: %s does not change the file" % m.key)
        with open(os.path.join(args.root, m.path), "w", encoding="utf-8") as f:
            f.write(new)
        print("\t".join([m.key, m.group, m.op, "%s:%d" % (m.path, m.line), m.what]))


if __name__ == "__main__":
    main()
