#!/usr/bin/env python3
"""Writes the type stubs kernelrank.pyi of the Python module from the built module itself.

Usage: scripts/generate-python-stubs.py [--module-dir DIR] [--check] [STUB]
  STUB              the stub file (default src/python/kernelrank.pyi)
  --module-dir DIR  where the built module is (default build/python)
  --check           write nothing: exit 1 and name the first differing line when STUB is not
                    what the module gives (the test suite's python_stubs test)
Exit 0 written or up to date; 1 stale (--check) or a type the module cannot state is missing
from the tables below; 2 usage.

What the module states, the stubs take from it: the functions and classes it has, each
function's arguments, keyword-only marker and defaults (pybind11 writes the signature as the
first line of each docstring), each class's bases, attributes with their C++ types, and
methods. Each docstring of the stubs is the first paragraph of the module's own (help() in
Python shows the whole text), so the text lives once, in src/python.

What it cannot state is in the tables below, by name, once: every argument is taken as a
Python object and converted by its keyword (src/python/convert.cpp), so its type is the
keyword's; likewise the result attributes held as Python objects (Fraction or None, lists of
instances). A name the module types `object` that no table covers, and a table entry that
names nothing in the module, are errors.
"""

import argparse
import ast
import difflib
import inspect
import os
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PATH = "str | os.PathLike[str]"
NUMBER = "str | int | Fraction"  # an exact number: "3/2", 3 or Fraction(3, 2)
MODEL = PATH + " | Mapping[str, Any] | _SupportsStateDict"

