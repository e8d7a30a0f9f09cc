"""kernelrank.witness, kernelrank.certify and kernelrank.construct against the CLI.

Each function runs the application-layer pipeline of its command (src/app/witness_job.cpp,
certify_job.cpp, construct_job.cpp); these tests compare its result field by field with the
CLI's --json output on the same input (an independent process), the files both write byte
for byte, and its argument errors with the CLI's. Run by CTest (test python_module) with
the environment of tests/python/test_module.py.
"""

import fractions
import os
import tempfile
import unittest

import kernelrank
from test_module import BIN, SOURCE, cli_error, cli_json, run, with_keywords

Fraction = fractions.Fraction
WITNESS_M24 = os.path.join(SOURCE, "instances", "witness-m24.family")
WITNESS_M24_CERT = os.path.join(SOURCE, "instances", "witness-m24.cert")
SMALL_FAMILY = os.path.join(SOURCE, "tests", "data", "families", "small.family")

# The fields of a family bound in the CLI's JSON (src/cli/family_output.cpp), where the
# module has the same name.
BOUND_FIELDS = ("found", "why_not", "incomplete_count", "incomplete", "steps_supported")
# With a bound, also whether the checker verified it and its status line.
CHECKED_FIELDS = ("checked", "checker_status")


def read(path):
    with open(path) as f:
        return f.read()


class FamilyBoundAssertions(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def assertSameBound(self, result, cli):
        for field in BOUND_FIELDS:
            self.assertEqual(getattr(result, field), cli[field], field)
        if not cli["found"]:
            self.assertIsNone(result.bound)
            self.assertIsNone(result.rule)
            return
        for field in CHECKED_FIELDS:
            self.assertEqual(getattr(result, field), cli[field], field)
        self.assertTrue(result.checked)
        self.assertEqual(result.checker_status, "s VERIFIED")
        self.assertIs(type(result.bound), int)
        self.assertEqual(result.bound, int(cli["bound"]))
        self.assertEqual(result.rule, cli["rule"])
        self.assertEqual(result.rows, cli["rows"])
        self.assertEqual(result.steps_used, cli["steps_used"])
        self.assertEqual(result.trace_value, Fraction(cli["trace_value"])
                         if "trace_value" in cli else None)
        self.assertEqual(result.shift, Fraction(cli["shift"]) if "shift" in cli else None)

    def assertSameError(self, exc_class, call, *cli_args):
        message, _ = cli_error(*cli_args)
        with self.assertRaises(exc_class) as caught:
            call()
        self.assertEqual(str(caught.exception), with_keywords(message))

    def assertSameRangeError(self, call, *cli_args):
        """An option's range, refused by the CLI's parser: its message is the first line."""
        proc = run([BIN, *cli_args], expect=(2,))
        with self.assertRaises(kernelrank.UsageError) as caught:
            call()
        self.assertEqual(str(caught.exception), with_keywords(proc.stderr.splitlines()[0]))


class WitnessTest(FamilyBoundAssertions):
    def test_witness_matches_cli(self):
        for m, n, mode in ((8, 3, "first"), (12, 4, "last")):
            py_family, py_cert = self.path("py-%d.family" % m), self.path("py-%d.cert" % m)
            cli_family, cli_cert = self.path("cli-%d.family" % m), self.path("cli-%d.cert" % m)
            result = kernelrank.witness(m, n=n, mode=mode, out=py_family, certificate=py_cert)
            cli = cli_json("witness", "--m", str(m), "--n", str(n), "--mode", mode,
                           "--out", cli_family, "--cert", cli_cert)
            self.assertIsInstance(result, kernelrank.WitnessResult)
            self.assertSameBound(result, cli)
            self.assertEqual(result.construction, cli["construction"])
            self.assertEqual(result.instances, cli["instances"])
            self.assertEqual((result.m, result.n), (m, n))
            self.assertEqual(result.family, py_family)
            self.assertEqual(result.certificate_path, py_cert)
            self.assertEqual(read(py_family), read(cli_family))
            self.assertEqual(read(py_cert), read(cli_cert))
            self.assertEqual(result.family_text, read(py_family))
            self.assertEqual(result.certificate, read(py_cert))
            self.assertEqual(int(result), result.bound)
            verdict = kernelrank.check_certificate(py_cert, py_family)
            self.assertTrue(verdict.verified)

    def test_code_and_golay_constructions(self):
        code = self.path("lex.code")
        run([BIN, "--quiet", "code", "--lexicode", "--m", "10", "--w", "5", "--d", "4",
             "--out", code], expect=(0,))
        for keywords, options in (({"code": code}, ["--code", code]),
                                  ({"golay": "octads", "max_instances": 200},
                                   ["--golay", "octads", "--max-instances", "200"])):
            result = kernelrank.witness(**keywords)
            cli = cli_json("witness", *options, "--out", self.path("cli.family"),
                           "--cert", self.path("cli.cert"))
            self.assertSameBound(result, cli)
            self.assertEqual(result.construction, cli["construction"])
            self.assertEqual(result.instances, cli["instances"])
            self.assertEqual(result.family_text, read(self.path("cli.family")))
            self.assertEqual(result.certificate, read(self.path("cli.cert")))

    def test_witness_without_files(self):
        cli_family, cli_cert = self.path("cli.family"), self.path("cli.cert")
        run([BIN, "--quiet", "witness", "--m", "8", "--out", cli_family, "--cert", cli_cert],
            expect=(0,))
        result = kernelrank.witness(8)
        self.assertIsNone(result.family)
        self.assertIsNone(result.certificate_path)
        self.assertEqual(result.family_text, read(cli_family))
        self.assertEqual(result.certificate, read(cli_cert))
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["cli.cert", "cli.family"])

    def test_witness_errors(self):
        out, cert = self.path("x.family"), self.path("x.cert")
        files = ("--out", out, "--cert", cert)
        self.assertSameRangeError(lambda: kernelrank.witness(0), "witness", "--m", "0", *files)
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.witness(4),
                             "witness", "--m", "4", *files)
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.witness(8, mode="all"),
                             "witness", "--m", "8", "--mode", "all", *files)
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.witness(golay="dozens"),
                             "witness", "--golay", "dozens", *files)
        self.assertSameError(kernelrank.UsageError, lambda: kernelrank.witness(8, n=2),
                             "witness", "--m", "8", "--n", "2", *files)
        self.assertSameError(kernelrank.UsageError,
                             lambda: kernelrank.witness(12, max_instances=3),
                             "witness", "--m", "12", "--max-instances", "3", *files)
        with self.assertRaisesRegex(TypeError, "^m must be an int"):
            kernelrank.witness("8")
        with self.assertRaisesRegex(TypeError, "^position_dependent must be a bool"):
            kernelrank.witness(8, position_dependent=1)
        with self.assertRaisesRegex(TypeError, "out"):
            kernelrank.witness(8, out=3)
        with self.assertRaisesRegex(kernelrank.UsageError, "max_instances"):
            kernelrank.witness(8, max_instances=-1)
        with self.assertRaisesRegex(kernelrank.UsageError, "code.*golay"):
            kernelrank.witness(code=SMALL_FAMILY, golay="octads")
        self.assertEqual(os.listdir(self.tmp.name), [])


