#!/usr/bin/env python3
"""Merges the per-m JSON rows of a make-bound-table.sh run (m = M_MIN..M_MAX) into the kept
rows (docs/data/bound-table.jsonl, rewritten) and renders docs/bound-table.md on stdout."""
import json
import sys
from pathlib import Path

rows_dir, m_min, m_max, kept_path = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
kept = {}
if kept_path.exists():
    for line in kept_path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            kept[row["m"]] = row
for m in range(m_min, m_max + 1):
    path = rows_dir / f"m{m}.json"
    if path.exists():
        row = json.loads(path.read_text())
        for key in ("tried", "gap_histogram", "code", "sources", "certificate", "class", "position_dependent", "n"):
            row.pop(key, None)
        kept[m] = row
tmp = kept_path.with_suffix(".jsonl.tmp")
tmp.write_text("".join(json.dumps(kept[m], sort_keys=True) + "\n" for m in sorted(kept)))
tmp.replace(kept_path)

first, last = min(kept), max(kept)
print(f"""# Certified lower bounds on the feature rank, m = {first}..{last} (n = 3)

Every row is a certificate that any single-head normalized attention model with a
nonnegative kernel (class NK, hence PF too) solving the cube task T(m,3) needs at least the
stated number of features r. The certificates are in `instances/bound-certificates/`
(xz-compressed); each one verifies with the independent checker:

    xz -dc instances/bound-certificates/bound-m64-n3.cert.xz > /tmp/b.cert
    build/kernelrank-check /tmp/b.cert

The test suite decompresses and checks all of them (`bound_certificates` in ctest).

How the table was made: `scripts/make-bound-table.sh {first} {last}`, which runs
`kernelrank bound --m M --cert FILE` for each m (the constructions and seeds are fixed, so
the certificates are byte-identical on every run) and `kernelrank-check FILE`. `bound`
takes the best of every source the checker has a rule for (docs/certificate-format.md):

* **code**: the rank bound of a code. The search tries the Golay octads and dodecads
  (m = 24), greedy lexicodes of weight m/2 and m/2 +- 1, subsets of the Johnson scheme for
  small m, and seeded random greedy codes of weight m/2 (minimum distance about m/4, m/3,
  3m/8; at most 12,000 words), each with complement queries and a row-subset search; the
  best exact bound wins, with the column-weighted trace rule of [bounds.md](bounds.md) or
  the diagonal-dominance rule.
* **order**: the order argument ([search.md](search.md)): at m = 4 it refutes rank 1, at
  m = 5 rank 2, from a small core of key pairs whose L2 separations no rank-2 kernel meets.
* **inherit**: for m > 5 the m = 5 order certificate embedded in T(m,3) by padding every
  token with zeros (T(5,3) sits inside T(m,3) with the same overlaps and targets).
* **dependence**: the linear-dependence argument of [bounds.md](bounds.md): floor(m/2)
  queries with disjoint pairs of ones cannot all have their feature vectors in fewer than
  floor(m/2) dimensions, so r >= floor(m/2) (offered for m = 4..17).
* **one row**: r >= 1, since a model without features divides by zero.

On ties the code bound is kept, then the order argument, inheritance, and linear dependence. Times are wall-clock seconds on the development machine
(2 cores, shared with other work), for producing and for checking, as measured when the row
was made (each row keeps its own; rows are redone one m at a time).

| m | r >= | rows | construction | rule | produce (s) | check (s) |
|---:|---:|---:|:---|:---|---:|---:|""")
for m in range(first, last + 1):
    r = kept.get(m)
    if r is None:
        print(f"| {m} | - | - | (not computed) | | | |")
        continue
    if r.get("source", "code") == "code":
        construction = r["construction"].replace(" max_failures=2000 max_words=12000", "")
        rows = f"{r['rows']:,}"
    else:
        construction, rows = r["source_detail"], "-"
    print(f"| {m} | {int(r['bound']):,} | {rows} | {construction} | {r['rule']} | "
          f"{r['produce_seconds']} | {r['check_seconds']} |")
print("""
For comparison (theory.md's reference figures at m = 24): greedy lexicodes about 10, the
759 octads 16, the 2576 dodecads 21, the seed paper's own witness construction 8. The upper
end at n = 3 is the exact positive-feature realisation with 2^m features (L6); better upper
bounds for small m are in [min-rank.md](min-rank.md).""")
