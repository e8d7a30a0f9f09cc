#!/usr/bin/env bash
# `kernelrank transcript` (docs/transcript.md): the cube and family figures as documented,
# exact JSON, and impossible parameters refused naming the option (exit 2) or the size (3).
# Usage: run_transcript_tests.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
# $work, fail, run, contains, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"

# D(m,3) = (4^m - 2*3^m + 3*2^m)/2: 317 at m = 5 (docs/transcript.md), log2 in [8, 9].
run 0 "cube T(5,3)" -- "$kr" transcript --m 5
contains "cube D" "$out" "D = 317"
contains "cube bits" "$out" "at least 9 bits"
contains "cube independent" "$out" "5 queries x 2 values: 2^5 = 32 <= D, 5 bits (enumerated)"
run 0 "cube cross-check" -- "$kr" transcript --m 4 --n 4 --cross-check
contains "cross-check agrees" "$out" "brute force and the antichain count agree"
run 0 "cube n = 2 is 2^m" -- "$kr" --json transcript --m 6 --n 2 --method brute-force
echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["answer_vectors"] == "64" and d["min_bits"] == 6 and d["method"] == "brute force"' \
  || fail "transcript --json: T(6,2) should have 64 answer vectors by brute force"
run 0 "wide cube" -- "$kr" --json transcript --m 1000
echo "$out" | python3 -c '
import json,sys
d=json.load(sys.stdin); m=1000
assert int(d["answer_vectors"]) == (4**m - 2*3**m + 3*2**m)//2
assert d["independent"]["product"] == str(2**m) and d["independent"]["verified"] == "blockwise"' \
  || fail "transcript --json --m 1000: D or the independent product is wrong"

printf 'kernelrank-family 1 m=2 n=3\n1 10 11 11\n1 01 11 11\n1 10 00 00\n1 01 00 00\n' >"$work/grid.family"
run 0 "grid family" -- "$kr" transcript --family "$work/grid.family"
contains "grid exact" "$out" "D = 2 (exact: distinct rows of the grid)"
run 0 "witness family" -- "$kr" transcript --family "$src/instances/witness-m24.family"
contains "witness D" "$out" "transcripts:     D = 26 (exact: 26 pairwise-conflicting contexts"
contains "witness contexts" "$out" "contexts:        380"

run 2 "--m 0" -- "$kr" transcript --m 0
contains "--m 0 message" "$err" "kernelrank: error: --m must be at least 1"
run 2 "--n 0" -- "$kr" transcript --m 3 --n 0
contains "--n 0 message" "$err" "--n must be at least 1"
run 2 "both" -- "$kr" transcript --m 3 --family "$work/grid.family"
contains "both message" "$err" "--m and --family exclude each other"
run 2 "neither" -- "$kr" transcript
contains "neither message" "$err" "give --m M"
run 2 "--n with a family" -- "$kr" transcript --family "$work/grid.family" --n 3
printf 'kernelrank-family 1 m=2 n=3\n1 10 11\n' >"$work/bad.family"
run 2 "malformed family" -- "$kr" transcript --family "$work/bad.family"
contains "malformed family message" "$err" "bad.family:2: error:"
run 3 "brute force too large" -- "$kr" transcript --m 10 --method brute-force
contains "size message names --m" "$err" "lower --m"
[ -z "$out" ] || fail "a refused run printed on stdout"
count=$((count + 1))

finish
