#!/usr/bin/env bash
# Generated-rows bounds at scale (docs/scale-out.md): the same certificate and report bytes
# on 1, 2 and 3 threads, from 3 shards merged, and from mpirun -np 2 (and eval's report); merging refuses a
# missing, duplicate or foreign shard; the checker verifies the certificate on any thread
# count and refuses it with an altered seed, count or weight.
# Usage: run_scale_tests.sh KERNELRANK KERNELRANK_CHECK MPI_BUILT MPIEXEC
set -u
kr="$(realpath "$1")"
check="$(realpath "$2")"
mpi_built="$3"
mpiexec="${4:-}"
# $work, fail, run, contains, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"

same() {  # same NAME FILE_A FILE_B
  count=$((count + 1))
  cmp -s "$2" "$3" || fail "$1: $2 and $3 differ"
}
# Each run writes its certificate as g.cert in a directory of its own, so that the reports
# (which name the certificate's path) can be compared byte for byte too.
mkdir -p "$work"/{t1,t2,t3,merged,mpi,mpi1}

args=(bound --m 80 --words 4000 --seed 3)
for t in 1 2 3; do
  run 0 "threads $t" -- env -C "$work/t$t" "$kr" --json "${args[@]}" --threads "$t" --cert g.cert || continue
  echo "$out" >"$work/t$t.json"
done
same "certificate, 1 vs 2 threads" "$work/t1/g.cert" "$work/t2/g.cert"
same "certificate, 1 vs 3 threads" "$work/t1/g.cert" "$work/t3/g.cert"
same "report, 1 vs 2 threads" "$work/t1.json" "$work/t2.json"
contains "generated statement" "$(cat "$work/t1/g.cert")" "generated splitmix64 seed=3 count=4000 weight=40 queries=complement"
run 0 "human report" -- "$kr" "${args[@]}" --threads 2
contains "human bound" "$out" "(generated rows)"
human_one="$out"

for k in 1 2 3; do
  run 0 "shard $k/3" -- "$kr" "${args[@]}" --threads 1 --shard "$k/3" --partial "$work/p$k.json"
done
run 0 "merge 3 shards" -- env -C "$work/merged" "$kr" --json "${args[@]}" --merge "$work/p3.json" "$work/p1.json" \
  "$work/p2.json" --cert g.cert && echo "$out" >"$work/merged.json"
same "certificate, merged vs single" "$work/t1/g.cert" "$work/merged/g.cert"
same "report, merged vs single" "$work/t1.json" "$work/merged.json"
run 2 "merge with a shard missing" -- "$kr" "${args[@]}" --merge "$work/p1.json" "$work/p3.json"
contains "missing shard named" "$err" "shard 2/3 is missing"
run 2 "merge with a duplicate shard" -- "$kr" "${args[@]}" --merge "$work/p1.json" "$work/p1.json" "$work/p2.json"
contains "duplicate shard named" "$err" "also given as"
run 0 "foreign shard" -- "$kr" bound --m 80 --words 4000 --seed 4 --shard 2/3 --partial "$work/q2.json"
run 2 "merge with another seed's shard" -- "$kr" "${args[@]}" --merge "$work/p1.json" "$work/q2.json" "$work/p3.json"
contains "foreign shard refused" "$err" "field 'seed' differs"
printf 'not json' >"$work/junk.json"
run 2 "merge of junk" -- "$kr" "${args[@]}" --merge "$work/junk.json"
contains "junk named" "$err" "junk.json"
test ! -e "$work/none.cert" || fail "merge failure left a certificate"

# The checker on the certificate, any thread count, and with the generator altered.
run 0 "checker, 1 thread" -- "$check" --threads 1 "$work/t1/g.cert" && c1="$out"
run 0 "checker, 2 threads" -- "$check" --threads 2 "$work/t1/g.cert" && c2="$out"
count=$((count + 1)); [ "${c1:-x}" = "${c2:-y}" ] || fail "checker output differs between 1 and 2 threads"
# The checker's own shards: 3 partials merged give the unsharded output plus one line.
for k in 1 2 3; do
  run 0 "checker shard $k/3" -- "$check" --threads 1 --shard "$k/3" --partial "$work/c$k.txt" "$work/t1/g.cert"
  contains "checker shard $k status" "$out" "s PARTIAL"
