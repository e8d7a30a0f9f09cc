"""kernelrank.search and kernelrank.min_rank against the CLI's search and min-rank (--json).

Run by CTest (test python_module), with the environment of test_module.py; tiny cells only
(m <= 4, short budgets), so the whole file takes a few seconds.
"""

import json
import os
import tempfile
import unittest

import kernelrank
from test_module import BIN, Fraction, cli_error, cli_json, fraction_or_none, run, with_keywords


def cli_json_any(*args):
    """The CLI's --json report whatever the exit code (search exits 1 on a refutation)."""
    proc = run([BIN, "--json", "--quiet", *args], expect=(0, 1, 3, 5))
    return json.loads(proc.stdout)


class SearchTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def compare_common(self, cli, py):
        self.assertEqual(py.task, cli["task"])
        self.assertEqual((py.m, py.n, py.r), (cli["m"], cli["n"], cli["r"]))
        self.assertEqual(py.model_class, cli["class"])
        self.assertEqual(py.row_instances, cli["row_instances"])
        self.assertEqual(py.verdict, cli["verdict"])
        self.assertEqual(py.label, cli["label"])
        self.assertEqual(py.detail, cli["detail"])
        self.assertEqual(py.solver_status, cli["solver_status"])
        self.assertEqual(py.resource_limited, cli["resource_limited"])
        self.assertEqual(py.z3_version, cli["z3_version"])
        self.assertEqual(py.order_argument, cli.get("order_argument"))
        self.assertEqual(py.certificate_rule, cli.get("certificate_rule"))
        self.assertEqual([(a["encoding"], a["answer"]) for a in py.z3],
                         [(a["encoding"], a["answer"]) for a in cli["z3"]])

    def test_found_model_matches_cli_and_files(self):
        args = ["--m", "3", "--r", "1", "--timeout", "20"]
        cli = cli_json("search", *args, "--format", "json", "--out", self.path("cli.json"),
                       "--features", self.path("cli.features"))
        py = kernelrank.search(3, 1, timeout=20, format="json", out=self.path("py.json"),
                               features=self.path("py.features"))
        self.compare_common(cli, py)
        self.assertTrue(py.found and not py.refuted and bool(py))
        self.assertEqual(py.status, "model found and verified")
        model, cmodel = py.model, cli["model"]
        self.assertEqual(model.source, cmodel["source"])
        self.assertEqual(model.kernel_rank, cmodel["kernel_rank"])
        self.assertEqual(model.class_check, cmodel["class_check"])
        ev = cmodel["evaluation"]
        self.assertEqual(model.method, ev["method"])
        self.assertEqual(model.instances, int(ev["instances"]))
        self.assertEqual(model.failing, int(ev["failing"]))
        self.assertEqual(model.solves, ev["solves"])
        self.assertIsInstance(model.max_error, Fraction)
        self.assertEqual(model.max_error, fraction_or_none(ev["max_error"]))
        self.assertEqual(model.error_rate, Fraction(ev["error_rate"]))
        self.assertEqual(model.worst.tokens, ev["worst"]["tokens"])
        self.assertEqual(model.file, self.path("py.json"))
        for ours, theirs in (("py.json", "cli.json"), ("py.features", "cli.features")):
            with open(self.path(ours)) as a, open(self.path(theirs)) as b:
                self.assertEqual(a.read(), b.read(), ours)
        with open(self.path("py.json")) as f:
            self.assertEqual(model.text, f.read())
        with open(self.path("py.features")) as f:
            self.assertEqual(model.features_text, f.read())

    def test_certified_refutation_matches_cli_and_certificate_file(self):
        args = ["--m", "4", "--r", "1", "--timeout", "20", "--no-cross-check"]
        cli = cli_json_any("search", *args, "--cert", self.path("cli.cert"))
        py = kernelrank.search(4, 1, timeout=20, no_cross_check=True,
                               certificate=self.path("py.cert"))
        self.compare_common(cli, py)
        self.assertTrue(py.refuted and py.certified and not py.found)
        self.assertEqual(py.status, "refuted-certified")
        self.assertIsNone(py.model)
        self.assertEqual(py.certificate_path, self.path("py.cert"))
        self.assertEqual(cli["certificate_file"], self.path("cli.cert"))
        with open(self.path("py.cert")) as a, open(self.path("cli.cert")) as b:
            text = a.read()
            self.assertEqual(text, b.read())
        self.assertEqual(py.certificate, text)
        self.assertEqual(py.bound, int(cli["certificate"]["bound"]))
        self.assertEqual(py.bound_construction, cli["certificate"]["construction"])
        self.assertEqual(py.bound_rows, cli["certificate"]["rows"])

    def test_unknown_without_solvers_matches_cli(self):
        args = ["--m", "4", "--r", "2", "--restarts", "0", "--no-z3"]
        cli = cli_json_any("search", *args)
        py = kernelrank.search(4, 2, restarts=0, no_z3=True)
        self.compare_common(cli, py)
        self.assertEqual(py.verdict, "unknown")
        self.assertFalse(py.resource_limited)

    def test_bad_arguments_name_the_keyword(self):
        with self.assertRaisesRegex(TypeError, "timeout"):
            kernelrank.search(3, 1, timeout="ten")
        with self.assertRaisesRegex(TypeError, "no_z3"):
            kernelrank.search(3, 1, no_z3=1)
        with self.assertRaisesRegex(kernelrank.UsageError, r"^m: must be in 1\.\.8, not 9"):
            kernelrank.search(9, 1)
        for cli_args, kwargs in (
                (["--m", "3", "--r", "1", "--heuristic-share", "2"], dict(heuristic_share=2)),
                (["--m", "3", "--r", "1", "--timeout", "-1"], dict(timeout=-1)),
                (["--m", "3", "--r", "1", "--memory", "100"], dict(memory=100)),
                (["--m", "3", "--r", "1", "--class", "XY"], dict(model_class="XY")),
                (["--m", "3", "--r", "1", "--solver", "bogus"], dict(solver="bogus")),
                (["--m", "3", "--r", "1", "--format", "yaml"], dict(format="yaml")),
                (["--m", "3", "--r", "-1"], dict(r=-1)),
                (["--r", "1"], dict(m=None))):
            message, code = cli_error("search", *cli_args)
            self.assertEqual(code, 2, cli_args)
            call = dict(m=3, r=1)
            call.update(kwargs)
            with self.assertRaises(kernelrank.UsageError) as caught:
                kernelrank.search(**call)
            self.assertEqual(str(caught.exception), with_keywords(message))
        with self.assertRaisesRegex(kernelrank.UsageError, "^r is required"):
            kernelrank.search(3)


