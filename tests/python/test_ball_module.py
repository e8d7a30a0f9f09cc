"""Tests of kernelrank.evaluate on heads with transcendental features (ball arithmetic),
cross-checked against the CLI's `eval --json` on the same files (docs/python.md).

Run with the other module tests (python3 -m unittest discover tests/python); the
environment is the one test_module.py documents.
"""

import fractions
import os
import unittest

import kernelrank
from test_module import SOURCE, cli_error, cli_json, fraction_or_none, read_safetensors_dict, with_keywords

Fraction = fractions.Fraction
HEADS = os.path.join(SOURCE, "instances", "heads")
ELU_HEAD = os.path.join(HEADS, "elu1-m3-r4-trained.safetensors")
ELU_FAMILY = os.path.join(HEADS, "elu1-m3-train.family")
RELU_HEAD = os.path.join(SOURCE, "tests", "data", "safetensors", "head_m3_relu_f64.safetensors")

try:
    import numpy
except ImportError:
    numpy = None
try:
    import torch
except ImportError:
    torch = None


def is_dyadic(value):
    d = value.denominator
    return d & (d - 1) == 0


class BallAssertions(unittest.TestCase):
    def assertBallInstanceMatches(self, inst, cli):
        self.assertIsInstance(inst, kernelrank.BallInstance)
        self.assertEqual(inst.tokens, cli["tokens"])
        self.assertEqual(inst.query, cli["query"])
        self.assertEqual(inst.target, cli["target"])
        self.assertEqual(inst.output, cli["output"])
        self.assertEqual(inst.verdict, cli["verdict"])
        self.assertEqual(inst.precision, cli["precision"])
        self.assertEqual(inst.output_lo, fraction_or_none(cli["output_lo"]))
        self.assertEqual(inst.output_hi, fraction_or_none(cli["output_hi"]))
        self.assertEqual(inst.error_hi, fraction_or_none(cli["error"]))
        self.assertEqual(inst.error_lo, fraction_or_none(cli["error_lo"]))

    def assertBallMatches(self, result, cli):
        self.assertIsInstance(result, kernelrank.BallResult)
        for field in ("solves", "verdict", "method", "final_precision", "start_precision", "max_precision"):
            self.assertEqual(getattr(result, field), cli[field], field)
        for field in ("instances", "passing", "failing", "undecided"):
            self.assertEqual(getattr(result, field), int(cli[field]), field)
        self.assertEqual(result.decided_at, {int(bits): count for bits, count in cli["decided_at"].items()})
        self.assertEqual(result.max_error_hi, fraction_or_none(cli["max_error"]))
        self.assertEqual(result.max_error_lo, fraction_or_none(cli["max_error_lo"]))
        for ours, theirs in ((result.failures, cli["failures"]),
                             (result.undecided_instances, cli["undecided_instances"])):
            self.assertEqual(len(ours), len(theirs))
            for inst, expected in zip(ours, theirs):
                self.assertBallInstanceMatches(inst, expected)
        if cli["worst"] is None:
            self.assertIsNone(result.worst)
        else:
            self.assertBallInstanceMatches(result.worst, cli["worst"])

    def assertSameBall(self, a, b):
        for field in ("solves", "verdict", "instances", "passing", "failing", "undecided", "decided_at",
                      "max_error_lo", "max_error_hi", "final_precision", "feature_map"):
            self.assertEqual(getattr(a, field), getattr(b, field), field)
        self.assertEqual([repr(x) for x in a.failures + a.undecided_instances],
                         [repr(x) for x in b.failures + b.undecided_instances])


