#!/usr/bin/env python3
"""Regenerates the seed corpora in tests/fuzz/corpus/<target>/ from the files in tests/,
instances/ and docs/ plus a few hand-written edge cases (docs/robustness.md).

Seeds larger than MAX_SEED bytes are skipped so that every seed fits the fuzzers'
-max_len. Run from anywhere: python3 tests/fuzz/make_corpus.py
"""
import hashlib
import json
import os
import re
import shutil
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
MAX_SEED = 16384
MAX_SEEDS = 48  # per target: the first ones offered (hand-written cases come first)
SEPARATOR = b"%%family%%\n"


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def files(folder, suffix):
    full = os.path.join(ROOT, folder)
    if not os.path.isdir(full):
        return []
    return sorted(os.path.join(folder, name) for name in os.listdir(full) if name.endswith(suffix))


class Target:
    def __init__(self, name):
        self.name = name
        self.dir = os.path.join(CORPUS, name)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.count = 0

    def add(self, data, label):
        if isinstance(data, str):
            data = data.encode()
        if len(data) > MAX_SEED or self.count >= MAX_SEEDS:
            return
        label = re.sub(r"[^A-Za-z0-9_.-]", "_", label)[:60]
        digest = hashlib.sha1(data).hexdigest()[:8]
        with open(os.path.join(self.dir, f"{label}-{digest}"), "wb") as f:
            f.write(data)
        self.count += 1


def doc_model_examples():
    """The model-file examples in docs/model-format.md (fenced blocks)."""
    text = read("docs/model-format.md").decode()
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    return [b for b in blocks if "kernelrank-model 1" in b and "kind=" in b and "<" not in b]


def rational_seeds(t):
    for text in ["0", "-0", "+2", "3", "-12", "3/4", "-2/6", "0.25", ".5", "5.", "2e-3",
                 "1.5E+2", "1e100000", "1e-100000", "1e100001", "-1.25e-7", "123456789/987654321",
                 "9" * 200, "1/" + "7" * 150, "0.1.2", "1/2/3", "1/0", "abc", "+", "-", "",
                 "1e", "1e+", "2/-3", " 1", "1 ", "0x10", "1_000", "٣", "1e0000001"]:
        t.add(text, "number")
    for path in files("tests/data/models", ".model") + files("instances/models", ".model"):
        for field in sorted(set(read(path).decode(errors="replace").split())):
            if re.fullmatch(r"[-+0-9./eE]+", field):
                t.add(field, "field")


def token_seeds(t):
    for width, text in [(4, "0101"), (1, "1"), (64, "1" * 64), (65, "0" * 64 + "1"),
                        (24, "110100000000000000000001"), (7, "{1,3,7}"), (7, "1,4,7"),
                        (7, "{}"), (3, "{3,2}"), (3, "{0}"), (3, "{1,}"), (3, "{4}"),
                        (100, "{1,50,100}"), (2, "01x"), (5, "")]:
        # fuzz_token: the first byte chooses the width (even bytes give width byte/2).
        t.add(bytes([2 * width if width < 128 else 1]) + text.encode(), "token")


def code_seeds(t):
    # Small constant-weight codes written the way `kernelrank code --out` writes them.
    def weight_words(m, w):
        return [format(i, f"0{m}b") for i in range(2 ** m) if bin(i).count("1") == w]
    t.add("# johnson m=4 w=2\n" + "".join(x + "\n" for x in weight_words(4, 2)), "johnson4")
    t.add("# johnson m=6 w=3\n" + "".join(x + "\n" for x in weight_words(6, 3)), "johnson6")
    t.add("".join(x + "\r\n" for x in weight_words(5, 2)), "crlf")
    t.add("0101\n0101\n", "duplicates")
    t.add("01\n011\n", "widths")
    t.add("# only a comment\n", "empty")
    t.add("0" * 70 + "\n" + "1" * 70 + "\n", "wide")
    t.add("01 10\n", "two_fields")
    for path in files("tests/data/families", ".family"):
        t.add(read(path), "family_as_code")


def family_seeds(t):
    seen = set()
    for folder in ["tests/data/families", "instances/counterexamples", "tests/certs/valid",
                   "tests/certs/invalid", "tests/certs/malformed"]:
        for path in files(folder, ".family"):
            data = read(path)
            if data not in seen:
                seen.add(data)
                t.add(data, os.path.basename(path))
    t.add("kernelrank-family 1 m=2 n=3\n", "header_only")
    t.add("kernelrank-family 1 m=3 n=1\r\n1 101\r\n", "crlf")