class CertifyTest(FamilyBoundAssertions):
    def test_certify_matches_cli(self):
        py_cert, cli_cert = self.path("py.cert"), self.path("cli.cert")
        result = kernelrank.certify(WITNESS_M24, certificate=py_cert)
        cli = cli_json("certify", "--family", WITNESS_M24, "--cert", cli_cert)
        self.assertIsInstance(result, kernelrank.CertifyResult)
        self.assertSameBound(result, cli)
        self.assertEqual(result.bound, 18)
        self.assertEqual(result.rule, "shifted-trace")
        self.assertEqual(result.family, WITNESS_M24)
        self.assertEqual((result.m, result.n), (24, 3))
        self.assertEqual(read(py_cert), read(cli_cert))
        self.assertEqual(result.certificate, read(py_cert))
        self.assertEqual(result.certificate_path, py_cert)
        self.assertIn(py_cert, result.message)
        self.assertIsNone(result.lost_steps)
        self.assertTrue(result)
        self.assertTrue(kernelrank.check_certificate(py_cert, WITNESS_M24).verified)
        # Without a file, the verified text all the same.
        bare = kernelrank.certify(WITNESS_M24)
        self.assertEqual(bare.certificate, result.certificate)
        self.assertIsNone(bare.certificate_path)
        self.assertEqual(bare.message, "")

    def test_baseline_and_incomplete(self):
        # Six instances removed: steps of the shipped certificate are lost.
        damaged = self.path("damaged.family")
        lines = read(WITNESS_M24).splitlines(keepends=True)
        with open(damaged, "w") as f:
            f.write("".join(lines[:3] + lines[9:]))
        result = kernelrank.certify(damaged, baseline=WITNESS_M24_CERT, incomplete=2)
        cli = cli_json("certify", "--family", damaged, "--baseline", WITNESS_M24_CERT,
                       "--incomplete", "2")
        self.assertSameBound(result, cli)
        self.assertEqual(result.lost_steps, cli["lost_steps"])
        self.assertEqual(result.lost_steps_count, cli["lost_steps_count"])
        self.assertEqual(len(result.lost_steps), 2)
        self.assertGreater(result.incomplete_count, 0)

    def test_family_without_bound(self):
        cert = self.path("none.cert")
        result = kernelrank.certify(SMALL_FAMILY, certificate=cert)
        cli = cli_json("certify", "--family", SMALL_FAMILY)
        self.assertSameBound(result, cli)
        self.assertFalse(result.found)
        self.assertFalse(result)
        self.assertIsNone(result.certificate)
        self.assertIsNone(result.certificate_path)
        self.assertFalse(os.path.exists(cert))

    def test_certify_errors(self):
        missing = self.path("missing.family")
        self.assertSameError(kernelrank.InputError, lambda: kernelrank.certify(missing),
                             "certify", "--family", missing)
        self.assertSameError(kernelrank.InputError,
                             lambda: kernelrank.certify(WITNESS_M24, baseline=WITNESS_M24),
                             "certify", "--family", WITNESS_M24, "--baseline", WITNESS_M24)
        self.assertSameRangeError(lambda: kernelrank.certify(WITNESS_M24, incomplete=-1),
                                  "certify", "--family", WITNESS_M24, "--incomplete", "-1")
        with self.assertRaisesRegex(TypeError, "family"):
            kernelrank.certify(5)
        with self.assertRaisesRegex(TypeError, "^incomplete must be an int"):
            kernelrank.certify(WITNESS_M24, incomplete="2")


