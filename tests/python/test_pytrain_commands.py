"""kernelrank.transition, kernelrank.transcript and kernelrank.train against the CLI's
`transition`, `transcript` and `train` on the same input (docs/python.md).

Run by CTest (test python_module) like test_module.py, whose helpers it uses.
"""

import fractions
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import kernelrank

from test_module import BIN, SOURCE, cli_error, cli_json, run, with_keywords

Fraction = fractions.Fraction
SMALL_FAMILY = os.path.join(SOURCE, "tests", "data", "families", "small.family")


class TempDir(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="kernelrank-pytrain-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


class TransitionTest(TempDir):
    def test_matches_cli(self):
        cli_cert = os.path.join(self.tmp, "cli.cert")
        py_cert = os.path.join(self.tmp, "py.cert")
        cli = cli_json("transition", "--m", "4", "--cert", cli_cert)
        t = kernelrank.transition(4, certificate=py_cert)
        self.assertEqual(t.m, cli["m"])
        self.assertEqual(t.consistent, cli["consistent"])
        self.assertEqual(bool(t), cli["consistent"])
        rows = cli["rows"]
        self.assertEqual(len(t.small_n), 2)
        for row, small in zip(rows[:2], t.small_n):
            self.assertEqual(small["n"], row["n"])
            self.assertEqual(small["min_rank"], row["min_rank"])
            self.assertEqual(small["method"], row["method"])
            self.assertEqual("rank1-mean max error %s" % small["max_error"], row["evidence"])
        top = rows[2]
        self.assertEqual(t.lower_bound, int(top["lower_bound"]))
        self.assertEqual(t.lower_source, top["lower_source"])
        self.assertEqual(t.lower_detail, top["lower_detail"])
        self.assertEqual(t.lower_checker_status, top["lower_checker_status"])
        self.assertEqual(t.lower_checker_status, "s VERIFIED")
        # The lower side is the bound kernelrank.bound gives at the same m (issue 47).
        self.assertEqual(t.lower_bound, kernelrank.bound(4).bound)
        self.assertEqual(t.upper_bound, int(top["upper_bound"]))
        # The shipped layered head at m = 4, layers {0, 1}: C(4,0) + C(4,1) = 5 features, below
        # the 2^4 of the product realisation.
        self.assertEqual(t.upper_bound, 5)
        self.assertEqual(t.product_max_error, Fraction(top["product_max_error"]))
        self.assertEqual(t.softmax_base, top["softmax_base"])
        self.assertIsInstance(t.softmax_max_error, Fraction)
        self.assertTrue(t.rank1_failure.fails)
        with open(cli_cert) as a, open(py_cert) as b:
            self.assertEqual(a.read(), b.read())
        self.assertEqual(t.certificate_path, py_cert)
        with open(py_cert) as f:
            self.assertEqual(t.certificate, f.read())
        self.assertIn("TransitionResult(m=4", repr(t))

    def test_bad_arguments(self):
        with self.assertRaisesRegex(TypeError, "^m must be an int"):
            kernelrank.transition("4")
        message, code = cli_error("transition", "--m", "1")
        self.assertEqual(code, 2)
        with self.assertRaises(kernelrank.UsageError) as caught:
            kernelrank.transition(1)
        self.assertEqual(str(caught.exception), with_keywords(message))
        self.assertEqual(str(caught.exception), "m must be in 2..4096")
        with self.assertRaisesRegex(TypeError, "^certificate must be a path"):
            kernelrank.transition(4, certificate=3)


class TranscriptTest(unittest.TestCase):
    def check_independent(self, ind, cli):
        self.assertEqual(ind.queries, cli["queries"])
        self.assertEqual(ind.values, cli["values"])
        self.assertEqual(ind.s, cli["s"])
        self.assertEqual(ind.product, int(cli["product"]))
        self.assertEqual(ind.log2, (cli["log2"]["floor"], cli["log2"]["ceil"]))
        self.assertEqual(ind.query_tokens, cli["query_tokens"])
        self.assertEqual(ind.value_sets, cli["value_sets"])
        self.assertEqual(ind.verified, cli["verified"])

    def test_cube_matches_cli(self):
        for args, kwargs in ((["--m", "4"], {}),
                             (["--m", "3", "--n", "4", "--cross-check"], {"n": 4, "cross_check": True}),
                             (["--m", "3", "--method", "brute-force"], {"method": "brute-force"})):
            cli = cli_json("transcript", *args)
            t = kernelrank.transcript(int(args[1]), **kwargs)
            self.assertEqual(t.task, cli["task"])
            self.assertIsNone(t.family)
            for key in ("m", "n", "exact", "method", "cross_checked", "min_bits"):
                self.assertEqual(getattr(t, key), cli[key], key)
            for key in ("contexts", "queries", "answer_vectors"):
                self.assertEqual(getattr(t, key), int(cli[key]), key)
            self.assertEqual(t.log2, (cli["log2"]["floor"], cli["log2"]["ceil"]))
            self.check_independent(t.independent, cli["independent"])
            self.assertEqual(t.independent.block_weight, cli["independent"]["block_weight"])
            self.assertIsNone(t.independent.witness_contexts)
            self.assertIsNone(t.clique)

    def test_family_matches_cli(self):
        cli = cli_json("transcript", "--family", SMALL_FAMILY)
        t = kernelrank.transcript(family=SMALL_FAMILY)
        self.assertEqual(t.task, "family")
        self.assertEqual(t.family, cli["family"])
        for key in ("m", "n", "instances", "contexts", "queries", "pairs", "grid", "exact",
                    "min_bits", "clique", "clique_source", "transcripts_upper"):
            self.assertEqual(getattr(t, key), cli[key], key)
        self.assertEqual(t.answer_vectors, int(cli["answer_vectors"]))
        self.assertEqual(t.log2, (cli["log2"]["floor"], cli["log2"]["ceil"]))
        self.check_independent(t.independent, cli["independent"])
        self.assertEqual(t.independent.witness_contexts, cli["independent"]["witness_contexts"])
        self.assertIsNone(t.method)

    def test_bad_arguments(self):
        cases = [
            (["--m", "3", "--family", SMALL_FAMILY], dict(m=3, family=SMALL_FAMILY)),
            ([], {}),
            (["--family", SMALL_FAMILY, "--n", "3"], dict(family=SMALL_FAMILY, n=3)),
            (["--family", SMALL_FAMILY, "--cross-check"], dict(family=SMALL_FAMILY, cross_check=True)),
            (["--m", "3", "--method", "fast"], dict(m=3, method="fast")),
            (["--m", "0"], dict(m=0)),
        ]
        for args, kwargs in cases:
            message, code = cli_error("transcript", *args)
            self.assertEqual(code, 2)
            with self.assertRaises(kernelrank.UsageError) as caught:
                kernelrank.transcript(**kwargs)
            self.assertEqual(str(caught.exception), with_keywords(message), args)
        with self.assertRaisesRegex(TypeError, "^m must be an int or None"):
            kernelrank.transcript("3")
        with self.assertRaisesRegex(TypeError, "^cross_check must be a bool"):
            kernelrank.transcript(3, cross_check=1)
        with self.assertRaisesRegex(TypeError, "^family must be a path"):
            kernelrank.transcript(family=1)


def trainer_available():
    """Whether kernelrank-train is built and can train (it needs libtorch): a run of no epochs."""
    out = tempfile.mkdtemp(prefix="kernelrank-probe-")
    try:
        probe = subprocess.run([BIN, "--quiet", "train", "--family", SMALL_FAMILY, "--r", "1",
                                "--epochs", "0", "--out", out], capture_output=True, text=True)
        return probe.returncode == 0
    finally:
        shutil.rmtree(out, ignore_errors=True)


class TrainArgumentsTest(TempDir):
    def test_bad_arguments(self):
        out = os.path.join(self.tmp, "out")
        # The ranges are the train job's (app/train_job.hpp), named as the module names them.
        with self.assertRaisesRegex(kernelrank.UsageError, r"^r must be in 1\.\.4096, not 0$"):
            kernelrank.train(family=SMALL_FAMILY, out=out, r=[1, 0])
        with self.assertRaisesRegex(TypeError, "^r must be an int"):
            kernelrank.train(family=SMALL_FAMILY, out=out, r="4")
        with self.assertRaisesRegex(TypeError, "^feature must be a str"):
            kernelrank.train(family=SMALL_FAMILY, out=out, feature=3)
        with self.assertRaisesRegex(kernelrank.UsageError, r"^epochs must be in 0\.\.10000000$"):
            kernelrank.train(family=SMALL_FAMILY, out=out, epochs=-1)
        with self.assertRaisesRegex(kernelrank.UsageError, "^out is required"):
            kernelrank.train(family=SMALL_FAMILY)
        with self.assertRaisesRegex(TypeError, "^lr must be a number"):
            kernelrank.train(family=SMALL_FAMILY, out=out, lr="fast")
        with self.assertRaisesRegex(kernelrank.UsageError,
                                    r"^r, seed and feature need at least one value$"):
            kernelrank.train(family=SMALL_FAMILY, out=out, seed=[])
        with self.assertRaisesRegex(kernelrank.UsageError, "^constant_query_bias must be a positive"):
            kernelrank.train(family=SMALL_FAMILY, out=out, constant_query_bias=0)

    def test_missing_trainer(self):
        old = os.environ.get("KERNELRANK_TRAIN")
        os.environ["KERNELRANK_TRAIN"] = os.path.join(self.tmp, "no-trainer")
        try:
            with self.assertRaises(kernelrank.UsageError) as caught:
                kernelrank.train(family=SMALL_FAMILY, out=os.path.join(self.tmp, "out"))
        finally:
            if old is None:
                del os.environ["KERNELRANK_TRAIN"]
            else:
                os.environ["KERNELRANK_TRAIN"] = old
        self.assertIn("cannot run the trainer", str(caught.exception))
        self.assertIn("libtorch-dev", str(caught.exception))
        self.assertIn("scripts/build.sh", str(caught.exception))


class TrainTest(TempDir):
    @classmethod
    def setUpClass(cls):
        if not trainer_available():
            raise unittest.SkipTest("kernelrank-train is not built with libtorch")

    def families(self):
        prefix = os.path.join(self.tmp, "pool")
        run([BIN, "--quiet", "generate", "--m", "6", "--n", "3", "--train", "40", "--test", "20",
             "--seed", "3", "--format", "family", "--out-prefix", prefix], expect=(0,))
        return prefix + "-train.family", prefix + "-test.family"

    def test_matches_cli(self):
        train, test = self.families()
        cli_out = os.path.join(self.tmp, "cli")
        py_out = os.path.join(self.tmp, "py")
        run([BIN, "--quiet", "train", "--train", train, "--test", test, "--feature", "relu",
             "--r", "1", "--seed", "2", "--epochs", "5", "--lr", "0.01", "--threads", "1",
             "--out", cli_out], expect=(0,))
        kernelrank.set_progress(False)
        try:
            t = kernelrank.train(train=train, test=test, feature="relu", r=1, seed=[2], epochs=5,
                                 lr=0.01, threads=1, out=py_out)
        finally:
            kernelrank.set_progress(True)
        with open(os.path.join(cli_out, "report.json")) as f:
            cli = json.load(f)
        with open(t.report_path) as f:
            written = json.load(f)
        self.assertEqual(t.train_family, cli["train_family"])
        self.assertEqual(t.test_family, cli["test_family"])
        self.assertEqual(len(t.models), len(cli["models"]))
        for model, record in zip(t.models, cli["models"]):
            for key in ("name", "feature", "r", "seed", "d", "positions", "epochs", "lr",
                        "final_loss", "recipe", "files"):
                self.assertEqual(getattr(model, key), record[key], key)
            self.compare_split(model.train, record["train"])
            self.compare_split(model.test, record["test"])
            for name in record["files"].values():
                with open(os.path.join(cli_out, name), "rb") as a, \
                        open(os.path.join(py_out, name), "rb") as b:
                    self.assertEqual(a.read(), b.read(), name)
            self.assertEqual(model.safetensors, os.path.join(py_out, record["files"]["safetensors"]))
        for record in written["models"]:
            del record["timing"]
        for record in cli["models"]:
            del record["timing"]
        self.assertEqual(written, cli)

    def compare_split(self, split, record):
        exact = record["exact"]
        for key in ("instances", "float_failing", "float_error_rate", "float_accuracy",
                    "disagreements"):
            self.assertEqual(getattr(split, key), record[key], key)
        self.assertEqual(split.method, exact["method"])
        self.assertEqual(split.verdict, exact["verdict"])
        self.assertEqual(split.solves, exact["verdict"].startswith("solves"))
        for key in ("failing", "undefined", "undecided"):
            self.assertEqual(getattr(split, key), int(exact[key]), key)
        self.assertEqual(split.error_rate, Fraction(exact["error_rate"]))
        self.assertIsInstance(split.max_error, Fraction)
        self.assertEqual(split.max_error, Fraction(exact["max_error"]))
        first = exact["first_failure"]
        if first is None:
            self.assertIsNone(split.first_failure)
        else:
            self.assertEqual(split.first_failure["instance"], first["instance"])
            output = first["output"]
            self.assertEqual(split.first_failure["output"],
                             None if output is None else Fraction(output))
        self.assertEqual(len(split.disagreement_list), len(record["disagreement_list"]))

    def test_trainer_errors(self):
        train, _ = self.families()
        kernelrank.set_progress(False)  # the trainer's messages are not copied to stderr
        self.addCleanup(kernelrank.set_progress, True)
        for args, kwargs in ((["--recipe", "fast"], dict(recipe="fast")),
                             (["--lr", "-1"], dict(lr=-1)),
                             (["--feature", "tanh"], dict(feature=["relu", "tanh"]))):
            message, code = cli_error("train", "--train", train, "--out",
                                      os.path.join(self.tmp, "x"), *args)
            self.assertEqual(code, 2)
            with self.assertRaises(kernelrank.UsageError) as caught:
                kernelrank.train(train=train, out=os.path.join(self.tmp, "x"), **kwargs)
            self.assertEqual(str(caught.exception), with_keywords(message), args)
        missing = os.path.join(self.tmp, "missing.family")
        message, code = cli_error("train", "--train", missing, "--out", os.path.join(self.tmp, "x"))
        with self.assertRaises(kernelrank.Error) as caught:
            kernelrank.train(train=missing, out=os.path.join(self.tmp, "x"))
        self.assertEqual(str(caught.exception), with_keywords(message))


if __name__ == "__main__":
    unittest.main()
