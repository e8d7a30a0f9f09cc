#!/usr/bin/env python3
"""Markdown tables from `kernelrank train` reports (docs/experiments.md).

  experiment_table.py witness REPORT.json --bound R
      one row per (feature map, initialisation, r): decided error rate and max error per seed
      on the training family, how many seeds are decided solving, float/decided disagreements,
      training seconds per model.
  experiment_table.py ood --scale LABEL M REPORT.json POOL_BOUND BOUND SOURCE [--scale ...]
                          [--transitions FILE]
      per width and (feature map, r): exact-sequence accuracy on the test pool per seed (exact
      verdicts), how many seeds are decided solving each pool, the softmax baseline (ball
      arithmetic), and per feature map the transition rank r*: the smallest r at which the
      median seed reaches the accuracy threshold. POOL_BOUND is the training pool's own
      certificate, BOUND another one that holds for every head solving the pools' task,
      named by SOURCE (e.g. "weight-4 rows"); the pools' bound is the larger.

Relu and square heads are decided exactly (rationals); softmax heads by ball arithmetic (the
report's "exact" object then names the method, and "undecided at P bits" is possible).

Exact values come from the report as "p/q" strings and are compared as fractions; decimals
are for display only. Also checks what must hold: no model with r below the certified bound
of a family is verified exact on that family (exit 1 otherwise): the witness family, or an
OOD training pool with its own certificate.
"""
import argparse
import json
import os
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


def transition_rank(by_r):
    """The smallest r whose median test accuracy reaches THRESHOLD, or None."""
    for r in sorted(by_r):
        if statistics.median(by_r[r]) >= THRESHOLD:
            return r
    return None


def ood(args):
    transitions = []
    for label, width, path, pool_bound, rows_bound, rows_name in args.scale:
        pool_bound, rows_bound = int(pool_bound), int(rows_bound)
        bound = max(pool_bound, rows_bound)
        models = load(path)
        # The pool's own certificate bounds every head that solves the training pool.
        check_bound(models, pool_bound, "train")
        # Exact verdicts on the whole weight-m/2 slice, where ood-scaling.sh computed them.
        slice_path = os.path.join(os.path.dirname(path), "slice.json")
        whole = json.load(open(slice_path)) if os.path.exists(slice_path) else None
        slice_note = ""
        if whole:
            instances = next(iter(whole.values()))[1]
            slice_note = (f"; the last column: failing instances among all {int(instances):,} "
                          f"of the weight-{int(width) // 2} slice, per seed")
        print(f"\n**{label}** (certified r >= {bound} for these pools: training-pool "
              f"certificate {pool_bound}, {rows_name} {rows_bound}{slice_note})\n")
        print("| feature | r | test exact-sequence accuracy per seed | median | "
              "train decided solving | test decided solving | seconds per model |" +
              (" whole slice: failing |" if whole else ""))
        print("|---|---:|---|---:|---:|---:|---:|" + ("---|" if whole else ""))
        by = {}
        for m in models:
            by.setdefault((m["feature"], m["r"]), []).append(m)
        largest = max(m["r"] for m in models if m["feature"] != "softmax")
        per_feature = {}
        for (feature, r), ms in sorted(by.items(), key=lambda kv: (kv[0][0] == "softmax", kv[0])):
            ms.sort(key=lambda m: m["seed"])
            accs = [1 - rate(m["test"]) for m in ms]
            med = statistics.median(accs)
            train_ok = sum(solves(m["train"]) for m in ms)
            test_ok = sum(solves(m["test"]) for m in ms)
            sec = statistics.median(m.get("timing", {}).get("train_seconds", 0) +
                                    m.get("timing", {}).get("verify_seconds", 0) for m in ms)
            name, rr = (("softmax (ball)", "m scores") if feature == "softmax" else (feature, r))
            if feature != "softmax":
                per_feature.setdefault(feature, {})[r] = accs
            cells = ""
            if whole:
                cells = " " + (", ".join(f"{int(whole[m['name']][0]):,}" for m in ms)
                               if all(m["name"] in whole for m in ms) else "-") + " |"
            print(f"| {name} | {rr} | " + ", ".join(fmt_rate(a) for a in accs) +
                  f" | {fmt_rate(med)} | {train_ok}/{len(ms)} | {test_ok}/{len(ms)} | {sec:.0f} |"
                  + cells)
        print()
        for feature, by_r in per_feature.items():
            r_star = transition_rank(by_r)
            where = f"r* = {r_star}" if r_star else f"not reached up to r = {largest}"
            print(f"Transition of {feature} heads (median test accuracy >= "
                  f"{float(THRESHOLD):.2f}): {where}.  ")
            transitions.append((int(width), feature, r_star, largest, bound))
    if args.transitions:
        with open(args.transitions, "w") as f:
            f.write("# m feature r_star largest_r bound (experiment_table.py ood)\n")
            for m, feature, r_star, largest, bound in transitions:
                f.write(f"{m} {feature} {r_star if r_star else '-'} {largest} {bound}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="kind", required=True)
    w = sub.add_parser("witness")
    w.add_argument("report")
    w.add_argument("--bound", type=int, required=True)
    o = sub.add_parser("ood")
    o.add_argument("--scale", nargs=6, action="append", required=True,
                   metavar=("LABEL", "M", "REPORT", "POOL_BOUND", "BOUND", "BOUND_SOURCE"))
    o.add_argument("--transitions", help="write the lines 'm feature r_star largest_r bound'")
    args = p.parse_args()
    witness(args) if args.kind == "witness" else ood(args)


if __name__ == "__main__":
    main()