done
run 0 "checker merge" -- "$check" --merge "$work/t1/g.cert" "$work/c2.txt" "$work/c3.txt" "$work/c1.txt"
count=$((count + 1))
[ "$(echo "$out" | grep -v '^c merged 3 shards$')" = "${c1:-x}" ] || fail "checker merge output differs from the unsharded run"
run 2 "checker merge, shard missing" -- "$check" --merge "$work/t1/g.cert" "$work/c1.txt" "$work/c3.txt"
contains "checker names the missing shard" "$err" "missing"
for alteration in "s/seed=3 /seed=5 /" "s/count=4000 /count=3999 /" "s/weight=40 /weight=39 /"; do
  sed "$alteration" "$work/t1/g.cert" >"$work/altered.cert"
  run 1 "checker refuses: $alteration" -- "$check" "$work/altered.cert"
  contains "not verified: $alteration" "$out" "s NOT VERIFIED"
done

# --r: ruled out below the bound (exit 0), not at or above it (exit 1).
run 0 "--r below the bound" -- "$kr" bound --m 64 --words 1000 --r 500
contains "--r ruled out" "$out" "r = 500 is ruled out"
run 1 "--r above the bound" -- "$kr" bound --m 64 --words 1000 --r 100000
contains "--r not ruled out" "$out" "is not ruled out"

# Impossible parameters, named.
run 2 "one word" -- "$kr" bound --m 64 --words 1
contains "--words named" "$err" "--words"
run 2 "weight m" -- "$kr" bound --m 64 --words 100 --weight 64
contains "--weight named" "$err" "--weight"
run 2 "shard without partial" -- "$kr" bound --m 64 --words 100 --shard 1/2
contains "shard needs partial" "$err" "--partial"
run 2 "bad shard" -- "$kr" bound --m 64 --words 100 --shard 3/2 --partial "$work/x.json"
contains "bad shard named" "$err" "--shard must be k/K"
run 2 "threads without words" -- "$kr" bound --m 64 --threads 2
contains "threads needs words" "$err" "add --words N"
run 2 "too much memory" -- "$kr" bound --m 4096 --words 9000000
contains "memory named" "$err" "4 GiB"

# MPI: two ranks give the single run's bytes.
if [ "$mpi_built" = "ON" ] || [ "$mpi_built" = "1" ] || [ "$mpi_built" = "TRUE" ]; then
  mpi_flags=(--oversubscribe)
  [ "$(id -u)" -eq 0 ] && mpi_flags+=(--allow-run-as-root)
  export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl="self,vader" OMPI_MCA_plm="isolated" \
         OMPI_MCA_btl_vader_single_copy_mechanism=none
  run 0 "mpirun -np 2" -- env -C "$work/mpi" "$mpiexec" "${mpi_flags[@]}" -np 2 "$kr" --json "${args[@]}" \
    --threads 1 --mpi --cert g.cert && echo "$out" >"$work/mpi.json"
  same "certificate, 2 MPI ranks vs single" "$work/t1/g.cert" "$work/mpi/g.cert"
  same "report, 2 MPI ranks vs single" "$work/t1.json" "$work/mpi.json"
  run 0 "mpirun -np 1" -- env -C "$work/mpi1" "$mpiexec" "${mpi_flags[@]}" -np 1 "$kr" --json "${args[@]}" --mpi \
    --cert g.cert
  same "certificate, 1 MPI rank vs single" "$work/t1/g.cert" "$work/mpi1/g.cert"
  # eval over MPI: the merged report of 2 ranks is the single run's, on a failing model.
  ev=(eval --builtin softmax --base 2 --m 6 --n 3 --mode all --failures 3 --brute-force)
  run 1 "eval, one process" -- "$kr" --json "${ev[@]}" --threads 1 && eval_one="$out"
  run 1 "eval, mpirun -np 2" -- "$mpiexec" "${mpi_flags[@]}" -np 2 "$kr" --json "${ev[@]}" --threads 1 --mpi
  count=$((count + 1)); [ "$out" = "${eval_one:-x}" ] || fail "eval report of 2 MPI ranks differs from one process"
else
  run 2 "--mpi without MPI" -- "$kr" "${args[@]}" --mpi
  contains "--mpi explains" "$err" "built without MPI"
fi
finish
