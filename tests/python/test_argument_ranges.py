"""kernelrank.evaluate refuses out-of-range integer arguments by name, as the CLI does.

m=0 and m=-1 were read as "the model's width" (the CLI refuses --m 0 with exit 2), and
failures=-1 or n=10**30 met pybind's generic TypeError that named no argument.
Run with the environment of test_module.py (PYTHONPATH, KERNELRANK_BIN, KERNELRANK_SOURCE_DIR).
"""

import os
import subprocess
import unittest

import kernelrank

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("KERNELRANK_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
BIN = os.environ.get("KERNELRANK_BIN", os.path.join(SOURCE, "build", "kernelrank"))
MODEL = os.path.join(SOURCE, "instances", "models", "features-nk-m5-r2.model")
U64_MAX = 2**64 - 1
INT_MAX = 2**31 - 1


class WidthArgument(unittest.TestCase):
    def cli_message(self, m):
        run = subprocess.run([BIN, "eval", "--model", MODEL, "--m", str(m)], capture_output=True, text=True)
        self.assertEqual(run.returncode, 2, run.stderr)
        return run.stderr.splitlines()[0]

    def test_m_zero_and_negative_as_the_cli(self):
        for m in (0, -1, 4097):
            with self.subTest(m=m):
                with self.assertRaises(ValueError) as raised:
                    kernelrank.evaluate(MODEL, m=m)
                self.assertIsInstance(raised.exception, kernelrank.UsageError)
                self.assertEqual(str(raised.exception), f"--m: must be in 1..4096, not {m}")
                self.assertEqual(str(raised.exception), self.cli_message(m))

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


if __name__ == "__main__":
    unittest.main()
