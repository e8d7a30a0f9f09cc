#!/usr/bin/env python3
"""The phase-transition figure of the witness suite (docs/experiments.md), with gnuplot.

Per r: the certified lower bound (no head with fewer features solves the family: a checked
certificate), the constructed upper bound (a verified exact head with that many features),
and the trained heads' decided verdicts: for each (feature map, initialisation) the median
decided error rate over seeds (upper panel) and how many seeds are decided solving (lower
panel). Softmax heads (no r) are listed in the key with their verdicts.

    transition_plot.py REPORT.json --lower 14 --upper 25 --upper-source TEXT --out PREFIX

writes PREFIX.png and PREFIX.svg. Verdicts come from the report's decided fields ("p/q"
strings; exact for relu/square, ball arithmetic for softmax).
"""
import argparse
import json
import statistics
import subprocess
import sys
from fractions import Fraction

STYLE = {("relu", "query-tokens"): ("#1f77b4", 7), ("relu", "random"): ("#1f77b4", 6),
         ("square", "query-tokens"): ("#d62728", 5), ("square", "random"): ("#d62728", 4),
         ("relu", "instance-tokens"): ("#2ca02c", 9), ("square", "instance-tokens"): ("#ff7f0e", 11)}


def series(models):
    groups = {}
    for m in models:
        if m["feature"] == "softmax":
            continue
        key = (m["feature"], m.get("recipe", {}).get("init", "random"))
        groups.setdefault(key, {}).setdefault(m["r"], []).append(m["train"]["exact"])
    return groups


def script(args, models):
    groups = series(models)
    rs = sorted({r for g in groups.values() for r in g} | {args.lower, args.upper})
    blocks, top, bottom = [], [], []
    for i, (key, by_r) in enumerate(sorted(groups.items())):
        colour, point = STYLE.get(key, ("#555555", 1))
        rows = []
        for r in sorted(by_r):
            verdicts = by_r[r]
            median = statistics.median(float(Fraction(v["error_rate"])) for v in verdicts)
            solved = sum(v["verdict"].startswith("solves") for v in verdicts)
            rows.append(f"{r} {median:.6f} {solved} {len(verdicts)}")
        blocks.append(f"$s{i} << EOD\n" + "\n".join(rows) + "\nEOD\n")
        dash = "1" if key[1] != "random" else "(6,3)"
        style = f"with linespoints lw 1.8 dt {dash} pt {point} ps 1.3 lc rgb '{colour}'"
        top.append(f"$s{i} using 1:2 {style} title '{key[0]}, {key[1]} init'")
        bottom.append(f"$s{i} using 1:3 {style} notitle")
    soft = {}
    for m in models:
        if m["feature"] == "softmax":
            soft.setdefault(m.get("recipe", {}).get("init", "random"), []).append(m)
    for init, ms in sorted(soft.items()):
        solved = sum(m["train"]["exact"]["verdict"].startswith("solves") for m in ms)
        top.append(f"NaN with points pt 0 title 'softmax, {init} init: {solved}/{len(ms)} "
                   f"seeds solve (ball)'")
    top.append(f"NaN with boxes fs solid 0.5 fc rgb '#f2dede' title 'r < {args.lower}: no head "
               f"solves (certificate)'")
    top.append(f"NaN with boxes fs solid 0.5 fc rgb '#dff0d8' title 'r >= {args.upper}: "
               f"an exact head exists'")
    seeds = max(len(v) for g in groups.values() for v in g.values())
    lo, hi = min(rs) / 1.3, max(rs) * 1.3
    common = (f"set lmargin at screen 0.07\nset rmargin at screen 0.64\n"
              f"set logscale x 2\nset xrange [{lo}:{hi}]\nset grid xtics ytics lc rgb '#dddddd'\n"
              f"set object 1 rect from {lo},graph 0 to {args.lower},graph 1 "
              f"fc rgb '#f2dede' fs solid 0.5 noborder behind\n"
              f"set object 2 rect from {args.upper},graph 0 to {hi},graph 1 "
              f"fc rgb '#dff0d8' fs solid 0.5 noborder behind\n"
              f"set arrow 1 from {args.lower},graph 0 to {args.lower},graph 1 nohead "
              f"lw 2 dt (10,5) lc rgb '#a94442'\n"
              f"set arrow 2 from {args.upper},graph 0 to {args.upper},graph 1 nohead "
              f"lw 2 dt (10,5) lc rgb '#3c763d'\n")
    # Ticks at the trained r and the bounds, skipping a bound that would overlap a tick.
    ticks = sorted({r for g in groups.values() for r in g})
    for bound in (args.lower, args.upper):
        if all(abs(bound - t) / t > 0.1 for t in ticks):
            ticks = sorted(ticks + [bound])
    xt = "set xtics (" + ", ".join(f"'{r}' {r}" for r in ticks) + ")\n"
    out = "".join(blocks)
    out += "set multiplot layout 2,1 title \"" + args.title + "\"\n" + common + xt
    out += (f"set label 1 'certified r >= {args.lower}' at {args.lower},graph 0.93 right "
            f"offset -0.5,0 tc rgb '#a94442'\n"
            f"set label 2 'exact head, r = {args.upper}' at {args.upper},graph 0.85 "
            f"left offset 0.5,0 tc rgb '#3c763d'\n")
    out += ("set ylabel 'median decided error rate'\nset yrange [-0.03:1.03]\n"
            "set key at screen 0.655,0.93 left top Left reverse box opaque width -2\n"
            "set format x ''\nunset xlabel\n")
    out += "plot " + ", ".join(top) + "\n"
    out += "unset label 1\nunset label 2\n"
    out += (f"set label 3 'upper bound: {args.upper_source}' at graph 0.01,graph 1.06 "
            f"font ',9' tc rgb '#3c763d'\n")
    out += (f"set ylabel 'seeds decided solving'\nset yrange [-0.2:{seeds + 0.2}]\n"
            f"set ytics 1\nset format x '%g'\nset xlabel 'r (features)'\nset key off\n")
    out += "plot " + ", ".join(bottom) + "\nunset multiplot\n"
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("report")
    p.add_argument("--lower", type=int, required=True)
    p.add_argument("--upper", type=int, required=True)
    p.add_argument("--upper-source", required=True)
    p.add_argument("--title", default="Witness family (m = 24, 1176 instances): "
                   "certified bounds and trained verdicts")
    p.add_argument("--out", required=True)
    args = p.parse_args()
    if args.upper < args.lower:
        sys.exit("--upper is below --lower: the bounds contradict each other")
    models = json.load(open(args.report))["models"]
    body = script(args, models)
    for terminal, ext in (("pngcairo size 1200,800 font 'Sans,10'", "png"),
                          ("svg size 1200,800 font 'Sans,12'", "svg")):
        gp = f"set terminal {terminal}\nset output '{args.out}.{ext}'\n" + body
        subprocess.run(["gnuplot"], input=gp, text=True, check=True)


if __name__ == "__main__":
    main()