# Argument types by keyword, in every function; "| None" is added where the default is None.
ARGUMENTS = {
    "activation": "str", "band": "float", "base": NUMBER, "baseline": PATH, "batch": "int",
    "brute_force": "bool", "builtin": "str", "bumps": "int", "certificate": PATH, "code": PATH,
    "constant_features": "int", "constant_query_bias": "float", "cross_check": "bool",
    "cross_check_seconds": "int", "d": "int", "diagonal": NUMBER, "disagreements": "int",
    "effort": "int", "enabled": "bool", "epochs": "int", "epsilon": "float", "failures": "int",
    "family": PATH, "feature": "str | Sequence[str]", "feature_map": "str", "features": PATH,
    "format": "str", "freeze_constant_features": "bool", "golay": "str",
    "heuristic_share": "float", "incomplete": "int", "init": "str", "init_noise": "float",
    "iterations": "int", "last_step": "bool", "layout": "str", "loss": "str", "lp_budget": "int",
    "lr": "float", "m": "int", "m_max": "int", "max_instances": "int", "max_precision": "int",
    "max_profile_work": "float", "max_rounds": "int", "memory": "int", "method": "str",
    "mode": "str", "model": MODEL, "model_class": "str", "models_dir": PATH, "n": "int",
    "name": "str", "no_certificate": "bool", "no_cross_check": "bool", "no_exact": "bool",
    "no_heuristic": "bool", "no_isolate": "bool", "no_lemmas": "bool", "no_symmetry": "bool",
    "no_z3": "bool", "out": PATH, "path": PATH, "plain": "bool", "polish": "int",
    "position_dependent": "bool", "positions": "int", "precision": "int", "profiles": "bool",
    "r": "int", "r_max": "int", "recipe": "str", "restarts": "int", "rlimit": "int",
    "save_smt2": PATH, "seed": "int", "slope": NUMBER, "solver": "str", "subset": "bool",
    "temperature": "float", "test": "int", "threads": "int", "timeout": "int", "tokens": PATH,
    "train": "int", "verbose": "bool", "weight": "int",
}
# Where one function's keyword means something else ("function.keyword").
FUNCTION_ARGUMENTS = {
    "train.r": "int | Sequence[int]", "train.seed": "int | Sequence[int]",
    "train.train": PATH, "train.test": PATH,
}
# Results the module returns as a Python object.
RETURNS = {"evaluate": "EvalResult | BallResult"}
# Attributes held as Python objects, by name in every class, or "Class.name" for one class.
ATTRIBUTES = {
    "__int__": "int", "activation": "str", "answer": "str | None", "answer_vectors": "int", "block_weight": "int | None",
    "bound": "int | None", "bound_construction": "str | None", "bound_rows": "int | None",
    "candidates": "int", "cells": "list[MinRankCell]", "certificate": "str | None", "certificate_path": "str | None",
    "certificate_rule": "str | None", "checked": "bool | None", "checker_status": "str | None",
    "claim": "int | None", "code_rows": "int", "construction": "str", "found": "bool",
    "incomplete_count": "int", "m": "int", "n": "int", "rows_left_out": "int", "solves": "bool",
    "steps_supported": "int", "steps_used": "int | None", "clique": "list[list[str]] | None",
    "clique_source": "str | None", "coefficients": "list[Fraction]", "contexts": "int",
    "cross_checked": "bool | None", "d": "int", "decided_at": "dict[int, int]",
    "diagonal": "Fraction", "disagreement_list": "list[dict[str, Any]]", "disagreements": "int",
    "epochs": "int", "error": "Fraction | None", "error_hi": "Fraction | None",
    "error_lo": "Fraction | None", "error_rate": "Fraction", "failing": "int",
    "fails": "bool | None", "failures": "list[Instance]", "family": "str | None",
    "features_file": "str | None", "features_text": "str", "file": "str | None",
    "files": "list[str]", "final_loss": "float", "first_failure": "dict[str, Any] | None",
    "float_accuracy": "float", "float_error_rate": "float", "float_failing": "int",
    "grid": "bool | None", "head_file": "str | None", "head_r": "int | None",
    "heuristic": "dict[str, Any] | None", "incomplete": "list[str]", "inherited_from": "str | None",
    "instances": "int", "kernel_rank": "int", "layers": "list[int]", "log2": "tuple[int, int]",
    "lost_steps": "list[str] | None", "lost_steps_count": "int | None", "lower_bound": "int",
    "lr": "float", "margin": "Fraction | None", "max_error": "Fraction | None",
    "max_error_hi": "Fraction | None", "max_error_lo": "Fraction | None", "method": "str | None",
    "min_bits": "int | None", "model": "str | None", "model_path": "str | None",
    "models": "list[TrainedModel]", "negative_example": "Instance | None", "negative_solved": "int",
    "order_argument": "dict[str, Any] | None", "out": "str | None", "output": "Fraction | None",
    "output_hi": "Fraction | None", "output_lo": "Fraction | None", "pairs": "int | None",
    "passing": "int", "positions": "int", "product": "int", "product_max_error": "Fraction",
    "queries": "int", "query_tokens": "list[str]", "r": "int", "r_ruled_out": "bool | None",
    "rank1_failure": "Instance", "recipe": "dict[str, Any]", "row_instances": "int",
    "rows": "list[MinRankRow]", "rule": "str | None", "safetensors": "str", "seed": "int",
    "shift": "Fraction | None", "slope": "Fraction", "small_n": "list[dict[str, Any]]",
    "softmax_base": "int | None", "softmax_max_error": "Fraction | None",
    "sources": "list[tuple[str, int, str, bool]]", "test": "list[Instance]", "test_family": "str | None",
    "text": "str", "timing": "dict[str, Any]", "tokens": "list[str]",
    "trace_value": "Fraction | None", "train": "list[Instance]", "train_family": "str",
    "transcripts_upper": "int | None", "undecided": "int",
    "undecided_instances": "list[BallInstance]", "undefined": "int", "upper": "int | None",
    "upper_bound": "int", "value_sets": "list[list[int]]", "why_not": "list[str]",
    "witness_contexts": "str | None", "worst": "Instance | None", "z3": "list[dict[str, Any]]",
    "BallResult.failures": "list[BallInstance]", "BallResult.worst": "BallInstance | None",
    "BoundResult.bound": "int", "BoundResult.construction": "str | None",
    "BoundResult.r": "int | None", "BoundResult.rows": "int | None", "BoundResult.rule": "str",
    "Counterexample.failing": "Instance | None", "SearchResult.model": "SearchModel | None",
    "TrainedModel.files": "dict[str, Any]", "TrainedModel.test": "TrainedSplit | None",
    "TranscriptResult.instances": "int | None", "TranscriptResult.log2": "tuple[int, int] | None",
    "UpperResult.r": "int | None",
}
# Attributes an exception carries, set when it is raised (the module cannot list them).
EXCEPTION_ATTRIBUTES = {"InputError": {"file": "str", "line": "int", "column": "int"}}
# What pybind11 writes for a py::object, py::list, ... member or result: the tables must say more.
LOOSE = ("object", "handle", "list", "dict", "tuple")
# Special methods the stubs state (the others are Python's own or not for users).
DUNDERS = ("__bool__", "__int__", "__len__", "__iter__")