class BallEvaluateTest(BallAssertions):
    def test_shipped_elu_head_on_its_family_matches_cli(self):
        result = kernelrank.evaluate(ELU_HEAD, family=ELU_FAMILY)
        cli = cli_json("eval", "--model", ELU_HEAD, "--family", ELU_FAMILY)
        self.assertBallMatches(result, cli["report"])
        self.assertEqual(result.model, cli["model"]["description"])
        self.assertEqual(result.feature_map, "elu1")
        self.assertEqual(result.instances, sum(result.decided_at.values()) + result.undecided)
        self.assertEqual(bool(result), result.solves)

    def test_coarse_precision_doubles_like_cli(self):
        # At 8 bits some enclosures straddle the band's edge; they are re-run at 16.
        result = kernelrank.evaluate(ELU_HEAD, n=2, precision=8, max_precision=16)
        self.assertBallMatches(result, cli_json("eval", "--model", ELU_HEAD, "--n", "2", "--precision", "8",
                                                "--max-precision", "16")["report"])

    def test_undecided_instances_straddle_an_edge(self):
        result = kernelrank.evaluate(ELU_HEAD, n=2, mode="all", precision=4, max_precision=4, failures=1000)
        self.assertBallMatches(result, cli_json("eval", "--model", ELU_HEAD, "--n", "2", "--mode", "all",
                                                "--precision", "4", "--max-precision", "4",
                                                "--failures", "1000")["report"])
        self.assertGreater(result.undecided, 0, "4 bits should leave some instance open")
        self.assertFalse(result.solves)
        self.assertEqual(result.verdict, "undecided at 4 bits")
        for inst in result.undecided_instances:
            self.assertEqual(inst.verdict, "undecided")
            if inst.output_lo is None:
                continue
            # Neither inside the band nor at or beyond one of its edges: across an edge.
            inside = inst.target - Fraction(1, 2) < inst.output_lo and inst.output_hi < inst.target + Fraction(1, 2)
            outside = inst.output_lo >= inst.target + Fraction(1, 2) or inst.output_hi <= inst.target - Fraction(1, 2)
            self.assertFalse(inside or outside, inst)

    def test_enclosures_are_exact_dyadic_fractions(self):
        result = kernelrank.evaluate(ELU_HEAD, n=2, precision=8, max_precision=8, failures=100)
        for inst in [result.worst] + result.failures + result.undecided_instances:
            for value in (inst.output_lo, inst.output_hi):
                self.assertIs(type(value), Fraction)
                self.assertTrue(is_dyadic(value), value)
            self.assertLessEqual(inst.output_lo, inst.output_hi)
            self.assertLessEqual(inst.error_lo, inst.error_hi)
        self.assertIs(type(result.instances), int)

    def test_dict_in_library_layout_equals_file(self):
        tensors, metadata = read_safetensors_dict(ELU_HEAD)
        from_file = kernelrank.evaluate(ELU_HEAD, n=2, precision=8, max_precision=16)
        self.assertEqual(metadata, {"layout": "fast-transformers", "feature_map": "elu1"})
        # Layout and feature map as arguments, then as the dict's own metadata.
        from_args = kernelrank.evaluate(tensors, layout="fast-transformers", feature_map="elu1", n=2,
                                        precision=8, max_precision=16)
        self.assertSameBall(from_file, from_args)
        with_metadata = dict(tensors, __metadata__=metadata)
        self.assertSameBall(from_file, kernelrank.evaluate(with_metadata, n=2, precision=8, max_precision=16))
        # fast-transformers' default feature map is elu1.
        self.assertSameBall(from_file, kernelrank.evaluate(tensors, layout="fast-transformers", n=2,
                                                           precision=8, max_precision=16))

    @unittest.skipIf(numpy is None, "numpy is not installed")
    def test_numpy_float32_arrays_equal_file(self):
        tensors, _ = read_safetensors_dict(ELU_HEAD)
        arrays = {k: numpy.array(v, dtype=numpy.float32) for k, v in tensors.items()}
        self.assertSameBall(kernelrank.evaluate(ELU_HEAD, family=ELU_FAMILY),
                            kernelrank.evaluate(arrays, layout="fast-transformers", family=ELU_FAMILY))

    @unittest.skipIf(torch is None, "torch is not installed")
    def test_torch_state_dict_equals_file(self):
        tensors, _ = read_safetensors_dict(ELU_HEAD)
        state = {k: torch.tensor(v, dtype=torch.float32, requires_grad=True) for k, v in tensors.items()}
        self.assertSameBall(kernelrank.evaluate(ELU_HEAD, family=ELU_FAMILY),
                            kernelrank.evaluate(state, layout="fast-transformers", family=ELU_FAMILY))

    def test_rational_feature_map_takes_the_exact_path(self):
        # A relu head read through the layout reader is an exact model: an EvalResult, equal to the CLI.
        tensors, _ = read_safetensors_dict(RELU_HEAD)
        result = kernelrank.evaluate(RELU_HEAD, layout="kernelrank", n=2)
        self.assertIsInstance(result, kernelrank.EvalResult)
        cli = cli_json("eval", "--model", RELU_HEAD, "--layout", "kernelrank", "--n", "2")["report"]
        self.assertEqual(result.max_error, fraction_or_none(cli["max_error"]))
        self.assertEqual(result.failing, int(cli["failing"]))
        self.assertEqual(kernelrank.evaluate(tensors, n=2).max_error, result.max_error)


class BallErrorTest(unittest.TestCase):
    def assertSameError(self, exc_class, call, *cli_args):
        message, _ = cli_error(*cli_args)
        with self.assertRaises(exc_class) as caught:
            call()
        # One message from the library: the CLI names the flags, the module the keywords.
        self.assertEqual(str(caught.exception), with_keywords(message))

    def test_precision_on_exact_head(self):
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.evaluate(RELU_HEAD, n=2, precision=128),
                             "eval", "--model", RELU_HEAD, "--n", "2", "--precision", "128")

    def test_precision_out_of_range(self):
        # The library's message: the CLI names the flags, the module the keywords.
        message, _ = cli_error("eval", "--model", ELU_HEAD, "--n", "2", "--precision", "64", "--max-precision", "32")
        with self.assertRaises(kernelrank.UsageError) as caught:
            kernelrank.evaluate(ELU_HEAD, n=2, precision=64, max_precision=32)
        self.assertEqual(message, "--precision must be at least 2 and at most --max-precision")
        self.assertEqual(str(caught.exception), with_keywords(message))

    def test_profiles_on_ball_head(self):
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.evaluate(ELU_HEAD, profiles=True),
                             "eval", "--model", ELU_HEAD, "--profiles")

    def test_unknown_layout(self):
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.evaluate(ELU_HEAD, layout="keras"),
                             "eval", "--model", ELU_HEAD, "--layout", "keras")

    def test_layout_on_a_text_model(self):
        path = os.path.join(SOURCE, "tests", "data", "models", "tabular_m2.model")
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.evaluate(path, layout="torch"),
                             "eval", "--model", path, "--layout", "torch")

    def test_width_mismatch(self):
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.evaluate(ELU_HEAD, m=4),
                             "eval", "--model", ELU_HEAD, "--m", "4")

    def test_counterexample_refuses_a_ball_head(self):
        self.assertSameError(kernelrank.InputError, lambda: kernelrank.counterexample(ELU_HEAD),
                             "counterexample", "--model", ELU_HEAD)

    def test_missing_tensor_names_it(self):
        tensors, _ = read_safetensors_dict(ELU_HEAD)
        del tensors["key_projection.weight"]
        with self.assertRaises(kernelrank.InputError) as caught:
            kernelrank.evaluate(tensors, layout="fast-transformers", n=2)
        self.assertIn("key_projection.weight", str(caught.exception))
        self.assertTrue(str(caught.exception).startswith("<dict>: error: "), str(caught.exception))


if __name__ == "__main__":
    unittest.main()