class ConstructTest(FamilyBoundAssertions):
    def assertSameHead(self, result, cli):
        evaluation = cli["evaluation"]
        self.assertIsInstance(result, kernelrank.ConstructResult)
        for field in ("instances", "queries", "r", "activation", "candidates"):
            self.assertEqual(getattr(result, field), cli[field], field)
        self.assertEqual(result.slope, Fraction(cli["slope"]))
        self.assertEqual(result.diagonal, Fraction(cli["diagonal"]))
        self.assertEqual(result.solves, evaluation["solves"])
        self.assertEqual(result.failing, int(evaluation["failing"]))
        self.assertEqual(result.max_error, Fraction(evaluation["max_error"]))
        self.assertEqual(result.worst.tokens, evaluation["worst"]["tokens"])
        self.assertEqual([f.tokens for f in result.failures],
                         [f["tokens"] for f in evaluation["failures"]])

    def test_construct_matches_cli(self):
        py_model, cli_model = self.path("py.model"), self.path("cli.model")
        result = kernelrank.construct(WITNESS_M24, out=py_model)
        cli = cli_json("construct", "--family", WITNESS_M24, "--out", cli_model)
        self.assertSameHead(result, cli)
        self.assertTrue(result.solves)
        self.assertEqual(result.r, 24)
        self.assertEqual(result.model_path, py_model)
        self.assertEqual(read(py_model), read(cli_model))
        self.assertEqual(result.model_text, read(py_model))
        # The written model solves the family in kernelrank.evaluate too.
        self.assertTrue(kernelrank.evaluate(py_model, family=WITNESS_M24).solves)

    def test_given_parameters(self):
        # An exact slope and diagonal as Fraction and int, as the CLI's text.
        result = kernelrank.construct(WITNESS_M24, slope=Fraction(1, 2), diagonal=32)
        cli = cli_json("construct", "--family", WITNESS_M24, "--out", self.path("cli.model"),
                       "--slope", "1/2", "--diagonal", "32")
        self.assertSameHead(result, cli)
        self.assertIsNone(result.model_path)

    def test_failing_head_writes_nothing(self):
        py_model, cli_model = self.path("py.model"), self.path("cli.model")
        result = kernelrank.construct(WITNESS_M24, out=py_model, slope="0", diagonal="1")
        cli = cli_json("construct", "--family", WITNESS_M24, "--out", cli_model,
                       "--slope", "0", "--diagonal", "1")
        self.assertSameHead(result, cli)
        self.assertFalse(result.solves)
        self.assertFalse(result)
        self.assertIsNone(result.model_path)
        self.assertFalse(os.path.exists(py_model) or os.path.exists(cli_model))

    def test_construct_errors(self):
        out = self.path("x.model")
        self.assertSameError(kernelrank.UsageError,
                             lambda: kernelrank.construct(WITNESS_M24, slope="x/y"),
                             "construct", "--family", WITNESS_M24, "--out", out, "--slope", "x/y")
        self.assertSameError(kernelrank.UsageError,
                             lambda: kernelrank.construct(WITNESS_M24, diagonal="1/0"),
                             "construct", "--family", WITNESS_M24, "--out", out,
                             "--diagonal", "1/0")
        missing = self.path("missing.family")
        self.assertSameError(kernelrank.InputError, lambda: kernelrank.construct(missing),
                             "construct", "--family", missing, "--out", out)
        with self.assertRaisesRegex(TypeError, "^slope must be a str, an int or a fractions"):
            kernelrank.construct(WITNESS_M24, slope=0.5)
        with self.assertRaisesRegex(TypeError, "family"):
            kernelrank.construct(None)
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
