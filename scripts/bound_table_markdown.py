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
  small m, seeded random greedy codes of weight m/2 (minimum distance about m/4, m/3,
  3m/8; at most 12,000 words) and, for m = 24..48, structured codes (Hadamard, RM(2,5),
  the dual BCH [32,11,12] and QR(48) [48,24,12] codes, shortened or extended to the
  neighbouring widths; at most 100,000 words, an evenly spread subset beyond that; see
  "Past the ceiling" in [bounds.md](bounds.md)), each with complement queries and a
  row-subset search; the best exact bound wins, with the column-weighted trace rule of
  [bounds.md](bounds.md) or the diagonal-dominance rule.
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

# The generated-rows certificates (scripts/make-generated-bounds.sh), kept beside the table's rows.
generated_path = kept_path.parent / "generated-bounds.jsonl"
generated = [json.loads(line) for line in generated_path.read_text().splitlines() if line.strip()] \
    if generated_path.exists() else []
if generated:
    print("""
## Generated rows: m = 64 to 256

`kernelrank bound --m M --words N` with N random weight-m/2 words from SplitMix64 (seed 1),
complement queries and the uniform-weight trace rule (`rule trace-uniform`, bounds.md,
"Generated rows"). The certificates name the generator instead of listing the words, so
they are a few hundred bytes; the checker regenerates the words and recomputes all
N(N-1)/2 pairs. They are in `instances/bound-certificates/generated/`, made by
`scripts/make-generated-bounds.sh` (hours for all rows; the test suite checks the m = 64 one
in full and one shard of each of the others, `generated_certificates` in ctest). Times are
wall-clock seconds on the development machine's 2 cores (all threads), for producing (the
producer's pair pass plus the checker's library on the text, which the producer runs before
it writes) and for the standalone `kernelrank-check`, measured while other work shared the
machine; N(N-1)/2 pairs and the prediction N / (1 + (N-1)/S(m)) from the ceiling S(m) of
bounds.md for comparison.

| m | r >= | N | pairs | predicted | produce (s) | check (s) | threads | certificate (bytes) |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|""")
    ceiling = {64: 3664.11, 80: 28899.4, 96: 227992, 128: 1.41709e7, 192: 5.47494e10, 256: 2.11514e14}
    for r in sorted(generated, key=lambda row: row["m"]):
        n_words = int(r["words"])
        s = ceiling.get(r["m"])
        predicted = f"{n_words / (1 + (n_words - 1) / s):,.0f}" if s else "-"
        print(f"| {r['m']} | {int(r['bound']):,} | {n_words:,} | {int(r['unordered_pairs']):.2e} | {predicted} | "
              f"{r['produce_seconds']:.0f} | {r['check_seconds']:.0f} | {r['threads']} | {r['certificate_bytes']} |")

# The products-of-codes section (scripts/make-product-bounds.sh), from its TSV.
products_path = kept_path.parent / "product-bounds.tsv"
if products_path.exists():
    rows = [line.split("\t") for line in products_path.read_text().splitlines()[1:] if line.strip()]
    print("""
## Products of codes: any m, and longer contexts

`kernelrank bound --m M [--n N]` also tries products of codes (rule `trace-product`,
certificate format 3; the lemma, the Graham-Sloane closed form and the ceilings are in
[bounds.md](bounds.md#products-of-codes-and-checksum-classes)). At every m below a checksum
class GS(L, W, 0) or two of them win; the certificates are under 1 kB (the checker computes the
class's pair polynomial from its closed form) and take seconds. Made by
`scripts/make-product-bounds.sh` (18 minutes on two cores shared with other builds, most of
it the code search at m = 24 and 48; every value is certified and verified by
kernelrank-check), data in `docs/data/product-bounds.tsv`.

Certified log2(r)/m per context length n (r >= the certified bound; each entry is the best
of all of `bound`'s sources at that m and n, so at m = 24 and 48 a code or a product of
codes other than a checksum class can win; the winners are listed below). At m = 97 and 161
the rows are the same for every n, only R_n changes; they have log2|GS(97,48)|/m = 0.894 and
log2|GS(161,80)|/m = 0.930, which the values climb toward as n grows: the bound approaches
the 2^m realisation for long contexts.

| n | m = 24 | m = 48 | m = 97 | m = 161 |
|---:|---:|---:|---:|---:|""")
    widths = (24, 48, 97, 161)
    table, winner = {}, {}
    for m, n, _, ratio, blocks, _ in rows:
        table.setdefault(int(n), {})[int(m)] = float(ratio)
        winner[(int(m), int(n))] = blocks
    for n in sorted(table):
        if all(w in table[n] for w in widths):
            print(f"| {n} | " + " | ".join(f"{table[n][w]:.3f}" for w in widths) + " |")
    print("""
The winning source at m = 24 and 48 (`source: detail` for a code certificate, else the
blocks of the product):

| m | n | r >= | winner |
|---:|---:|---:|:---|""")
    for m, n, _, _, blocks, r in rows:
        if int(m) in (24, 48):
            print(f"| {m} | {n} | {int(r):,} | {blocks} |")
    print("""
At n = 3 the code search wins at both widths (m = 48: QR(48) words, 469, against 467 for the
product of two dodecad codes); from n = 6 at m = 24 and n = 4 at m = 48 a checksum class wins.
Not in the table: the Hadamard-power refinement (bounds.md, L4') certifies r >= 23 at m = 24,
n = 3 from the dodecads (tests/certs/valid/product_golay_m24_power2.cert), but `bound` does
not offer it yet, so its 21 stands here.""")
    print("""
n = 3, m = 100..2400 (log10 of the certified r; U(m) = 2^(0.18618 m) is the ceiling of the
uniform trace rule, so log2(r)/m cannot pass 0.18618):

| m | log10 r | log2(r)/m | blocks |
|---:|---:|---:|:---|""")
    for m, n, log10, ratio, blocks, _ in rows:
        if n == "3" and int(m) % 100 == 0:
            print(f"| {m} | {float(log10):.2f} | {float(ratio):.4f} | {blocks} |")
    print("""
![certified bounds against m with U(m), S(m) and 2^m](img/product-bounds.png)

The certified values (dots) lie on S(m), just under U(m); both grow as 2^(0.186 m), far
below the 2^m features of the exact realisation: with n = 3 the trace rule cannot certify
more, whatever the rows (bounds.md), while longer contexts (the table above) close the gap.""")

# The upper side beside the lower one (scripts/sandwich_table.py re-checks every shipped head).
print("""
## Both sides

For every m = 4..64: the checked lower bound above (class NK, so PF too) and the cheapest
*layered heads* that solve T(m,3) ([upper-bounds.md](upper-bounds.md)), PF and NK, from
`instances/upper/` (`scripts/make-upper-heads.sh`). Each head was found by exact LPs, decided
by the exact profile evaluator and verified by `kernelrank-check` before it was written, and
`scripts/sandwich_table.py` checks every file again with `kernelrank-check` when it prints this
table (the r and the max error below are the checker's). "rate" is log2(r)/m. The PF heads are
the optimum among layered heads (every cheaper layer set was refuted by an exact LP) unless
marked "best found". "find" is `kernelrank upper`'s time when the file was made (2 cores,
shared with other work), "check" the checker's time on this run.
""")
sys.path.insert(0, str(Path(__file__).resolve().parent))
import sandwich_table  # noqa: E402

sandwich_table.main()
