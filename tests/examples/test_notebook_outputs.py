"""tests/examples/notebook_outputs.py: the shipped notebook carries outputs, and the check
fails on outputs that differ from a run by one line or are missing (the test notebook runs
the check on a fresh execution)."""

import copy
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import notebook_outputs  # noqa: E402

SHIPPED = os.path.join(HERE, "..", "..", "examples", "notebooks", "verify-your-head.ipynb")


class NotebookOutputsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.notebook = notebook_outputs.load(SHIPPED)

    def check(self, shipped):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "shipped.ipynb")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(shipped, f)
            return notebook_outputs.check(self.notebook, notebook_outputs.load(path), path)

    def test_the_shipped_notebook_has_its_outputs(self):
        cells = notebook_outputs.code_cells(self.notebook)
        self.assertTrue(all(c.get("execution_count") for c in cells))
        kinds = [o for c in cells for o in c.get("outputs", [])]
        self.assertTrue(any("image/png" in o.get("data", {}) for o in kinds))
        text = "\n".join(line for c in cells for line in notebook_outputs.outputs(c))
        self.assertIn("s VERIFIED", text)
        self.assertIn("summary: ", text)
        self.assertNotIn("/tmp/", text)  # no absolute path of the run's scratch folder

    def test_the_same_outputs_pass(self):
        self.assertEqual(self.check(self.notebook), 0)

    def test_one_changed_line_fails(self):
        changed = copy.deepcopy(self.notebook)
        cell = next(c for c in notebook_outputs.code_cells(changed) if c.get("outputs"))
        stream = next(o for o in cell["outputs"] if o["output_type"] == "stream")
        stream["text"] = ["x" + "".join(stream["text"])]
        self.assertEqual(self.check(changed), 1)

    def test_missing_outputs_fail(self):
        stripped = copy.deepcopy(self.notebook)
        for cell in notebook_outputs.code_cells(stripped):
            cell["outputs"] = []
        self.assertEqual(self.check(stripped), 1)

    def test_split_stream_chunks_compare_equal(self):
        # The kernel may flush one cell's prints in several chunks; they compare as one text.
        split = copy.deepcopy(self.notebook)
        cell = next(c for c in notebook_outputs.code_cells(split)
                    if any(o["output_type"] == "stream" and len("".join(o["text"]).splitlines()) > 1
                           for o in c.get("outputs", [])))
        stream = next(o for o in cell["outputs"] if o["output_type"] == "stream")
        lines = "".join(stream["text"]).splitlines(keepends=True)
        stream["text"] = lines[:1]
        cell["outputs"].insert(cell["outputs"].index(stream) + 1,
                               dict(stream, text=lines[1:]))
        self.assertEqual(self.check(split), 0)


if __name__ == "__main__":
    unittest.main()
