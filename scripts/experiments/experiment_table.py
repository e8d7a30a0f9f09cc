#!/usr/bin/env python3
"""Markdown tables from `kernelrank train` reports (docs/experiments.md).

  experiment_table.py witness REPORT.json --bound R
      one row per (feature map, initialisation, r): decided error rate and max error per seed
      on the training family, how many seeds are decided solving, float/decided disagreements,
      training seconds per model.
  experiment_table.py ood --scale LABEL REPORT.json BOUND [--scale ...]
      per scale and r: exact-sequence accuracy on the test pool per seed (exact verdicts),
      the training verdicts, the softmax baseline (ball arithmetic), and the transition: the
      smallest r at which the median seed reaches the accuracy threshold.

Relu and square heads are decided exactly (rationals); softmax heads by ball arithmetic (the
report's "exact" object then names the method, and "undecided at P bits" is possible).

Exact values come from the report as "p/q" strings and are compared as fractions; decimals
are for display only. Also checks what must hold: no model with r below the certified bound
is verified exact on a family containing the witness instances (exit 1 otherwise).
"""
import argparse
import json
import statistics
import sys
from fractions import Fraction

THRESHOLD = Fraction(95, 100)  # the OOD transition's accuracy threshold


def load(path):
    with open(path) as f:
        report = json.load(f)
    if report.get("format") != "kernelrank-train-report":
        sys.exit(f"{path}: not a kernelrank train report")
    return report["models"]


def rate(split):
    return Fraction(split["exact"]["error_rate"])


def solves(split):
    return split["exact"]["verdict"].startswith("solves")


def init_of(m):
    return m.get("recipe", {}).get("init", "random")


def fmt_rate(x):
    return f"{float(x):.3f}"


def fmt_max(split):
    m = split["exact"].get("max_error")
    return "undef" if m is None else f"{float(Fraction(m)):.2f}"


def check_bound(models, bound, split_name):
    bad = [m["name"] for m in models
           if m["feature"] != "softmax" and m["r"] < bound and solves(m[split_name])]
    if bad:
        sys.exit(f"contradiction: {bad} verified exact below the certified bound r >= {bound}")


def witness(args):
    models = load(args.report)
    check_bound(models, args.bound, "train")
    seeds = sorted({m["seed"] for m in models})
    head = "| feature | init | r | " + " | ".join(f"seed {s}: error rate (max error)" for s in seeds)
    print(head + " | decided solving | float/decided disagreements | seconds per model |")
    print("|---|---|---:|" + "---|" * len(seeds) + "---:|---:|---:|")
    groups = {}
    for m in models:
        groups.setdefault((m["feature"], init_of(m), m["r"]), {})[m["seed"]] = m
    order = {"relu": 0, "square": 1, "softmax": 2}
    for (feature, init, r), by_seed in sorted(
            groups.items(), key=lambda kv: (order[kv[0][0]], kv[0][1], kv[0][2])):
        cells, exact, disagree, seconds = [], 0, 0, []
        for s in seeds:
            m = by_seed.get(s)
            if m is None:
                cells.append("-")
                continue
            t = m["train"]
            seconds.append(m.get("timing", {}).get("train_seconds", 0))
            if t["exact"]["verdict"] == "float-only":
                cells.append(f"{t['float_error_rate']:.3f} (float only)")
                continue
            undecided = int(t["exact"].get("undecided", "0"))
            cells.append(f"{fmt_rate(rate(t))} ({fmt_max(t)})" +
                         (f", {undecided} undecided" if undecided else ""))
            exact += solves(t)
            disagree += t["disagreements"]
        below = " (below bound)" if feature != "softmax" and r < args.bound else ""
        rr = "m scores" if feature == "softmax" else f"{r}{below}"
        ex = f"{exact}/{len(by_seed)}"
        how = " (ball)" if feature == "softmax" else ""
        sec = f"{statistics.median(seconds):.0f}" if seconds else "-"
        print(f"| {feature}{how} | {init} | {rr} | " + " | ".join(cells) +
              f" | {ex} | {disagree} | {sec} |")


def ood(args):
    for label, path, bound in args.scale:
        bound = int(bound)
        models = load(path)
        check_bound(models, bound, "train")
        print(f"\n**{label}** (certified r >= {bound} for the training family)\n")
        seeds = sorted({m["seed"] for m in models})
        print("| feature | r | test exact-sequence accuracy per seed | median | train decided solving |")
        print("|---|---:|---|---:|---:|")
        transition = None
        by = {}
        for m in models:
            by.setdefault((m["feature"], m["r"]), []).append(m)
        for (feature, r), ms in sorted(by.items(), key=lambda kv: (kv[0][0] == "softmax", kv[0])):
            ms.sort(key=lambda m: m["seed"])
            if feature == "softmax":
                accs = [1 - rate(m["test"]) for m in ms]
                exact = sum(solves(m["train"]) for m in ms)
                print(f"| softmax (ball) | m scores | " + ", ".join(fmt_rate(a) for a in accs) +
                      f" | {fmt_rate(statistics.median(accs))} | {exact}/{len(ms)} |")
                continue
            accs = [1 - rate(m["test"]) for m in ms]
            med = statistics.median(accs)
            if transition is None and med >= THRESHOLD:
                transition = r
            exact = sum(solves(m["train"]) for m in ms)
            print(f"| {feature} | {r} | " + ", ".join(fmt_rate(a) for a in accs) +
                  f" | {fmt_rate(med)} | {exact}/{len(ms)} |")
        where = f"r = {transition}" if transition else "not reached in the grid"
        print(f"\nTransition (median test accuracy >= {float(THRESHOLD):.2f}): {where}; "
              f"certified bound r >= {bound}.")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="kind", required=True)
    w = sub.add_parser("witness")
    w.add_argument("report")
    w.add_argument("--bound", type=int, required=True)
    o = sub.add_parser("ood")
    o.add_argument("--scale", nargs=3, action="append", required=True,
                   metavar=("LABEL", "REPORT", "BOUND"))
    args = p.parse_args()
    witness(args) if args.kind == "witness" else ood(args)


if __name__ == "__main__":
    main()