def model_text_seeds(t):
    for path in files("tests/data/models", ".model") + files("instances/models", ".model"):
        t.add(read(path), os.path.basename(path))
    for i, block in enumerate(doc_model_examples()):
        t.add(block, f"doc{i}")
    t.add("kernelrank-model 1 kind=builtin name=rank1-mean m=4 n=3\n", "rank1")
    t.add("kernelrank-model 1 kind=builtin name=product m=3 base=2\n", "product")
    t.add("kernelrank-model 1 kind=features m=1 r=2 d=0\n"
          "token 0 phiQ 1 -1 phiK 2 1 v c e 0\ntoken 1 phiQ 1 1  phiK 1 0 v c e 0\n", "signed")
    t.add("kernelrank-model 1 kind=features m=1 r=1 d=1 positions=2\n"
          "token 1 pos 2 phiQ 2 phiK 20 v 200 c 2000 e 14\n"
          "token 1 pos 1 phiQ 1 phiK 10 v 100 c 1000 e 7\n", "features_pos")
    t.add("kernelrank-model 1 kind=parametric m=1 r=1 d=0 activation=relu positions=2\n"
          "WQ 1\n1 0\nWK 1\n1 0\nV 1\nC 1\nE 1\n0 0\n"
          "WQ 2\n2 0\nWK 2\n3 1\nV 2\nC 2\nE 2\n0 5\n", "parametric_pos")


def model_json_seeds(t):
    for path in files("tests/data/models", ".json"):
        t.add(read(path), os.path.basename(path))
    base = {"format": "kernelrank-model", "version": 1, "m": 2, "tokens": ["00", "01", "10", "11"],
            "kernel": [["1", "1", "1", "1"], ["1", "1/2", "1", "1/2"], ["1", "1", "1/2", "1/2"],
                       ["1", "1/2", "1/2", "0.25"]],
            "readout": [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 2]]}
    t.add(json.dumps(base, indent=2), "softmax2")
    t.add(json.dumps(base), "compact")
    one = {"format": "kernelrank-model", "version": 1, "m": 1, "tokens": ["1"],
           "kernel": [["2e-3"]], "readout": [[-7]]}
    t.add(json.dumps(one), "one_token")
    t.add('{"format": "kernelrank-model", "version": 1, "m": 1, "tokens": ["1"], '
          '"kernel": [[0.5]], "readout": [[1]]}', "float")
    t.add('{"format": "kernelrank-model", "format": "x"}', "duplicate_key")
    t.add('{"format": "kernelrank-model", "version": 2}', "version2")
    t.add('{"format": "kernelrank-model", "version": 1, "m": 1, "tokens": ["1"], '
          '"kernel": [["1"]], "readout": [[18446744073709551616]]}', "big_integer")
    t.add('{"a": [[[[[[[[[[[[]]]]]]]]]]]}', "nested")


def certificate_seeds(t):
    for folder in ["tests/certs/valid", "tests/certs/malformed", "tests/certs/invalid"]:
        for path in files(folder, ".cert"):
            if not os.path.exists(os.path.join(ROOT, path[:-5] + ".family")):
                t.add(read(path), folder.split("/")[-1] + "_" + os.path.basename(path))


def certificate_family_seeds(t):
    for folder in ["tests/certs/valid", "tests/certs/malformed", "tests/certs/invalid"]:
        for path in files(folder, ".cert"):
            family = path[:-5] + ".family"
            if os.path.exists(os.path.join(ROOT, family)):
                t.add(read(path) + SEPARATOR + read(family),
                      folder.split("/")[-1] + "_" + os.path.basename(path))


def certificate_steps_seeds(t):
    for folder in ["tests/certs/valid", "tests/certs/malformed", "tests/certs/invalid"]:
        for path in files(folder, ".cert"):
            if os.path.exists(os.path.join(ROOT, path[:-5] + ".family")):
                t.add(read(path), folder.split("/")[-1] + "_" + os.path.basename(path))


def main():
    builders = {"fuzz_rational": rational_seeds, "fuzz_token": token_seeds,
                "fuzz_code": code_seeds, "fuzz_family": family_seeds,
                "fuzz_model_text": model_text_seeds, "fuzz_model_json": model_json_seeds,
                "fuzz_certificate": certificate_seeds,
                "fuzz_certificate_family": certificate_family_seeds,
                "fuzz_certificate_steps": certificate_steps_seeds}
    for name, build in builders.items():
        t = Target(name)
        build(t)
        print(f"{name}: {t.count} seeds", file=sys.stderr)


if __name__ == "__main__":
    main()