HEADER = '''"""Type stubs of the kernelrank module (docs/python.md), generated from the module by
scripts/generate-python-stubs.py: do not edit. Each docstring is the first paragraph of the
module's own; help(kernelrank.NAME) shows the whole."""

import os
from fractions import Fraction
from typing import Any, Mapping, Protocol, Sequence
'''
SUPPORTS_STATE_DICT = '''class _SupportsStateDict(Protocol):
    """Anything with state_dict(), as torch.nn.Module has."""

    def state_dict(self) -> Mapping[str, Any]: ...
'''

WIDTH = 100


class Missing(Exception):
    pass


class Annotation(ast.NodeTransformer):
    """pybind11's typing spellings (List[int], Optional[str], kernelrank.X) as the stubs'."""

    GENERIC = {"List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set"}

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "kernelrank":
            return ast.Name(node.attr)
        return self.generic_visit(node)

    def visit_Subscript(self, node):
        node = self.generic_visit(node)
        name = node.value.id if isinstance(node.value, ast.Name) else None
        if name == "Optional":
            return ast.BinOp(node.slice, ast.BitOr(), ast.Constant(None))
        if name == "Union":
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            out = parts[0]
            for part in parts[1:]:
                out = ast.BinOp(out, ast.BitOr(), part)
            return out
        if name in self.GENERIC:
            node.value = ast.Name(self.GENERIC[name])
        return node


def annotation(text):
    return ast.unparse(Annotation().visit(ast.parse(text, mode="eval").body))


def signature(function):
    """(arguments, return type) pybind11 states: [(name, kind, annotation, default or ...)]."""
    first = (function.__doc__ or "\n").splitlines()[0]
    head, arrow, returns = first.rpartition(") -> ")
    try:
        tree = ast.parse("def f(%s): pass" % head[head.index("(") + 1:]).body[0].args
    except (ValueError, SyntaxError):
        arrow = ""
    if not arrow:
        raise Missing("%s: no signature pybind11 can state in the first line of its docstring: %s"
                      % (function.__name__, first))
    positional = tree.posonlyargs + tree.args
    defaults = [...] * (len(positional) - len(tree.defaults)) + list(tree.defaults)
    arguments = [(a, "positional", d) for a, d in zip(positional, defaults)]
    arguments += [(a, "keyword", ... if d is None else d) for a, d in zip(tree.kwonlyargs, tree.kw_defaults)]
    if tree.vararg or tree.kwarg:
        raise Missing("%s: *args/**kwargs are not supported" % function.__name__)
    out = []
    for a, kind, d in arguments:
        default = ... if d is ... else ast.literal_eval(d)
        out.append((a.arg, kind, annotation(ast.unparse(a.annotation)) if a.annotation else "object", default))
    return out, annotation(returns)


