"""scripts/generate-python-stubs.py: its output depends only on the module, and --check
fails, naming the first differing line, on stubs that are not that output (the test
python_stubs runs --check on src/python/kernelrank.pyi)."""

import os
import subprocess
import sys
import tempfile
import unittest

import kernelrank

GENERATOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                         "generate-python-stubs.py")
MODULE_DIR = os.path.dirname(os.path.abspath(kernelrank.__file__))


def run(*args):
    return subprocess.run([sys.executable, GENERATOR, "--module-dir", MODULE_DIR, *args],
                          capture_output=True, text=True)


class GeneratorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.stub = os.path.join(cls.folder.name, "kernelrank.pyi")
        written = run(cls.stub)
        assert written.returncode == 0, written.stderr
        with open(cls.stub, encoding="utf-8") as f:
            cls.text = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def copy(self, text):
        path = os.path.join(self.folder.name, "copy.pyi")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_the_output_is_deterministic(self):
        again = os.path.join(self.folder.name, "again.pyi")
        self.assertEqual(run(again).returncode, 0)
        with open(again, encoding="utf-8") as f:
            self.assertEqual(f.read(), self.text)

    def test_check_passes_on_its_own_output(self):
        checked = run("--check", self.copy(self.text))
        self.assertEqual(checked.returncode, 0, checked.stderr)
        self.assertNotIn("error", checked.stderr)

    def test_check_names_the_first_stale_line(self):
        lines = self.text.splitlines(keepends=True)
        index = next(i for i, line in enumerate(lines) if line.startswith("def bound("))
        lines[index + 1] = lines[index + 1].replace("int", "str", 1)  # m: str
        path = self.copy("".join(lines))
        checked = run("--check", path)
        self.assertEqual(checked.returncode, 1)
        self.assertIn("%s:%d: error: the stubs are stale" % (path, index + 2), checked.stderr)

    def test_check_fails_on_a_missing_or_an_extra_line(self):
        self.assertEqual(run("--check", self.copy(self.text.rsplit("\n", 2)[0] + "\n")).returncode, 1)
        self.assertEqual(run("--check", self.copy(self.text + "x: int\n")).returncode, 1)

    def test_check_fails_on_a_missing_file(self):
        checked = run("--check", os.path.join(self.folder.name, "none.pyi"))
        self.assertEqual(checked.returncode, 1)
        self.assertIn("none.pyi", checked.stderr)


if __name__ == "__main__":
    unittest.main()