class MinRankTest(unittest.TestCase):
    def test_table_matches_cli(self):
        cli = cli_json("min-rank", "--m-max", "3", "--class", "NK", "--timeout", "20",
                       "--threads", "1")
        py = kernelrank.min_rank(3, model_class="NK", timeout=20, threads=1)
        self.assertEqual(py.z3_version, cli["z3_version"])
        self.assertEqual(py.n, cli["n"])
        self.assertTrue(py.settled)
        self.assertEqual(len(py.rows), len(cli["rows"]))
        for row, crow in zip(py.rows, cli["rows"]):
            self.assertEqual((row.m, row.model_class, row.lower, row.upper, row.settled),
                             (crow["m"], crow["class"], crow["lower"], crow["upper"],
                              crow["settled"]))
            self.assertEqual(row.min_r, str(row.lower))
            self.assertEqual(
                [(c.r, c.status, c.label, c.detail, list(c.files), c.inherited_from)
                 for c in row.cells],
                [(c["r"], c["status"], c["label"], c["detail"], c["files"],
                  c.get("inherited_from")) for c in crow["cells"]])

    def test_bad_arguments_name_the_keyword(self):
        with self.assertRaisesRegex(TypeError, "threads"):
            kernelrank.min_rank(2, threads="2")
        for cli_args, kwargs in ((["--m-max", "8"], dict(m_max=8)),
                                 (["--m-max", "2", "--class", "XX"], dict(model_class="XX")),
                                 (["--m-max", "2", "--timeout", "-3"], dict(timeout=-3)),
                                 (["--m-max", "2", "--threads", "-2"], dict(threads=-2)),
                                 (["--m-max", "2", "--r-max", "0"], dict(r_max=0))):
            message, code = cli_error("min-rank", *cli_args)
            self.assertEqual(code, 2, cli_args)
            call = dict(m_max=2)
            call.update(kwargs)
            with self.assertRaises(kernelrank.UsageError) as caught:
                kernelrank.min_rank(**call)
            self.assertEqual(str(caught.exception), with_keywords(message))


if __name__ == "__main__":
    unittest.main()
