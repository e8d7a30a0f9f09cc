"""Tests of the Python module kernelrank (docs/python.md), cross-checked against the CLI.

Run by CTest (test python_module) with PYTHONPATH=<build>/python and the environment
variables KERNELRANK_BIN, KERNELRANK_CHECK_BIN and KERNELRANK_SOURCE_DIR; by hand:

    PYTHONPATH=build/python KERNELRANK_BIN=build/kernelrank \
    KERNELRANK_CHECK_BIN=build/kernelrank-check /usr/bin/python3 tests/python/test_module.py -v
"""

import fractions
import json
import lzma
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import kernelrank

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("KERNELRANK_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
BIN = os.environ.get("KERNELRANK_BIN", os.path.join(SOURCE, "build", "kernelrank"))
CHECK_BIN = os.environ.get("KERNELRANK_CHECK_BIN", os.path.join(os.path.dirname(BIN), "kernelrank-check"))
SAFETENSORS = os.path.join(SOURCE, "tests", "data", "safetensors")
MODELS = os.path.join(SOURCE, "tests", "data", "models")
CERTS = os.path.join(SOURCE, "instances", "bound-certificates")
Fraction = fractions.Fraction

try:
    import numpy
except ImportError:  # the module must work without numpy
    numpy = None

# What the CLI prints before an error's message (src/cli/run_cli.cpp); an InputError's
# line ("FILE:LINE: error: MESSAGE") has no prefix.
CLI_PREFIXES = ("kernelrank: error: ", "kernelrank: resource limit: ",
                "kernelrank: INTERNAL ERROR (please report): ")


def run(args, expect=None):
    proc = subprocess.run(args, capture_output=True, text=True)
    if expect is not None and proc.returncode not in expect:
        raise AssertionError("%s exited %d\nstdout: %s\nstderr: %s"
                             % (args, proc.returncode, proc.stdout, proc.stderr))
    return proc


def cli_json(*args):
    proc = run([BIN, "--json", "--quiet", *args], expect=(0, 1, 5))  # 5: undecided (ball arithmetic)
    return json.loads(proc.stdout)


def cli_error(*args):
    """The CLI's error message for args, without its prefix, and its exit code."""
    proc = run([BIN, "--quiet", *args])
    assert proc.returncode >= 2, (args, proc.returncode, proc.stdout)
    line = proc.stderr.strip().splitlines()[-1]
    for prefix in CLI_PREFIXES:
        if line.startswith(prefix):
            return line[len(prefix):], proc.returncode
    return line, proc.returncode


# The CLI's options whose keyword argument has another name (src/python/errors.cpp).
RENAMED_OPTIONS = {"class": "model_class", "cert": "certificate", "out-prefix": "out"}


def with_keywords(cli_message):
    """The CLI's message as the module words it: each --flag as its keyword argument."""
    return re.sub(r"--([a-z][a-z0-9-]*)",
                  lambda flag: RENAMED_OPTIONS.get(flag.group(1), flag.group(1).replace("-", "_")),
                  cli_message)


def fraction_or_none(text):
    return None if text is None else Fraction(text)


class ShapedList:
    """An array-like (shape and tolist(), as numpy arrays and torch tensors have) for
    tensors a nested list cannot describe: a [0, m] weight is [] as a list."""

    def __init__(self, shape, values):
        self.shape = tuple(shape)
        self.values = values

    def tolist(self):
        return self.values


def read_safetensors_dict(path):
    """A safetensors head as {name: nested lists} plus its metadata (F64 and F32; both
    convert to Python floats exactly)."""
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    buffer = data[8 + length:]
    metadata = header.pop("__metadata__", {})
    tensors = {}
    for name, entry in header.items():
        code, size = {"F64": ("d", 8), "F32": ("f", 4)}[entry["dtype"]]
        begin, end = entry["data_offsets"]
        values = list(struct.unpack("<%d%s" % ((end - begin) // size, code), buffer[begin:end]))
        shape = entry["shape"]
        if len(shape) == 0:
            tensors[name] = values[0]
        elif len(shape) == 1:
            tensors[name] = values
        elif 0 in shape:
            tensors[name] = ShapedList(shape, [])
        else:
            rows, cols = shape
            tensors[name] = [values[i * cols:(i + 1) * cols] for i in range(rows)]
    return tensors, metadata


class ReportAssertions(unittest.TestCase):
    def assertInstanceMatches(self, inst, cli):
        self.assertIsInstance(inst, kernelrank.Instance)
        self.assertEqual(inst.tokens, cli["tokens"])
        self.assertEqual(inst.query, cli["query"])
        self.assertEqual(inst.target, cli["target"])
        self.assertEqual(inst.output, fraction_or_none(cli["output"]))
        self.assertEqual(inst.error, fraction_or_none(cli["error"]))
        self.assertEqual(inst.fails, cli["fails"])

    def assertReportMatches(self, result, cli):
        self.assertIsInstance(result, kernelrank.EvalResult)
        self.assertEqual(result.solves, cli["solves"])
        self.assertEqual(result.instances, int(cli["instances"]))
        self.assertEqual(result.failing, int(cli["failing"]))
        self.assertEqual(result.undefined, int(cli["undefined"]))
        self.assertEqual(result.max_error, fraction_or_none(cli["max_error"]))
        self.assertEqual(result.error_rate, Fraction(cli["error_rate"]))
        self.assertEqual(result.method, cli["method"])
        self.assertEqual(len(result.failures), len(cli["failures"]))
        for inst, expected in zip(result.failures, cli["failures"]):
            self.assertInstanceMatches(inst, expected)
        if cli["worst"] is None:
            self.assertIsNone(result.worst)
        else:
            self.assertInstanceMatches(result.worst, cli["worst"])

    def assertSameResult(self, a, b):
        for field in ("solves", "instances", "failing", "undefined", "max_error", "method"):
            self.assertEqual(getattr(a, field), getattr(b, field), field)
        self.assertEqual([repr(x) for x in a.failures], [repr(x) for x in b.failures])
        self.assertEqual(repr(a.worst), repr(b.worst))


class ModuleTest(unittest.TestCase):
    def test_signed_model_counts_negative_denominators(self):
        # docs/open-questions.md: kernel row (W, A, B) = (-1, -1, 1) of query 110 gives the
        # denominators D1 = -3, D2 = 1, D3 = -1 on S1, S2, S3; all three are solved.
        signed = os.path.join(SOURCE, "instances", "models", "signed")
        r = kernelrank.evaluate(os.path.join(signed, "l2-counterexample-m3.model"),
                                family=os.path.join(signed, "l2-counterexample-m3.family"))
        self.assertTrue(r.solves)
        self.assertEqual(r.negative_solved, 2)
        self.assertEqual(r.negative_example.tokens, ["110", "001", "001"])
        self.assertEqual(r.negative_example.output, Fraction(4, 9))
        # An NK model has none.
        nk = kernelrank.evaluate(os.path.join(SOURCE, "instances", "models", "min-rank",
                                              "min-rank-m2-NK-r1.json"), n=3)
        self.assertEqual(nk.negative_solved, 0)
        self.assertIsNone(nk.negative_example)

    def test_multi_head_file_is_named_as_such(self):
        # The one opener recognises a multi-head file (docs/model-format.md §13); the module
        # evaluates single heads and says so, instead of a header error from the text reader.
        path = os.path.join(SOURCE, "instances", "models", "open", "nk2-m2-1+1.multihead")
        for call in (lambda: kernelrank.evaluate(path, n=2),
                     lambda: kernelrank.counterexample(path, n=2)):
            with self.assertRaises(kernelrank.UsageError) as caught:
                call()
            self.assertIn("is a multi-head model", str(caught.exception))

    def test_version_and_help(self):
        self.assertIsInstance(kernelrank.__version__, str)
        self.assertRegex(kernelrank.__version__, r"^\d+\.\d+\.\d+")
        self.assertIn("evaluate", kernelrank.__doc__)
        for name in ("evaluate", "bound", "check_certificate", "counterexample", "generate_family",
                     "EvalResult", "Instance", "BoundResult", "CheckResult", "Counterexample",
                     "GeneratedSets", "Error", "UsageError", "InputError"):
            doc = getattr(kernelrank, name).__doc__
            self.assertTrue(doc and len(doc) > 20, name)
        self.assertIn("builtin", kernelrank.evaluate.__doc__)

    def test_exception_hierarchy(self):
        for name, builtin in (("UsageError", ValueError), ("InputError", ValueError),
                              ("ResourceError", MemoryError), ("OutputError", OSError),
                              ("InternalError", RuntimeError)):
            cls = getattr(kernelrank, name)
            self.assertTrue(issubclass(cls, kernelrank.Error), name)
            self.assertTrue(issubclass(cls, builtin), name)
        self.assertFalse(issubclass(kernelrank.Error, ValueError))

    def test_module_does_not_import_numpy(self):
        code = "import sys, kernelrank; sys.exit(1 if 'numpy' in sys.modules else 0)"
        self.assertEqual(run([sys.executable, "-c", code]).returncode, 0)

    def test_import_without_numpy(self):
        # The pyenv python3 on PATH has no numpy; it is the same CPython version.
        other = shutil.which("python3")
        if other is None or os.path.realpath(other) == os.path.realpath(sys.executable):
            self.skipTest("no second python3 interpreter on PATH")
        probe = run([other, "-c", "import sys; print('%d.%d' % sys.version_info[:2]); "
                     "import importlib.util; print(importlib.util.find_spec('numpy') is not None)"])
        if probe.returncode != 0:
            self.skipTest("python3 on PATH does not run")
        version, has_numpy = probe.stdout.split()
        if version != "%d.%d" % sys.version_info[:2]:
            self.skipTest("python3 on PATH is Python %s, the module is for %d.%d" % ((version,) + sys.version_info[:2]))
        env = dict(os.environ, PYTHONPATH=os.path.dirname(kernelrank.__file__))
        code = ("import sys, kernelrank, fractions\n"
                "r = kernelrank.evaluate(builtin='softmax', base=3, m=3, n=3)\n"
                "assert r.solves and isinstance(r.max_error, fractions.Fraction)\n"
                "r = kernelrank.evaluate({'query.weight': [[1.0]], 'query.bias': [0.5], 'key.weight': [[1]],\n"
                "  'key.bias': [1], 'value.weight': [[1]], 'value.bias': [0], 'readout_c.weight': [[0]],\n"
                "  'readout_c.bias': [1], 'readout_e.weight': [[0]], 'readout_e.bias': [0]}, n=2)\n"
                "assert r.instances == 4, r\n"  # T(1,2): 2^2 sequences, first query
                "print('numpy' in sys.modules)\n")
        proc = subprocess.run([other, "-c", code], capture_output=True, text=True, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        if has_numpy == "False":
            self.assertEqual(proc.stdout.strip(), "False")


class EvaluateTest(ReportAssertions):
    def test_builtin_failing_matches_cli(self):
        result = kernelrank.evaluate(builtin="softmax", base=2, m=4, n=3, failures=3)
        self.assertReportMatches(result, cli_json("eval", "--builtin", "softmax", "--base", "2", "--m", "4",
                                                  "--n", "3", "--failures", "3")["report"])
        self.assertFalse(result.solves)
        self.assertGreater(result.failing, 0)
        self.assertEqual(len(result.failures), 3)
        self.assertIn("solves=False", repr(result))

    def test_builtin_solving_matches_cli(self):
        result = kernelrank.evaluate(builtin="softmax", base="3", m=5, n=3, mode="all")
        self.assertReportMatches(result, cli_json("eval", "--builtin", "softmax", "--base", "3", "--m", "5",
                                                  "--n", "3", "--mode", "all")["report"])
        self.assertTrue(result.solves)
        self.assertEqual(result.instances, 3 * 2 ** 15)
        # Base as a Fraction: the same model.
        same = kernelrank.evaluate(builtin="softmax", base=Fraction(3), m=5, n=3, mode="all")
        self.assertSameResult(result, same)

    def test_profiles_matches_cli(self):
        result = kernelrank.evaluate(builtin="softmax", base=3, m=40, n=3, profiles=True)
        self.assertReportMatches(result, cli_json("eval", "--builtin", "softmax", "--base", "3", "--m", "40",
                                                  "--n", "3", "--profiles")["report"])
        self.assertEqual(result.method, "profiles")

    def test_shipped_model_matches_cli(self):
        path = os.path.join(MODELS, "tabular_m2.model")
        result = kernelrank.evaluate(path, n=3)
        self.assertReportMatches(result, cli_json("eval", "--model", path, "--n", "3")["report"])
        json_form = kernelrank.evaluate(os.path.join(MODELS, "tabular_m2.json"), n=3)
        self.assertSameResult(result, json_form)

    def test_family_matches_cli(self):
        model = os.path.join(SOURCE, "instances", "models", "relu-pf-m24-r4.model")
        family = os.path.join(SOURCE, "instances", "witness-m24.family")
        result = kernelrank.evaluate(model, family=family)
        self.assertReportMatches(result, cli_json("eval", "--model", model, "--family", family)["report"])
        self.assertEqual(result.method, "family")

    def test_fraction_types(self):
        result = kernelrank.evaluate(builtin="softmax", base=2, m=3, n=3)
        self.assertIs(type(result.max_error), Fraction)
        self.assertIs(type(result.instances), int)
        self.assertIs(type(result.failing), int)
        self.assertIs(type(result.error_rate), Fraction)
        for inst in result.failures + [result.worst]:
            self.assertIs(type(inst.output), Fraction)
            self.assertIs(type(inst.error), Fraction)
            self.assertIs(type(inst.fails), bool)
            self.assertIs(type(inst.query), int)
            self.assertTrue(all(isinstance(t, str) and set(t) <= {"0", "1"} for t in inst.tokens))
            self.assertEqual(inst.error, abs(inst.output - inst.target))
            # The repr names every field, the tokens as a Python list of str.
            self.assertEqual(repr(inst), "Instance(tokens=%r, query=%d, target=%d, output=%r, "
                             "error=%r, fails=%r)" % (list(inst.tokens), inst.query, inst.target,
                                                      inst.output, inst.error, inst.fails))

    def test_safetensors_file_matches_cli(self):
        path = os.path.join(SAFETENSORS, "head_m3_relu_f64.safetensors")
        result = kernelrank.evaluate(path, n=3)
        self.assertReportMatches(result, cli_json("eval", "--model", path, "--n", "3")["report"])

    def test_dict_head_equals_file(self):
        for stem, n in (("head_m3_relu_f64", 3), ("head_m3_relu_d0", 3), ("head_m3_square_pos3", 3)):
            path = os.path.join(SAFETENSORS, stem + ".safetensors")
            tensors, metadata = read_safetensors_dict(path)
            positions = int(metadata["positions"]) if "positions" in metadata else None
            from_file = kernelrank.evaluate(path, n=n, mode="all")
            from_dict = kernelrank.evaluate(tensors, activation=metadata["activation"], positions=positions,
                                            n=n, mode="all")
            self.assertSameResult(from_file, from_dict)
            self.assertEqual(from_dict.model, from_file.model.replace(path, "<dict>"))
            # The metadata given as a dict entry: the same again.
            with_metadata = dict(tensors, __metadata__=metadata)
            self.assertSameResult(from_file, kernelrank.evaluate(with_metadata, n=n, mode="all"))

    @unittest.skipIf(numpy is None, "numpy is not installed")
    def test_numpy_head_equals_file(self):
        path = os.path.join(SAFETENSORS, "head_m3_relu_f64.safetensors")
        tensors, metadata = read_safetensors_dict(path)
        arrays = {k: numpy.array(v, dtype=numpy.float64) for k, v in tensors.items()}
        self.assertSameResult(kernelrank.evaluate(path, n=3), kernelrank.evaluate(arrays, n=3))
        # float32 arrays hold exactly the float32-rounded values: 0.1 is not 1/10.
        small = {k: numpy.array(v, dtype=numpy.float32) for k, v in tensors.items()
                 if not numpy.any(numpy.abs(numpy.array(v)) > 1e30)}
        self.assertEqual(len(small), len(tensors) - (len(tensors) - len(small)))

    def test_dict_exact_dyadic(self):
        # 0.1 is the dyadic rational 3602879701896397/2^55, never 1/10.
        head = {"query.weight": [[0.0]], "query.bias": [1.0], "key.weight": [[0.0]], "key.bias": [1.0],
                "value.weight": [[1.0]], "value.bias": [0.0], "readout_c.weight": [[0.0]],
                "readout_c.bias": [1.0], "readout_e.weight": [[0.0]], "readout_e.bias": [0.1]}
        result = kernelrank.evaluate(head, n=1)
        outputs = {inst.output for inst in [result.worst]}
        self.assertTrue(all(o.denominator == 2 ** 55 or o.denominator == 2 ** 56 or o == 0 or
                            (o - Fraction(0.1)).denominator <= 2 ** 56 for o in outputs))
        self.assertEqual(result.max_error, Fraction(0.1))  # |0.1 + z - z| with target z for n = 1
        self.assertNotEqual(result.max_error, Fraction(1, 10))

    def test_dict_nan_message_equals_file(self):
        path = os.path.join(SAFETENSORS, "bad_nan.safetensors")
        tensors, metadata = read_safetensors_dict(path)
        message, code = cli_error("eval", "--model", path, "--n", "3")
        self.assertEqual(code, 2)
        with self.assertRaises(kernelrank.InputError) as caught:
            kernelrank.evaluate(tensors, activation=metadata["activation"], name=path, n=3)
        self.assertEqual(str(caught.exception), message)
        with self.assertRaises(kernelrank.InputError) as caught:
            kernelrank.evaluate(path, n=3)
        self.assertEqual(str(caught.exception), message)
        self.assertEqual(caught.exception.file, path)

    def test_dict_missing_tensor(self):
        tensors, _ = read_safetensors_dict(os.path.join(SAFETENSORS, "head_m3_relu_f64.safetensors"))
        del tensors["value.bias"]
        with self.assertRaises(kernelrank.InputError) as caught:
            kernelrank.evaluate(tensors, n=3)
        self.assertIn("missing tensor 'value.bias'", str(caught.exception))
        self.assertTrue(str(caught.exception).startswith("<dict>: error: "))
        with self.assertRaises(kernelrank.UsageError):
            kernelrank.evaluate({"query.weight": [[1.0], [1.0, 2.0]]}, n=3)  # ragged
        with self.assertRaises(TypeError):
            kernelrank.evaluate({"query.weight": [["x"]]}, n=3)


class ErrorMessageTest(unittest.TestCase):
    def assertSameError(self, exc_class, call, *cli_args):
        message, _ = cli_error(*cli_args)
        with self.assertRaises(exc_class) as caught:
            call()
        # One message from the library: the CLI names the flags, the module the keywords.
        self.assertEqual(str(caught.exception), with_keywords(message))
        self.assertIsInstance(caught.exception, kernelrank.Error)

    def test_missing_model_file(self):
        path = "/nonexistent/dir/missing.model"
        self.assertSameError(kernelrank.InputError, lambda: kernelrank.evaluate(path, n=3),
                             "eval", "--model", path, "--n", "3")

    def test_malformed_model_file(self):
        path = os.path.join(MODELS, "malformed_row.model")
        self.assertSameError(kernelrank.InputError, lambda: kernelrank.evaluate(path, n=3),
                             "eval", "--model", path, "--n", "3")

    def test_json_model_error_has_line_and_column(self):
        # The float 0.5 is the second element of kernel row 0 on line 3: after the nine
        # characters '  [["1", ' it starts in column 10 (counted here by hand).
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "float.json")
            with open(path, "w") as f:
                f.write('{"format": "kernelrank-model", "version": 1, "m": 1,\n'
                        ' "tokens": ["0", "1"], "kernel":\n'
                        '  [["1", 0.5], ["1", "1"]], "readout": [["0", "0"], ["0", "0"]]}\n')
            self.assertSameError(kernelrank.InputError, lambda: kernelrank.evaluate(path, n=2),
                                 "eval", "--model", path, "--n", "2")
            with self.assertRaises(kernelrank.InputError) as caught:
                kernelrank.evaluate(path, n=2)
            self.assertEqual((caught.exception.line, caught.exception.column), (3, 10))
            self.assertIn("kernel[0][1]: JSON number 0.5 is not exact", str(caught.exception))

    def test_bound_m_out_of_range(self):
        # The library's message: the CLI names the flag (--m), the module the keyword (m).
        for m in ("0", "100001"):
            message, _ = cli_error("bound", "--m", m)
            with self.assertRaises(kernelrank.UsageError) as caught:
                kernelrank.bound(int(m))
            self.assertEqual(message, "--m must be in 1..100000")
            self.assertEqual(str(caught.exception), with_keywords(message))

    def test_width_mismatch_and_bad_mode(self):
        path = os.path.join(MODELS, "tabular_m2.model")
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.evaluate(path, m=3),
                             "eval", "--model", path, "--m", "3")
        self.assertSameError(kernelrank.UsageError,
                             lambda: kernelrank.evaluate(builtin="softmax", m=3, mode="middle"),
                             "eval", "--builtin", "softmax", "--m", "3", "--mode", "middle")
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.evaluate(builtin="rank1-mean", base=2, m=3),
                             "eval", "--builtin", "rank1-mean", "--base", "2", "--m", "3")

    def test_resource_limit(self):
        self.assertSameError(kernelrank.ResourceError,
                             lambda: kernelrank.evaluate(builtin="softmax", m=4096, n=3, profiles=True),
                             "eval", "--builtin", "softmax", "--m", "4096", "--n", "3", "--profiles")

    def test_output_error(self):
        bad = "/nonexistent/dir/out"
        self.assertSameError(kernelrank.OutputError,
                             lambda: kernelrank.generate_family(4, train=2, test=2, out=bad, format="family"),
                             "generate", "--m", "4", "--train", "2", "--test", "2", "--out-prefix", bad,
                             "--format", "family")


class BoundTest(unittest.TestCase):
    def test_bound_matches_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            for m in (5, 8, 12):
                py_cert = os.path.join(tmp, "py-%d.cert" % m)
                cli_cert = os.path.join(tmp, "cli-%d.cert" % m)
                result = kernelrank.bound(m, certificate=py_cert)
                cli = cli_json("bound", "--m", str(m), "--cert", cli_cert)
                self.assertIsInstance(result, kernelrank.BoundResult)
                self.assertIs(type(result.bound), int)
                self.assertEqual(result.bound, int(cli["bound"]))
                self.assertEqual(result.source, cli["source"])
                self.assertEqual(result.rule, cli["rule"])
                self.assertEqual(result.construction, cli.get("construction"))
                self.assertEqual([(s, str(b), d, c) for s, b, d, c in result.sources],
                                 [(s["source"], s["bound"], s["detail"], s["checked"])
                                  for s in cli["sources"]])
                # Only the winner's number went through the checker; the rest are claims.
                self.assertEqual([(s, b) for s, b, _, c in result.sources if c],
                                 [(result.source, result.bound)])
                with open(py_cert) as a, open(cli_cert) as b:
                    text = a.read()
                    self.assertEqual(text, b.read())
                self.assertEqual(text, result.certificate)
                self.assertEqual(result.certificate_path, py_cert)
                self.assertIn("certificate written to " + py_cert, result.message)
                self.assertTrue(kernelrank.check_certificate(py_cert).verified)

    def test_r_ruled_out(self):
        result = kernelrank.bound(8, r=1)
        cli = cli_json("bound", "--m", "8", "--r", "1")
        self.assertEqual(result.r_ruled_out, cli["r_ruled_out"])
        self.assertIsNone(kernelrank.bound(8).r_ruled_out)


class CheckTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.cert = os.path.join(self.tmp.name, "bound-m8-n3.cert")
        with lzma.open(os.path.join(CERTS, "bound-m8-n3.cert.xz"), "rt") as src, open(self.cert, "w") as dst:
            dst.write(src.read())

    def checker(self, *args):
        proc = run([CHECK_BIN, *args])
        return proc.returncode, proc.stdout.strip().splitlines()[-1], proc.stderr.strip()

    def test_shipped_certificate_verifies(self):
        result = kernelrank.check_certificate(self.cert, threads=1)
        self.assertIsInstance(result, kernelrank.CheckResult)
        self.assertTrue(result.verified)
        self.assertEqual(result.status, "s VERIFIED")
        self.assertEqual(result.message, "")
        self.assertEqual(result.exit_code, 0)
        code, status, err = self.checker(self.cert)
        self.assertEqual((code, status), (0, result.status))
        self.assertEqual(result.output, run([CHECK_BIN, self.cert]).stdout)

    def test_corrupted_certificate_does_not_verify(self):
        with open(self.cert) as f:
            lines = f.read().split("\n")
        # Change one digit in the claimed rank: the certificate is simply wrong.
        index = next(i for i, line in enumerate(lines) if line.startswith("rule "))
        line = lines[index]
        pos = max(i for i, c in enumerate(line) if c.isdigit())
        lines[index] = line[:pos] + str((int(line[pos]) + 1) % 10) + line[pos + 1:]
        bad = os.path.join(self.tmp.name, "corrupted.cert")
        with open(bad, "w") as f:
            f.write("\n".join(lines))
        result = kernelrank.check_certificate(bad)
        self.assertFalse(result.verified)
        self.assertFalse(result)
        self.assertEqual(result.status, "s NOT VERIFIED")
        code, status, err = self.checker(bad)
        self.assertNotEqual(code, 0)
        self.assertEqual(result.exit_code, code)
        self.assertEqual(status, result.status)
        self.assertEqual(result.message, err)
        self.assertTrue(result.message.startswith(bad + ":"))

    def test_unreadable_path_raises(self):
        path = os.path.join(self.tmp.name, "missing.cert")
        with self.assertRaises(kernelrank.InputError) as caught:
            kernelrank.check_certificate(path)
        code, status, err = self.checker(path)
        self.assertEqual(code, 2)
        self.assertEqual(str(caught.exception), err)


class TasksTest(unittest.TestCase):
    def test_counterexample_matches_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            py_out, cli_out = os.path.join(tmp, "py.family"), os.path.join(tmp, "cli.family")
            result = kernelrank.counterexample(builtin="softmax", base=2, m=6, out=py_out)
            cli = cli_json("counterexample", "--builtin", "softmax", "--base", "2", "--m", "6", "--out", cli_out)
            self.assertIsInstance(result, kernelrank.Counterexample)
            self.assertEqual(result.path, cli["path"])
            self.assertEqual(result.explanation, cli["explanation"])
            failing = result.failing
            self.assertTrue(failing.fails)
            self.assertEqual(failing.tokens, cli["failing"]["tokens"])
            self.assertEqual(failing.query, cli["failing"]["query"])
            self.assertEqual(failing.output, Fraction(cli["failing"]["output"]))
            with open(py_out) as a, open(cli_out) as b:
                self.assertEqual(a.read(), b.read())
            self.assertEqual(result.out, py_out)

    def test_counterexample_none_when_solving(self):
        result = kernelrank.counterexample(builtin="softmax", base=3, m=4)
        cli = cli_json("counterexample", "--builtin", "softmax", "--base", "3", "--m", "4")
        self.assertIsNone(result.failing)
        self.assertEqual(result.solves, cli.get("solves", False))

    def test_generate_matches_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            py_prefix, cli_prefix = os.path.join(tmp, "py"), os.path.join(tmp, "cli")
            sets = kernelrank.generate_family(10, n=3, mode="all", seed=7, train=20, test=15, out=py_prefix)
            cli = cli_json("generate", "--m", "10", "--n", "3", "--mode", "all", "--seed", "7", "--train", "20",
                           "--test", "15", "--out-prefix", cli_prefix)
            self.assertEqual(len(sets.train), cli["train"])
            self.assertEqual(len(sets.test), cli["test"])
            for field in ("m", "n", "source"):
                self.assertEqual(getattr(sets, field), cli[field], field)
            self.assertEqual([f.replace(py_prefix, "P") for f in sets.files],
                             [f.replace(cli_prefix, "P") for f in cli["files"]])
            for py_file, cli_file in zip(sets.files, cli["files"]):
                with open(py_file) as a, open(cli_file) as b:
                    self.assertEqual(a.read(), b.read(), py_file)
            with open(py_prefix + "-train.jsonl") as f:
                rows = [json.loads(line) for line in f]
            self.assertEqual([(r["query"], r["tokens"], r["target"]) for r in rows],
                             [(i.query, i.tokens, i.target) for i in sets.train])
            keys = {(i.query, tuple(i.tokens)) for i in sets.train}
            self.assertFalse(keys & {(i.query, tuple(i.tokens)) for i in sets.test})
            self.assertIsNone(sets.train[0].fails)

    def test_generate_weight(self):
        # weight as the CLI's --weight: every token of both pools has exactly that many ones,
        # the targets are the Min-IP targets of the tokens, and the files are the CLI's.
        with tempfile.TemporaryDirectory() as tmp:
            py_prefix, cli_prefix = os.path.join(tmp, "py"), os.path.join(tmp, "cli")
            sets = kernelrank.generate_family(10, weight=3, mode="all", seed=4, train=40, test=20,
                                              out=py_prefix, format="family")
            cli_json("generate", "--m", "10", "--weight", "3", "--mode", "all", "--seed", "4", "--train", "40",
                     "--test", "20", "--format", "family", "--out-prefix", cli_prefix)
            for split in ("train", "test"):
                with open(f"{py_prefix}-{split}.family") as a, open(f"{cli_prefix}-{split}.family") as b:
                    self.assertEqual(a.read(), b.read(), split)
        self.assertEqual((len(sets.train), len(sets.test)), (40, 20))
        for instance in sets.train + sets.test:
            self.assertTrue(all(len(t) == 10 and t.count("1") == 3 for t in instance.tokens), instance)
            q = instance.tokens[instance.query - 1]
            common = [sum(a == b == "1" for a, b in zip(q, t)) for t in instance.tokens]
            self.assertEqual(instance.target, min(common))
        self.assertIn("weight 3", sets.source)
        # Out of range, or beside golay: UsageError naming weight, in the CLI's words.
        for value in (11, -1):
            with self.assertRaises(kernelrank.UsageError) as caught:
                kernelrank.generate_family(10, weight=value, train=1, test=1)
            message, _ = cli_error("generate", "--m", "10", "--weight", str(value), "--train", "1", "--test", "1",
                                   "--out-prefix", os.path.join(tempfile.gettempdir(), "unused"))
            self.assertTrue(str(caught.exception).startswith("weight must be in 0..m = 0..10"), caught.exception)
            self.assertEqual(message, "--" + str(caught.exception))
        with self.assertRaises(kernelrank.UsageError) as caught:
            kernelrank.generate_family(golay="octads", weight=8, train=1, test=1)
        self.assertIn("weight", str(caught.exception))
        with self.assertRaises(TypeError):
            kernelrank.generate_family(10, weight="3")

    def test_counterexample_json_fields(self):
        # The Counterexample's fields are the CLI's --json fields, one JSON form for both.
        result = kernelrank.counterexample(builtin="rank1-mean", m=6)
        cli = cli_json("counterexample", "--builtin", "rank1-mean", "--m", "6")
        for field in ("path", "task", "model", "explanation", "fallback_reason", "kernel_entries", "solves",
                      "construction"):
            self.assertEqual(getattr(result, field), cli[field], field)
        self.assertEqual(result.failing.tokens, cli["failing"]["tokens"])
        self.assertIsNone(cli["out"])

    def test_generate_golay(self):
        sets = kernelrank.generate_family(golay="octads", train=3, test=3)
        self.assertEqual(sets.m, 24)
        self.assertTrue(all(t.count("1") == 8 for i in sets.train for t in i.tokens))
        with self.assertRaises(kernelrank.UsageError) as caught:
            kernelrank.generate_family(golay="hexads")
        message, _ = cli_error("generate", "--golay", "hexads", "--out-prefix", "x")
        self.assertEqual(message, "--golay must be octads or dodecads")
        self.assertEqual(str(caught.exception), "golay must be octads or dodecads")


if __name__ == "__main__":
    unittest.main()