def first_paragraph(doc, indent):
    """The first paragraph of a docstring, wrapped at WIDTH, as a stub docstring."""
    paragraph = inspect.cleandoc(doc or "").split("\n\n")[0]
    text = " ".join(paragraph.split()).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if not text:
        return []
    lines = textwrap.wrap(text, WIDTH - len(indent) - 6, break_long_words=False, break_on_hyphens=False)
    if len(lines) == 1:
        return [indent + '"""' + lines[0] + '"""']
    return [indent + '"""' + lines[0]] + [indent + line for line in lines[1:-1]] + [indent + lines[-1] + '"""']


class Stubs:
    def __init__(self, module):
        self.module = module
        self.used = set()
        self.missing = []

    def typed(self, stated, table_keys, where, none_default=False):
        """The annotation: the module's own, else the first table entry that names it."""
        if stated not in LOOSE:
            return stated
        for table, key in table_keys:
            if key in table:
                self.used.add((id(table), key))
                text = table[key]
                return text + " | None" if none_default and not text.endswith("| None") else text
        self.missing.append(where)
        return stated

    def function(self, name, function):
        arguments, returns = signature(function)
        parts, keyword_seen = [], False
        for argument, kind, stated, default in arguments:
            if kind == "keyword" and not keyword_seen:
                parts.append("*")
                keyword_seen = True
            text = self.typed(stated, [(FUNCTION_ARGUMENTS, name + "." + argument), (ARGUMENTS, argument)],
                              "argument %s of %s()" % (argument, name), none_default=default is None)
            parts.append("%s: %s%s" % (argument, text, "" if default is ... else " = " + repr(default)))
        returns = self.typed(returns, [(RETURNS, name)], "the result of %s()" % name)
        one_line = "def %s(%s) -> %s:" % (name, ", ".join(parts), returns)
        if len(one_line) <= WIDTH:
            lines = [one_line]
        else:
            lines = ["def %s(" % name] + ["    %s," % p for p in parts] + [") -> %s:" % returns]
        doc = first_paragraph(function.__doc__.split("\n", 1)[1] if "\n" in function.__doc__ else "", "    ")
        return lines + (doc or ["    ..."])

    def method(self, cls, name, method):
        arguments, returns = signature(method)
        if len(arguments) != 1 or arguments[0][0] != "self":
            raise Missing("%s.%s: only methods without arguments are supported" % (cls.__name__, name))
        returns = self.typed(returns, [(ATTRIBUTES, cls.__name__ + "." + name), (ATTRIBUTES, name)],
                             "the result of %s.%s()" % (cls.__name__, name))
        return ["    def %s(self) -> %s: ..." % (name, returns)]

    def attribute(self, cls, name, prop):
        stated = "object"
        if isinstance(prop, property) and prop.fget is not None and prop.fget.__doc__:
            stated = signature_of_getter(prop.fget)
        text = self.typed(stated, [(ATTRIBUTES, cls.__name__ + "." + name), (ATTRIBUTES, name)],
                          "attribute %s.%s" % (cls.__name__, name))
        return ["    %s: %s" % (name, text)] + first_paragraph(prop.__doc__, "    ")

    def cls(self, name, cls):
        bases = [b.__name__ for b in cls.__bases__ if b is not object and not b.__name__.startswith("pybind11")]
        lines = ["class %s%s:" % (name, "(%s)" % ", ".join(bases) if bases else "")]
        lines += first_paragraph(cls.__doc__, "    ")
        body = []
        if issubclass(cls, BaseException):
            for attribute, text in EXCEPTION_ATTRIBUTES.get(name, {}).items():
                self.used.add((id(EXCEPTION_ATTRIBUTES), name))
                body.append("    %s: %s" % (attribute, text))
        else:
            for member, value in vars(cls).items():
                if isinstance(value, property) and not member.startswith("_"):
                    body += self.attribute(cls, member, value)
            for member, value in vars(cls).items():
                if callable(value) and not isinstance(value, type) and (
                        not member.startswith("_") or member in DUNDERS):
                    body += self.method(cls, member, value)
        if body:
            lines += ([""] if len(lines) > 1 else []) + body
        elif len(lines) == 1:
            lines.append("    ...")
        return lines

    def text(self):
        names = sorted(n for n in dir(self.module) if not n.startswith("_"))
        classes = [n for n in names if isinstance(getattr(self.module, n), type)]
        functions = [n for n in names if n not in classes and callable(getattr(self.module, n))]
        values = [n for n in names if n not in classes and n not in functions]
        head = ["__version__: str"] if hasattr(self.module, "__version__") else []
        head += ["%s: %s" % (n, type(getattr(self.module, n)).__name__) for n in values]
        blocks = [HEADER.rstrip("\n").split("\n") + ([""] + head if head else []),
                  SUPPORTS_STATE_DICT.rstrip("\n").split("\n")]
        blocks += [self.cls(n, getattr(self.module, n)) for n in classes]
        blocks += [self.function(n, getattr(self.module, n)) for n in functions]
        stale = [key for table in (ARGUMENTS, FUNCTION_ARGUMENTS, RETURNS, ATTRIBUTES, EXCEPTION_ATTRIBUTES)
                 for key in table if (id(table), key) not in self.used]
        if stale:  # a warning: the stubs are right, the table holds more than it needs
            print("generate-python-stubs: warning: table entries that name nothing the module types "
                  "loosely: %s" % ", ".join(stale), file=sys.stderr)
        if self.missing:
            raise Missing("the module takes or gives an untyped Python object (object, list, dict) "
                          "for:\n  %s\nstate each type once in the tables of "
                          "scripts/generate-python-stubs.py" % "\n  ".join(self.missing))
        return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def signature_of_getter(fget):
    """A property's type: pybind11 writes its getter's signature '(self: X) -> int'."""
    first = fget.__doc__.splitlines()[0]
    _, arrow, returns = first.rpartition(") -> ")
    return annotation(returns) if arrow else "object"


