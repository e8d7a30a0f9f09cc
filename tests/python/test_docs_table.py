"""docs/python.md's table of commands: every function of the module has its row, each row's
CLI command exists, the keywords it shows are the function's own, and its example runs
(from a scratch directory that sees the source tree's instances/ and a scratch build/).

The environment is the one test_module.py documents.
"""

import ast
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import kernelrank
from test_module import BIN, CHECK_BIN, SOURCE
from test_stubs import module_signature, public_functions

DOC = os.path.join(SOURCE, "docs", "python.md")
TRAINER = os.environ.get("KERNELRANK_TRAIN", os.path.join(os.path.dirname(BIN), "kernelrank-train"))


def table_rows():
    with open(DOC, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = lines.index("| CLI command | Python function (returns) | one example |")
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        rows.append(cells)
    return rows


def code_spans(cell):
    return re.findall(r"`([^`]+)`", cell)


class DocsTableTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = table_rows()

    def test_every_function_has_a_row(self):
        named = [code_spans(row[1])[0].split("(")[0] for row in self.rows]
        self.assertEqual(sorted(named), sorted(public_functions()))

    def test_keywords_are_the_functions_own(self):
        for row in self.rows:
            signature = code_spans(row[1])[0]
            name, _, params = signature.partition("(")
            own = {arg for arg, _, _ in module_signature(getattr(kernelrank, name))}
            shown = {p.split("=")[0].strip() for p in params.rstrip(")").split(",")}
            shown -= {"*", "...", ""}
            with self.subTest(function=name):
                self.assertLessEqual(shown, own)

    def test_cli_commands_exist(self):
        for row in self.rows:
            command = code_spans(row[0])[0].split()[0]
            with self.subTest(command=command):
                if command == "kernelrank-check":  # the checker is its own program
                    self.assertTrue(os.access(CHECK_BIN, os.X_OK), CHECK_BIN)
                    continue
                self.assertEqual(subprocess.run([BIN, command, "--help"], capture_output=True).returncode, 0)

    def test_examples_run(self):
        scratch = tempfile.mkdtemp()
        here = os.getcwd()
        try:
            os.symlink(os.path.join(SOURCE, "instances"), os.path.join(scratch, "instances"))
            os.mkdir(os.path.join(scratch, "build"))
            os.chdir(scratch)
            kernelrank.set_progress(False)
            for row in self.rows:  # in table order: later examples read earlier ones' files
                example = code_spans(row[2])[0]
                if "kernelrank.train(" in example and not os.path.exists(TRAINER):
                    continue  # a build without libtorch has no trainer
                with self.subTest(example=example):
                    value = eval(compile(ast.parse(example, mode="eval"), DOC, "eval"), {"kernelrank": kernelrank})
                    if "set_progress" not in example:
                        self.assertIsNotNone(value)
        finally:
            os.chdir(here)
            kernelrank.set_progress(True)
            shutil.rmtree(scratch)


if __name__ == "__main__":
    unittest.main()
