"""The module's functions refuse a wrong argument by its keyword, with the CLI's ranges.

m=0 and m=-1 were read as "the model's width" (the CLI refuses --m 0 with exit 2), and
failures=-1, n=10**30, bound('12') or set_progress('yes') met pybind's generic TypeError
("incompatible function arguments ... Invoked with"), which named no argument. A library
message names its parameters by keyword (m, not --m).
Run with the environment of test_module.py (PYTHONPATH, KERNELRANK_BIN, KERNELRANK_CHECK_BIN,
KERNELRANK_SOURCE_DIR).
"""

import lzma
import os
import subprocess
import tempfile
import unittest

import kernelrank
from test_module import cli_error, with_keywords

try:
    import numpy
except ImportError:  # the module must work without numpy
    numpy = None

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("KERNELRANK_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
BIN = os.environ.get("KERNELRANK_BIN", os.path.join(SOURCE, "build", "kernelrank"))
MODEL = os.path.join(SOURCE, "instances", "models", "features-nk-m5-r2.model")
CERT_XZ = os.path.join(SOURCE, "instances", "bound-certificates", "bound-m8-n3.cert.xz")
U64_MAX = 2**64 - 1
INT_MAX = 2**31 - 1
INT_MIN = -2**31
LLONG_MAX = 2**63 - 1


class WidthArgument(unittest.TestCase):
    def cli_message(self, m):
        run = subprocess.run([BIN, "eval", "--model", MODEL, "--m", str(m)], capture_output=True, text=True)
        self.assertEqual(run.returncode, 2, run.stderr)
        # The range is the app's (app/head_source.hpp), reported as every error after parsing.
        return run.stderr.splitlines()[0].removeprefix("kernelrank: error: ")

    def test_m_zero_and_negative_as_the_cli(self):
        for m in (0, -1, 4097):
            with self.subTest(m=m):
                with self.assertRaises(ValueError) as raised:
                    kernelrank.evaluate(MODEL, m=m)
                self.assertIsInstance(raised.exception, kernelrank.UsageError)
                self.assertEqual(str(raised.exception), f"m: must be in 1..4096, not {m}")
                self.assertEqual(str(raised.exception), with_keywords(self.cli_message(m)))

    def test_m_none_and_the_models_width_still_evaluate(self):
        # The file's width is 5: T(5,3) in mode first has 2^15 instances.
        self.assertEqual(kernelrank.evaluate(MODEL).instances, 2**15)
        self.assertEqual(kernelrank.evaluate(MODEL, m=5).instances, 2**15)


class IntegerRanges(unittest.TestCase):
    def refused(self, name, value, low, high):
        with self.assertRaises(ValueError) as raised:
            kernelrank.evaluate(MODEL, **{name: value})
        self.assertEqual(str(raised.exception), f"{name}: must be in {low}..{high}, not {value}")

    def test_out_of_range_values_name_the_argument(self):
        self.refused("failures", -1, 0, U64_MAX)
        self.refused("failures", 2**64, 0, U64_MAX)
        self.refused("max_instances", -1, 0, U64_MAX)
        self.refused("n", 10**30, 1, INT_MAX)
        self.refused("n", 0, 1, INT_MAX)
        self.refused("threads", -1, 0, INT_MAX)
        self.refused("threads", 2**31, 0, INT_MAX)

    def test_the_ends_of_the_ranges_are_accepted(self):
        # Every failing instance listed when failures is 2^64 - 1; none when it is 0.
        every = kernelrank.evaluate(MODEL, failures=U64_MAX)
        self.assertEqual(len(every.failures), every.failing)
        self.assertGreater(every.failing, 0)
        self.assertEqual(len(kernelrank.evaluate(MODEL, failures=0).failures), 0)

    def test_a_bool_is_no_count(self):
        with self.assertRaises(TypeError):
            kernelrank.evaluate(MODEL, failures=True)


class NamedArguments(unittest.TestCase):
    """A wrong argument is named, never pybind's "incompatible function arguments"."""

    def assertNames(self, exc_class, call, message):
        with self.assertRaises(exc_class) as raised:
            call()
        self.assertEqual(str(raised.exception), message)
        self.assertNotIn("Invoked with", str(raised.exception))
        self.assertNotIn("incompatible function arguments", str(raised.exception))
        return raised.exception

    def test_calls_that_named_no_argument(self):
        self.assertNames(TypeError, lambda: kernelrank.bound("12"), "m must be an int, not str")
        error = self.assertNames(ValueError, lambda: kernelrank.bound(10**20),
                                 f"m: must be in {INT_MIN}..{INT_MAX}, not {10**20}")
        self.assertIsInstance(error, kernelrank.UsageError)
        self.assertNames(ValueError, lambda: kernelrank.generate_family(8, train=-1),
                         f"train: must be in 0..{U64_MAX}, not -1")
        self.assertNames(TypeError, lambda: kernelrank.set_progress("yes"), "enabled must be a bool, not str")

    def test_wrong_types(self):
        cases = [
            (lambda: kernelrank.bound(True), "m must be an int, not bool"),
            (lambda: kernelrank.bound(8.0), "m must be an int, not float"),
            (lambda: kernelrank.bound(8, n="3"), "n must be an int, not str"),
            (lambda: kernelrank.bound(8, r=1.5), "r must be an int or None, not float"),
            (lambda: kernelrank.bound(8, position_dependent=1), "position_dependent must be a bool, not int"),
            (lambda: kernelrank.bound(8, model_class=None), "model_class must be a str, not NoneType"),
            (lambda: kernelrank.bound(8, mode=1), "mode must be a str, not int"),
            (lambda: kernelrank.bound(8, seed="1"), "seed must be an int, not str"),
            (lambda: kernelrank.bound(8, subset="no"), "subset must be a bool, not str"),
            (lambda: kernelrank.check_certificate("x.cert", threads="2"), "threads must be an int, not str"),
            (lambda: kernelrank.counterexample(builtin="softmax", m="6"), "m must be an int or None, not str"),
            (lambda: kernelrank.counterexample(builtin="softmax", m=6, n=None), "n must be an int, not NoneType"),
            (lambda: kernelrank.counterexample(builtin="softmax", m=6, name=1), "name must be a str, not int"),
            (lambda: kernelrank.generate_family(8, golay=24), "golay must be a str or None, not int"),
            (lambda: kernelrank.generate_family(8, format=None), "format must be a str, not NoneType"),
            (lambda: kernelrank.generate_family(8, test=False), "test must be an int, not bool"),
            (lambda: kernelrank.set_progress(1), "enabled must be a bool, not int"),
            (lambda: kernelrank.set_progress(None), "enabled must be a bool, not NoneType"),
        ]
        for call, message in cases:
            with self.subTest(message=message):
                self.assertNames(TypeError, call, message)

    @unittest.skipIf(numpy is None, "numpy is not installed")
    def test_numpy_scalars_are_ints_and_bools(self):
        self.assertEqual(kernelrank.bound(numpy.int64(8), subset=numpy.bool_(True)).m, 8)
        self.assertNames(TypeError, lambda: kernelrank.bound(numpy.float64(8)), "m must be an int, not float64")
        self.assertNames(TypeError, lambda: kernelrank.bound(numpy.bool_(True)),
                         "m must be an int, not " + type(numpy.bool_(True)).__name__)

    def test_set_progress_takes_a_bool(self):
        kernelrank.set_progress(False)
        kernelrank.set_progress(True)
        kernelrank.set_progress(False)  # the tests run quietly


class FunctionRanges(unittest.TestCase):
    """Just outside each range of the CLI is refused by name; its ends are taken."""

    def refused(self, call, name, value, low, high):
        with self.assertRaises(kernelrank.UsageError) as raised:
            call()
        self.assertEqual(str(raised.exception), f"{name}: must be in {low}..{high}, not {value}")

    def test_bound(self):
        # r and effort as the CLI's range checks (cmd_bound.cpp); seed, m and n as their types.
        self.refused(lambda: kernelrank.bound(8, r=-1), "r", -1, 0, LLONG_MAX)
        self.refused(lambda: kernelrank.bound(8, r=LLONG_MAX + 1), "r", LLONG_MAX + 1, 0, LLONG_MAX)
        self.refused(lambda: kernelrank.bound(8, effort=-1), "effort", -1, 0, 1000)
        self.refused(lambda: kernelrank.bound(8, effort=1001), "effort", 1001, 0, 1000)
        self.refused(lambda: kernelrank.bound(8, seed=-1), "seed", -1, 0, U64_MAX)
        self.refused(lambda: kernelrank.bound(8, seed=U64_MAX + 1), "seed", U64_MAX + 1, 0, U64_MAX)
        self.refused(lambda: kernelrank.bound(INT_MAX + 1), "m", INT_MAX + 1, INT_MIN, INT_MAX)
        self.refused(lambda: kernelrank.bound(8, n=INT_MIN - 1), "n", INT_MIN - 1, INT_MIN, INT_MAX)
        at_least = kernelrank.bound(8, r=0)
        self.assertEqual((at_least.r, at_least.r_ruled_out), (0, True))
        at_most = kernelrank.bound(8, r=LLONG_MAX)
        self.assertEqual((at_most.r, at_most.r_ruled_out), (LLONG_MAX, False))
        self.assertGreater(kernelrank.bound(8, effort=0, seed=U64_MAX).bound, 1)
        self.assertEqual(kernelrank.bound(8, effort=1000, seed=0).bound, kernelrank.bound(8).bound)

    def test_bound_m_and_n_are_the_librarys(self):
        # The CLI converts --m and --n to int and the library checks them; its message names
        # the keyword where the CLI names the flag.
        for args in ((0,), (100001,), (INT_MAX,), (8, 2)):
            m, n = args[0], args[1] if len(args) > 1 else 3
            with self.subTest(m=m, n=n):
                with self.assertRaises(kernelrank.UsageError) as raised:
                    kernelrank.bound(m, n=n)
                cli, _ = cli_error("bound", "--m", str(m), "--n", str(n))
                self.assertIn("--", cli)
                self.assertEqual(str(raised.exception), with_keywords(cli))
                self.assertNotIn("--", str(raised.exception))
        self.assertEqual(kernelrank.bound(1).m, 1)

    def test_check_certificate_threads(self):
        # kernelrank-check takes --threads 0..1024.
        with tempfile.TemporaryDirectory() as tmp:
            cert = os.path.join(tmp, "bound-m8-n3.cert")
            with lzma.open(CERT_XZ, "rt") as src, open(cert, "w") as dst:
                dst.write(src.read())
            self.refused(lambda: kernelrank.check_certificate(cert, threads=-1), "threads", -1, 0, 1024)
            self.refused(lambda: kernelrank.check_certificate(cert, threads=1025), "threads", 1025, 0, 1024)
            self.assertTrue(kernelrank.check_certificate(cert, threads=0).verified)
            self.assertTrue(kernelrank.check_certificate(cert, threads=1024).verified)

    def test_counterexample(self):
        # m as the CLI's --m (1..4096, or None: the model's width); n as an int.
        for m in (0, 4097):
            with self.subTest(m=m):
                self.refused(lambda: kernelrank.counterexample(MODEL, m=m), "m", m, 1, 4096)
        self.refused(lambda: kernelrank.counterexample(MODEL, n=INT_MAX + 1), "n", INT_MAX + 1, INT_MIN, INT_MAX)
        # m=4096 passes the range check and meets the model's width (5) instead.
        with self.assertRaises(kernelrank.UsageError) as raised:
            kernelrank.counterexample(MODEL, m=4096)
        self.assertIn("has width m=5 but the task has m=4096", str(raised.exception))
        self.assertEqual(kernelrank.counterexample(builtin="softmax", base=2, m=1).task, "T(1,3)")

    def test_generate_family(self):
        # train and test as the CLI's unsigned options, then its limit of 10,000,000 each.
        self.refused(lambda: kernelrank.generate_family(8, train=-1), "train", -1, 0, U64_MAX)
        self.refused(lambda: kernelrank.generate_family(8, test=U64_MAX + 1), "test", U64_MAX + 1, 0, U64_MAX)
        self.refused(lambda: kernelrank.generate_family(8, seed=-1), "seed", -1, 0, U64_MAX)
        self.refused(lambda: kernelrank.generate_family(INT_MIN - 1), "m", INT_MIN - 1, INT_MIN, INT_MAX)
        with self.assertRaises(kernelrank.ResourceError) as raised:
            kernelrank.generate_family(8, train=U64_MAX)
        self.assertEqual(str(raised.exception),
                         f"train and test take at most 10000000 instances each, not {U64_MAX}")
        sets = kernelrank.generate_family(8, train=0, test=1, seed=U64_MAX)
        self.assertEqual((len(sets.train), len(sets.test)), (0, 1))

    def test_generate_family_library_ranges(self):
        # The library's DomainError names m, n, train and test; the module writes the keyword
        # where the CLI writes the flag.
        for m, n, count in ((0, 3, 1), (65537, 3, 1), (8, 0, 1), (8, 1001, 1), (8, 3, 0)):
            with self.subTest(m=m, n=n, count=count):
                with self.assertRaises(kernelrank.UsageError) as raised:
                    kernelrank.generate_family(m, n=n, train=count, test=count)
                cli, _ = cli_error("generate", "--m", str(m), "--n", str(n), "--train", str(count),
                                "--test", str(count), "--out-prefix", "unused")
                self.assertIn("--", cli)
                self.assertEqual(str(raised.exception), with_keywords(cli))
        self.assertEqual(str(raised.exception), "ask for at least one instance (train/test)")
        self.assertEqual(kernelrank.generate_family(8, n=1000, train=1, test=1).n, 1000)
        self.assertEqual(kernelrank.generate_family(1, n=1, train=1, test=1).m, 1)
        self.assertEqual(len(kernelrank.generate_family(65536, train=1, test=1).train[0].tokens[0]), 65536)


class NoFlagsInTheModule(unittest.TestCase):
    def test_docstrings_speak_of_keywords(self):
        for name in ("bound", "check_certificate", "counterexample", "generate_family", "set_progress",
                     "upper", "UpperResult", "BoundResult", "CheckResult", "Counterexample",
                     "GeneratedSets", "Instance",
                     "Error", "UsageError", "InputError", "ResourceError", "OutputError", "InternalError"):
            with self.subTest(name=name):
                self.assertNotRegex(getattr(kernelrank, name).__doc__, r"--[a-z]")
        self.assertNotRegex(kernelrank.__doc__, r"--[a-z]")


if __name__ == "__main__":
    unittest.main()