def load(module_dir):
    sys.path.insert(0, os.path.abspath(module_dir))
    try:
        import kernelrank  # noqa: E402 (the built module, first on the path)
    except ImportError as e:
        raise Missing("cannot import kernelrank from %s (build it: scripts/build.sh kernelrank_python): %s"
                      % (module_dir, e)) from e
    found = os.path.dirname(os.path.realpath(kernelrank.__file__))
    if found != os.path.realpath(module_dir):
        raise Missing("imported kernelrank from %s, not from %s" % (found, module_dir))
    return kernelrank


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("stub", nargs="?", default=os.path.join(ROOT, "src", "python", "kernelrank.pyi"))
    parser.add_argument("--module-dir", default=os.path.join(ROOT, "build", "python"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    try:
        text = Stubs(load(args.module_dir)).text()
    except Missing as e:
        print("generate-python-stubs: error: %s" % e, file=sys.stderr)
        return 1
    if args.check:
        try:
            with open(args.stub, encoding="utf-8") as f:
                old = f.read()
        except OSError as e:
            print("generate-python-stubs: error: %s" % e, file=sys.stderr)
            return 1
        if old == text:
            return 0
        old_lines, new_lines = old.splitlines(), text.splitlines()
        line = next((i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b),
                    min(len(old_lines), len(new_lines)))
        print("%s:%d: error: the stubs are stale; regenerate them: scripts/build.sh kernelrank_python "
              "&& scripts/generate-python-stubs.py" % (args.stub, line + 1), file=sys.stderr)
        diff = difflib.unified_diff(old_lines, new_lines, args.stub, "generated", n=1, lineterm="")
        for i, row in enumerate(diff):
            if i == 40:
                print("...", file=sys.stderr)
                break
            print(row, file=sys.stderr)
        return 1
    # Atomically: a reader never sees half a stub file.
    tmp = args.stub + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, args.stub)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
