"""kernelrank.upper against the CLI's `upper` on the same input, and bound(r=R)'s answer
against `bound --r` (docs/python.md, app/upper_job.hpp).

Run by CTest (test python_module) like test_module.py, whose helpers it uses.
"""

import fractions
import os
import pathlib
import shutil
import tempfile
import unittest

import kernelrank

from test_module import cli_error, cli_json, with_keywords

Fraction = fractions.Fraction


class TempDir(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="kernelrank-pyupper-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


class UpperTest(TempDir):
    def assertMatchesCli(self, u, cli):
        self.assertEqual(u.m, cli["m"])
        self.assertEqual(u.model_class, cli["class"])
        self.assertIs(type(u.r), int)
        self.assertEqual(u.r, int(cli["r"]))
        self.assertEqual(u.layers, cli["layers"])
        self.assertEqual(u.coefficients, [Fraction(c) for c in cli["coefficients"]])
        self.assertEqual(u.max_error, Fraction(cli["max_error"]))
        self.assertEqual(u.margin, Fraction(cli["margin"]))
        self.assertEqual(u.optimal, cli["optimal"])
        self.assertEqual(u.verified, cli["verified"])
        self.assertEqual(u.lps, cli["lps"])
        self.assertEqual(u.refuted, cli["refuted"])

    def test_m8_matches_cli(self):
        u = kernelrank.upper(8)
        self.assertIsInstance(u, kernelrank.UpperResult)
        self.assertEqual(u.r, 29)
        self.assertEqual(u.layers, [0, 2])
        self.assertTrue(u.optimal)
        self.assertTrue(u.verified)
        self.assertTrue(u)
        self.assertIsInstance(u.max_error, Fraction)
        self.assertLess(u.max_error, Fraction(1, 2))
        self.assertIsInstance(u.margin, Fraction)
        self.assertGreater(u.margin, 0)
        self.assertEqual(len(u.coefficients), len(u.layers))
        self.assertTrue(all(isinstance(c, Fraction) and c >= 0 for c in u.coefficients))  # PF
        self.assertIsNone(u.file)
        self.assertEqual(u.message, "")
        self.assertIsInstance(u.seconds, float)
        self.assertEqual(repr(u), "UpperResult(m=8, model_class='PF', r=29, layers=[0, 2], optimal=True)")
        self.assertMatchesCli(u, cli_json("upper", "--m", "8"))

    def test_nk_head_is_cheaper_than_pf_at_12(self):
        pf = kernelrank.upper(12)
        nk = kernelrank.upper(12, model_class="NK")
        self.assertEqual(pf.r, 133)
        self.assertEqual(nk.r, 91)
        self.assertEqual((pf.model_class, nk.model_class), ("PF", "NK"))
        self.assertTrue(pf.optimal and nk.optimal)
        self.assertTrue(any(c < 0 for c in nk.coefficients))  # not PF: a negative c_j
        self.assertMatchesCli(nk, cli_json("upper", "--m", "12", "--class", "NK"))

    def test_out_writes_a_head_that_evaluate_accepts(self):
        py_out = os.path.join(self.tmp, "py.model")
        cli_out = os.path.join(self.tmp, "cli.model")
        u = kernelrank.upper(12, model_class="NK", out=py_out)
        cli = cli_json("upper", "--m", "12", "--class", "NK", "--out", cli_out)
        self.assertEqual(u.file, py_out)
        self.assertEqual(cli["file"], cli_out)
        self.assertIn(py_out, u.message)
        with open(py_out) as a, open(cli_out) as b:
            self.assertEqual(a.read(), b.read())
        report = kernelrank.evaluate(py_out)
        self.assertTrue(report.solves)
        self.assertIn("T(12,3)", report.task)
        self.assertEqual(report.max_error, u.max_error)
        # A path-like out is taken too.
        again = kernelrank.upper(8, out=pathlib.Path(self.tmp) / "m8.model")
        self.assertEqual(again.file, os.path.join(self.tmp, "m8.model"))
        self.assertTrue(kernelrank.evaluate(again.file).solves)

    def test_no_head_within_the_budget(self):
        u = kernelrank.upper(12, lp_budget=1)
        cli = cli_json("upper", "--m", "12", "--lp-budget", "1")
        self.assertEqual(u.lps, cli["lps"])
        self.assertEqual(u.refuted, cli["refuted"])
        if cli["r"] is None:
            self.assertIsNone(u.r)
            self.assertFalse(u)
            self.assertFalse(u.verified)
            self.assertEqual((u.layers, u.coefficients), ([], []))
            self.assertIsNone(u.max_error)
            self.assertIsNone(u.margin)
            self.assertIsNone(u.file)
            self.assertIn("r=None", repr(u))
        else:
            self.assertMatchesCli(u, cli)

    def test_bad_arguments(self):
        # m outside the library's range and a signed class: the CLI's messages, by keyword.
        for m in (0, 200):
            with self.subTest(m=m):
                message, code = cli_error("upper", "--m", str(m))
                self.assertEqual(code, 2)
                with self.assertRaises(kernelrank.UsageError) as caught:
                    kernelrank.upper(m)
                self.assertEqual(str(caught.exception), with_keywords(message))
                self.assertNotIn("--", str(caught.exception))
        message, code = cli_error("upper", "--m", "8", "--class", "signed")
        self.assertEqual(code, 2)
        with self.assertRaises(kernelrank.UsageError) as caught:
            kernelrank.upper(8, model_class="signed")
        self.assertEqual(str(caught.exception), with_keywords(message))
        self.assertEqual(str(caught.exception), "model_class must be PF or NK, not 'signed'")
        with self.assertRaises(kernelrank.UsageError) as caught:
            kernelrank.upper(8, lp_budget=0)
        self.assertEqual(str(caught.exception), "lp_budget: must be in 1..1000000, not 0")
        with self.assertRaises(kernelrank.UsageError):
            kernelrank.upper(8, lp_budget=1000001)
        self.assertIsInstance(caught.exception, ValueError)
        for call, text in ((lambda: kernelrank.upper("8"), "m must be an int, not str"),
                           (lambda: kernelrank.upper(True), "m must be an int, not bool"),
                           (lambda: kernelrank.upper(8, model_class=None), "model_class must be a str, not NoneType"),
                           (lambda: kernelrank.upper(8, lp_budget=2.5), "lp_budget must be an int, not float"),
                           (lambda: kernelrank.upper(8, out=3), "out must be a path (str or os.PathLike), not int")):
            with self.subTest(text=text):
                with self.assertRaises(TypeError) as caught:
                    call()
                self.assertEqual(str(caught.exception), text)

    def test_unwritable_out_is_an_output_error(self):
        with self.assertRaises(kernelrank.OutputError):
            kernelrank.upper(8, out="/nonexistent/dir/head.model")


class BoundAnswerTest(unittest.TestCase):
    def test_ruled_out(self):
        b = kernelrank.bound(24, r=20)
        cli = cli_json("bound", "--m", "24", "--r", "20")
        self.assertEqual(b.answer, "ruled_out")
        self.assertEqual(b.answer, cli["answer"])
        self.assertTrue(b.r_ruled_out)
        self.assertIsNone(b.head_r)
        self.assertIsNone(b.head_file)

    def test_suffices(self):
        b = kernelrank.bound(24, r=50000)
        cli = cli_json("bound", "--m", "24", "--r", "50000")
        self.assertEqual(b.answer, "suffices")
        self.assertEqual(b.answer, cli["answer"])
        self.assertFalse(b.r_ruled_out)
        self.assertIs(type(b.head_r), int)
        self.assertLessEqual(b.head_r, 50000)
        self.assertGreaterEqual(b.head_r, b.bound)
        self.assertEqual(b.head_r, int(cli["head_r"]))
        self.assertEqual(b.head_file, cli["head"])
        if b.head_file is not None:
            self.assertTrue(kernelrank.evaluate(b.head_file).solves)

    def test_open_between_the_bound_and_the_head(self):
        r = kernelrank.bound(24).bound  # not ruled out; the best known head has more features
        b = kernelrank.bound(24, r=r)
        cli = cli_json("bound", "--m", "24", "--r", str(r))
        self.assertEqual(b.answer, "open")
        self.assertEqual(b.answer, cli["answer"])
        self.assertGreater(b.head_r, r)
        self.assertEqual(b.head_r, int(cli["head_r"]))

    def test_a_pf_head_counts_for_nk(self):
        pf = kernelrank.bound(8, r=29, model_class="PF")
        nk = kernelrank.bound(8, r=29, model_class="NK")
        self.assertEqual((pf.answer, nk.answer), ("suffices", "suffices"))
        self.assertLessEqual(nk.head_r, pf.head_r)
        self.assertEqual(nk.head_r, int(cli_json("bound", "--m", "8", "--r", "29")["head_r"]))

    def test_only_the_cube_task_with_query_first(self):
        for kwargs, args in (({"mode": "last"}, ["--mode", "last"]), ({"n": 4}, ["--n", "4"])):
            with self.subTest(**kwargs):
                b = kernelrank.bound(8, r=10**6, **kwargs)
                cli = cli_json("bound", "--m", "8", "--r", str(10**6), *args)
                self.assertEqual(b.answer, "open")
                self.assertEqual(b.answer, cli["answer"])
                self.assertIsNone(b.head_r)

    def test_without_r(self):
        b = kernelrank.bound(8)
        self.assertIsNone(b.answer)
        self.assertIsNone(b.head_r)
        self.assertIsNone(b.head_file)
        self.assertIsNone(b.r_ruled_out)


if __name__ == "__main__":
    unittest.main()
